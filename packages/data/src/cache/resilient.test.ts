/**
 * A partial outage: one instance loses the shared cache while another keeps it. When the first comes back, the
 * generations move on (never back to 0, where entries stamped before a revocation would match again), the copies
 * built from grants go, and the change events it could not send reach every instance, not only its own.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryCache } from './memory.js';
import { type Cache, CacheUnavailableError } from './port.js';
import { createResilientCache } from './resilient.js';

/** A view of `shared` that fails every call while `cut.on` (this instance's link to Redis is down). */
function link(shared: Cache, cut: { on: boolean }): Cache {
  return new Proxy(shared, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        cut.on
          ? Promise.reject(new CacheUnavailableError('link cut'))
          : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
}

describe('a partial outage of the shared cache', () => {
  it('moves the generations on, drops grant-built copies and tells every instance when the cut one returns', async () => {
    const redis = createMemoryCache();
    const cut = { on: false };
    const options = {
      databaseBackedPrefixes: ['perm:gen', 'perm:u:', 'portal:u:'],
      recoveryCounters: ['perm:gen'],
      recoveryMessages: [{ channel: 'config:changed', message: { key: null } }],
      probeIntervalMs: 60_000,
    };
    const a = createResilientCache({ shared: link(redis, cut), ...options });
    const b = createResilientCache({ shared: redis, ...options });
    const heard: unknown[] = [];
    await b.subscribe('config:changed', (message) => {
      heard.push(message);
    });
    try {
      for (let i = 0; i < 4; i++) await b.increment('perm:gen');
      // B's entry, stamped with the generation it was built under.
      await b.set('portal:u:7', { g: 4, menus: [100] });
      cut.on = true;
      await expect(a.probe()).resolves.toBe('Degraded');
      // A revokes a grant meanwhile: its increment cannot reach the shared counter, B still sees 4.
      await a.increment('perm:gen');
      expect(await b.getCounter('perm:gen')).toBe(4);
      cut.on = false;
      const told = new Promise((resolve) => {
        const stop = b.subscribe('config:changed', (message) => {
          resolve(message);
          void stop.then((s) => s());
        });
      });
      await expect(a.probe()).resolves.toBe('Healthy');
      // Moved on, not reset: a reset counter climbs back to 4 after four edits, and the stale entry matches again.
      expect(await b.getCounter('perm:gen')).toBe(5);
      expect(await b.get('portal:u:7')).toBeUndefined();
      // B never lost Redis, yet drops its config copies too.
      expect(await told).toEqual({ key: null });
      expect(heard).toContainEqual({ key: null });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

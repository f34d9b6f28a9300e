/**
 * The resilient cache against a private redis-server that the tests stop, pause and restart: nothing rejects
 * for want of Redis except shared-only challenges, the outage is reported once, two instances return to
 * shared counters afterwards, and database-backed copies written before the outage do not survive it.
 * Waits are on state-change events, never on time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultServer, startPrivateRedis } from '../testing/faults.js';
import { CacheUnavailableError } from './port.js';
import { createRedisCache } from './redis.js';
import { type CacheHealth, createResilientCache, type ResilientCache } from './resilient.js';

const CHANNEL = 'events:test';
const RESET = { what: 'everything' };

async function open(url: string, keyPrefix: string) {
  const changes: CacheHealth[] = [];
  const cache = createResilientCache({
    shared: await createRedisCache({ url, keyPrefix, onError: () => {} }),
    sharedOnlyPrefixes: ['ch:'],
    databaseBackedPrefixes: ['sess:'],
    recoveryMessages: [{ channel: CHANNEL, message: RESET }],
    commandTimeoutMs: 500,
    probeIntervalMs: 50,
    onStateChange: (state) => changes.push(state),
  });
  return { cache, changes };
}

/** Resolves when `cache` reaches `state` (at once when it is there already). */
function reach(cache: ResilientCache, state: CacheHealth): Promise<void> {
  if (cache.health() === state) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = cache.onStateChange((next) => {
      if (next !== state) return;
      stop();
      resolve();
    });
  });
}

const setup = await startPrivateRedis({ persistent: true });

describe.skipIf(setup.skip !== undefined)(`resilient cache ${setup.skip ?? ''}`, () => {
  const redis = setup.server as FaultServer;
  afterAll(() => redis.destroy());

  describe('Redis stopped and restarted', () => {
    let a: Awaited<ReturnType<typeof open>>;
    let b: Awaited<ReturnType<typeof open>>;
    const received: unknown[] = [];
    let resetHeard: () => void = () => {};
    const heardReset = new Promise<void>((resolve) => {
      resetHeard = resolve;
    });
    beforeAll(async () => {
      [a, b] = await Promise.all([open(redis.url, 'stop:'), open(redis.url, 'stop:')]);
      await b.cache.subscribe(CHANNEL, (message) => {
        received.push(message);
        if (JSON.stringify(message) === JSON.stringify(RESET)) resetHeard();
      });
    });
    afterAll(async () => {
      await Promise.all([a.cache.close(), b.cache.close()]);
    });

    it('shares counters while healthy', async () => {
      await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).cache.increment('rl:x')));
      expect(await a.cache.getCounter('rl:x')).toBe(10);
      await a.cache.set('sess:1', { live: true });
      expect(await b.cache.get('sess:1')).toEqual({ live: true });
    });

    it('while Redis is down: no operation rejects except shared-only keys, and the outage is reported once', async () => {
      await redis.stop();
      const burst = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).cache.increment('rl:x')),
      );
      expect(burst.filter((r) => r.status === 'rejected')).toHaveLength(0);
      // Per instance now: each counted its own 20 from zero.
      expect(await a.cache.getCounter('rl:x')).toBe(20);
      expect(await b.cache.getCounter('rl:x')).toBe(20);
      expect(a.changes).toEqual(['Degraded']);
      expect(b.changes).toEqual(['Degraded']);
      expect(a.cache.health()).toBe('Degraded');

      // Database-backed copies are neither read nor written locally: every check goes to the database.
      await a.cache.set('sess:2', { live: true });
      expect(await a.cache.get('sess:1')).toBeUndefined();
      expect(await a.cache.get('sess:2')).toBeUndefined();

      // Challenges live only in Redis.
      await expect(a.cache.set('ch:captcha', 'x', 60_000)).rejects.toBeInstanceOf(CacheUnavailableError);
      await expect(b.cache.take('ch:captcha')).rejects.toBeInstanceOf(CacheUnavailableError);

      // Local windows continue; publish reaches this instance only.
      expect(await a.cache.setIfAbsent('win:1', 1, 60_000)).toBe(true);
      expect(await a.cache.setIfAbsent('win:1', 1, 60_000)).toBe(false);
      await b.cache.publish(CHANNEL, 'local');
      expect(received).toEqual(['local']);
      await expect(a.cache.probe()).resolves.toBe('Degraded');
    });

    it('when Redis returns: back to shared counters, local state and stale copies dropped, subscribers told', async () => {
      await redis.start();
      await Promise.all([reach(a.cache, 'Healthy'), reach(b.cache, 'Healthy')]);
      expect(a.changes).toEqual(['Degraded', 'Healthy']);
      // The pre-outage shared counter (10) is in use again; the local 20s are gone.
      await a.cache.increment('rl:x');
      expect(await b.cache.getCounter('rl:x')).toBe(11);
      // The session copy written before the outage may predate a revocation made during it.
      expect(await b.cache.get('sess:1')).toBeUndefined();
      expect(await a.cache.has('win:1')).toBe(false);
      // The recovery message goes out through Redis, from each instance that recovers, to every instance.
      await heardReset;
      expect(received[0]).toBe('local');
      for (const message of received.slice(1)) expect(message).toEqual(RESET);
      // The shared subscription works again.
      let deliver: (message: unknown) => void = () => {};
      const next = new Promise((resolve) => {
        deliver = resolve;
      });
      // Resolves once the subscription is live: no wait for time before publishing.
      await b.cache.subscribe('events:after', (message) => deliver(message));
      await a.cache.publish('events:after', 'shared');
      expect(await next).toBe('shared');
    });
  });

  describe('Redis that stops answering (frozen process)', () => {
    it('times a command out and serves from the fallback instead of hanging', async () => {
      const { cache, changes } = await open(redis.url, 'frozen:');
      try {
        redis.freeze?.();
        const settled = await Promise.allSettled(
          Array.from({ length: 10 }, () => cache.increment('rl:p', { ttlMs: 60_000 })),
        );
        expect(settled.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'));
        expect(await cache.getCounter('rl:p')).toBe(10);
        expect(changes).toEqual(['Degraded']);
        redis.thaw?.();
        await reach(cache, 'Healthy');
        expect(changes).toEqual(['Degraded', 'Healthy']);
      } finally {
        redis.thaw?.();
        await cache.close();
      }
    });
  });
});

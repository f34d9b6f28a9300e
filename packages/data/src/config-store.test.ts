import { describe, expect, it } from 'vitest';
import { createMemoryCache } from './cache/memory.js';
import { createConfigStore } from './config-store.js';
import type { SysConfigRow } from './rows.js';
import { latePubSub } from './testing/fixtures.js';

function fakeRepo(initial: Record<string, string>) {
  const values = new Map(Object.entries(initial));
  let reads = 0;
  return {
    values,
    reads: () => reads,
    async listAll() {
      reads++;
      return [...values].map(([configKey, configValue]) => ({ configKey, configValue }) as SysConfigRow);
    },
  };
}

describe('config store', () => {
  it('reads from one snapshot until it is older than the TTL', async () => {
    let clock = 0;
    const repo = fakeRepo({ 'sys.a': '1' });
    const store = await createConfigStore({
      repo,
      cache: createMemoryCache(),
      ttlMs: 1000,
      now: () => clock,
    });
    expect(await store.getRaw('sys.a')).toBe('1');
    repo.values.set('sys.a', '2');
    expect(await store.getRaw('sys.a')).toBe('1');
    expect(repo.reads()).toBe(1);
    clock = 1000;
    expect(await store.getRaw('sys.a')).toBe('2');
    expect(await store.getRaw('missing')).toBeUndefined();
  });

  it('re-reads after a change event from another store on the same cache', async () => {
    const cache = createMemoryCache();
    const repo = fakeRepo({ 'sys.a': '1' });
    const events: (string | null)[] = [];
    const a = await createConfigStore({ repo, cache, onChanged: (e) => events.push(e.key) });
    const b = await createConfigStore({ repo, cache });
    expect(await a.getRaw('sys.a')).toBe('1');
    repo.values.set('sys.a', '3');
    await b.invalidate('sys.a');
    expect(await a.getRaw('sys.a')).toBe('3');
    expect(events).toEqual(['sys.a']);
  });

  it('keeps a snapshot read after its own change when the echo of that change arrives later (Redis)', async () => {
    const { cache, deliver } = latePubSub();
    const repo = fakeRepo({ 'sys.a': '1' });
    const events: (string | null)[] = [];
    const a = await createConfigStore({ repo, cache, onChanged: (e) => events.push(e.key) });
    const b = await createConfigStore({ repo, cache });
    expect(await a.getRaw('sys.a')).toBe('1');
    repo.values.set('sys.a', '2');
    await a.invalidate('sys.a');
    // Dropped at once, and told at once, on the store that raised it.
    expect(events).toEqual(['sys.a']);
    expect(await a.getRaw('sys.a')).toBe('2');
    expect(await b.getRaw('sys.a')).toBe('2');
    // A write behind the store's back, then the echo: `a` keeps what it read; `b`, which did not raise it, drops.
    repo.values.set('sys.a', '3');
    deliver();
    expect(await a.getRaw('sys.a')).toBe('2');
    expect(await b.getRaw('sys.a')).toBe('3');
    expect(events).toEqual(['sys.a']);
    // An event from nowhere in particular (the recovery after an outage) reaches every store.
    await cache.publish('events:config-changed', { key: null });
    deliver();
    expect(await a.getRaw('sys.a')).toBe('3');
    expect(events).toEqual(['sys.a', null]);
    // So does a payload that is no event at all: it drops rather than throws.
    repo.values.set('sys.a', '4');
    await cache.publish('events:config-changed', null);
    expect(() => deliver()).not.toThrow();
    expect(await a.getRaw('sys.a')).toBe('4');
    expect(events).toEqual(['sys.a', null, null]);
  });

  it('loads once for concurrent readers', async () => {
    const repo = fakeRepo({ 'sys.a': '1' });
    const store = await createConfigStore({ repo, cache: createMemoryCache() });
    await Promise.all(Array.from({ length: 20 }, () => store.getRaw('sys.a')));
    expect(repo.reads()).toBe(1);
  });

  it('reports a version while a snapshot is current, and a new one after a change', async () => {
    let clock = 0;
    const cache = createMemoryCache();
    const store = await createConfigStore({
      repo: fakeRepo({ 'sys.a': '1' }),
      cache,
      ttlMs: 1000,
      now: () => clock,
    });
    expect(store.version()).toBeUndefined();
    await store.getRaw('sys.a');
    const first = store.version();
    expect(first).toBeDefined();
    await store.invalidate('sys.a');
    expect(store.version()).toBeUndefined();
    await store.getRaw('sys.a');
    expect(store.version()).not.toBe(first);
    clock = 5000;
    expect(store.version()).toBeUndefined();
  });
});

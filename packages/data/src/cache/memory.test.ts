/**
 * What only the in-process provider has: the entry limit (least recently used goes first), the backstop
 * lifetime, and the exemption of counters from both. Time moves through the injected clock.
 */
import { describe, expect, it } from 'vitest';
import { createCache } from './index.js';
import { createMemoryCache, type MemoryCacheOptions } from './memory.js';

const MINUTE = 60_000;

function setup(options: Omit<MemoryCacheOptions, 'now'> = {}) {
  let clock = Date.parse('2025-06-01T00:00:00Z');
  const cache = createMemoryCache({ ...options, now: () => clock });
  return {
    cache,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('memory cache entry limit', () => {
  it('evicts the least recently used value once the limit is passed', async () => {
    const { cache } = setup({ entryLimit: 3 });
    await cache.set('a', 1);
    await cache.set('b', 2);
    await cache.set('c', 3);
    expect(await cache.get('a')).toBe(1); // a is now more recent than b
    await cache.set('d', 4);
    expect(await cache.has('b')).toBe(false);
    expect(await cache.get('a')).toBe(1);
    expect(await cache.get('c')).toBe(3);
    expect(await cache.get('d')).toBe(4);
  });

  it('neither evicts counters nor counts them against the limit', async () => {
    const { cache } = setup({ entryLimit: 2 });
    for (let i = 0; i < 10; i++) await cache.increment(`lock:${i}`, { ttlMs: 10 * MINUTE, slide: true });
    await cache.set('v1', 1);
    await cache.set('v2', 2);
    for (let i = 0; i < 10; i++) await cache.set(`churn:${i}`, i);
    for (let i = 0; i < 10; i++) expect(await cache.getCounter(`lock:${i}`)).toBe(1);
    expect(await cache.has('churn:8')).toBe(true);
    expect(await cache.has('churn:9')).toBe(true);
    expect(await cache.has('churn:7')).toBe(false);
    expect(await cache.has('v1')).toBe(false);
  });

  it('keeps every value when the limit is 0', async () => {
    const { cache } = setup({ entryLimit: 0 });
    for (let i = 0; i <= 100_000; i++) await cache.set(`k:${i}`, i);
    expect(await cache.get('k:0')).toBe(0);
    expect(await cache.deleteByPrefix('k:')).toBe(100_001);
  });

  it('rejects a negative or fractional limit', () => {
    expect(() => createMemoryCache({ entryLimit: -1 })).toThrow(RangeError);
    expect(() => createMemoryCache({ entryLimit: 1.5 })).toThrow(RangeError);
    expect(() => createMemoryCache({ maxEntryMinutes: -1 })).toThrow(RangeError);
  });
});

describe('memory cache backstop', () => {
  it('expires values without a TTL after maxEntryMinutes', async () => {
    const { cache, advance } = setup({ maxEntryMinutes: 5 });
    await cache.set('site', { title: 'x' });
    expect(await cache.ttlMs('site')).toBe(5 * MINUTE);
    advance(5 * MINUTE - 1);
    expect(await cache.get('site')).toEqual({ title: 'x' });
    advance(1);
    expect(await cache.get('site')).toBeUndefined();
  });

  it('caps a longer TTL and leaves a shorter one alone', async () => {
    const { cache, advance } = setup({ maxEntryMinutes: 5 });
    await cache.set('long', 1, 60 * MINUTE);
    await cache.set('short', 1, 2 * MINUTE);
    expect(await cache.ttlMs('long')).toBe(5 * MINUTE);
    advance(2 * MINUTE);
    expect(await cache.has('short')).toBe(false);
    expect(await cache.has('long')).toBe(true);
    advance(3 * MINUTE);
    expect(await cache.has('long')).toBe(false);
  });

  it('applies the default of 1440 minutes', async () => {
    const { cache, advance } = setup();
    await cache.set('k', 1);
    advance(1440 * MINUTE - 1);
    expect(await cache.has('k')).toBe(true);
    advance(1);
    expect(await cache.has('k')).toBe(false);
  });

  it('exempts counters, with or without their own TTL', async () => {
    const { cache, advance } = setup({ maxEntryMinutes: 1 });
    await cache.increment('portal:generation');
    await cache.increment('sms:daily:13800000000', { ttlMs: 24 * 60 * MINUTE });
    advance(12 * 60 * MINUTE);
    expect(await cache.getCounter('portal:generation')).toBe(1);
    expect(await cache.getCounter('sms:daily:13800000000')).toBe(1);
    expect(await cache.ttlMs('portal:generation')).toBe(Number.POSITIVE_INFINITY);
    advance(12 * 60 * MINUTE);
    expect(await cache.getCounter('sms:daily:13800000000')).toBe(0);
    expect(await cache.getCounter('portal:generation')).toBe(1);
  });

  it('keeps values without a TTL for ever when maxEntryMinutes is 0', async () => {
    const { cache, advance } = setup({ maxEntryMinutes: 0 });
    await cache.set('k', 1);
    expect(await cache.ttlMs('k')).toBe(Number.POSITIVE_INFINITY);
    advance(365 * 24 * 60 * MINUTE);
    expect(await cache.get('k')).toBe(1);
  });
});

describe('memory cache values', () => {
  it('hands out copies, so a caller cannot change what is stored', async () => {
    const { cache } = setup();
    const roles = ['admin'];
    await cache.set('roles', roles);
    roles.push('mutated');
    const first = await cache.get<string[]>('roles');
    first?.push('mutated too');
    expect(await cache.get('roles')).toEqual(['admin']);
  });
});

describe('createCache', () => {
  it('builds the memory provider with its options', async () => {
    const cache = await createCache({ provider: 'Memory', entryLimit: 1 });
    expect(cache.provider).toBe('Memory');
    await cache.set('a', 1);
    await cache.set('b', 2);
    expect(await cache.has('a')).toBe(false);
    await cache.close();
  });

  it('rejects an unknown provider', async () => {
    await expect(createCache({ provider: 'Memcached' } as never)).rejects.toThrow(
      /Unknown cache provider: Memcached/,
    );
  });
});

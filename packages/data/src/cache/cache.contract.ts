/**
 * The behaviour every cache provider must show, written once and run by one thin file per provider
 * (`memory.int.test.ts`, `redis.int.test.ts`). Concurrency cases race the cache against a peer handle on the
 * same store, which for Redis is a second connection, the way two service instances would race.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, CacheError, type MessageHandler } from './port.js';

/** What a provider's runner hands the contract for each test. */
export interface CacheContractFixture {
  /** The cache under test, empty. */
  cache: Cache;
  /** Another handle on the same store: a second instance for Redis, the same object in-process. */
  peer: Cache;
  /** Lets `ms` pass: moves the injected clock, or sleeps for real where the store keeps its own time. */
  elapse(ms: number): Promise<void>;
  /** Errors the caches reported through `onError`. */
  reportedErrors: unknown[];
  /** Closes both handles (tolerating closed ones) and removes whatever the test wrote. */
  dispose(): Promise<void>;
}

const CONCURRENCY = 50;
const MESSAGE_TIMEOUT_MS = 2_000;

/** Subscribes and queues what arrives, so a test can await the next message with a deadline. */
async function listen<T>(cache: Cache, channel: string) {
  const received: T[] = [];
  const waiters: Array<(message: T) => void> = [];
  const handler: MessageHandler<T> = (message) => {
    received.push(message);
    waiters.shift()?.(message);
  };
  const unsubscribe = await cache.subscribe<T>(channel, handler);
  let consumed = 0;
  const next = () =>
    new Promise<T>((resolve, reject) => {
      if (received.length > consumed) {
        resolve(received[consumed++] as T);
        return;
      }
      const timer = setTimeout(() => reject(new Error(`no message on ${channel}`)), MESSAGE_TIMEOUT_MS);
      waiters.push((message) => {
        clearTimeout(timer);
        consumed++;
        resolve(message);
      });
    });
  return { received, next, unsubscribe };
}

export function defineCacheContract(name: string, setup: () => Promise<CacheContractFixture>): void {
  describe(`cache contract: ${name}`, () => {
    let f: CacheContractFixture;
    let cache: Cache;
    let peer: Cache;

    beforeEach(async () => {
      f = await setup();
      ({ cache, peer } = f);
    });
    afterEach(async () => {
      await f.dispose();
    });

    describe('values', () => {
      it('stores JSON values and returns their JSON round trip', async () => {
        const at = new Date('2025-01-02T03:04:05.000Z');
        await cache.set('user:1', { name: 'Ann', roles: [1, 2], at, nested: { ok: true, none: null } });
        expect(await peer.get('user:1')).toEqual({
          name: 'Ann',
          roles: [1, 2],
          at: '2025-01-02T03:04:05.000Z',
          nested: { ok: true, none: null },
        });
        await cache.set('n', 0);
        await cache.set('s', '');
        expect(await cache.get('n')).toBe(0);
        expect(await cache.get('s')).toBe('');
        expect(await cache.get('missing')).toBeUndefined();
      });

      it('overwrites, deletes and reports presence', async () => {
        await cache.set('k', 'a');
        await cache.set('k', 'b');
        expect(await cache.get('k')).toBe('b');
        expect(await cache.has('k')).toBe(true);
        expect(await cache.delete('k')).toBe(true);
        expect(await cache.delete('k')).toBe(false);
        expect(await cache.has('k')).toBe(false);
        expect(await cache.get('k')).toBeUndefined();
      });

      it('rejects values JSON cannot carry and invalid TTLs', async () => {
        await expect(cache.set('k', undefined)).rejects.toThrow(TypeError);
        await expect(cache.set('k', 'v', 0)).rejects.toThrow(RangeError);
        await expect(cache.set('k', 'v', -5)).rejects.toThrow(RangeError);
        await expect(cache.setIfAbsent('k', 'v', Number.NaN)).rejects.toThrow(RangeError);
        expect(await cache.has('k')).toBe(false);
      });

      it('expires a value after its TTL', async () => {
        await cache.set('short', 'v', 100);
        await cache.set('long', 'v', 60_000);
        expect(await cache.get('short')).toBe('v');
        await f.elapse(150);
        expect(await cache.get('short')).toBeUndefined();
        expect(await cache.has('short')).toBe(false);
        expect(await cache.get('long')).toBe('v');
      });

      it('reports the remaining TTL of values and counters', async () => {
        await cache.set('v', 1, 60_000);
        await cache.increment('c', { ttlMs: 30_000 });
        await cache.increment('forever');
        const valueTtl = await cache.ttlMs('v');
        const counterTtl = await cache.ttlMs('c');
        expect(valueTtl).toBeGreaterThan(55_000);
        expect(valueTtl).toBeLessThanOrEqual(60_000);
        expect(counterTtl).toBeGreaterThan(25_000);
        expect(counterTtl).toBeLessThanOrEqual(30_000);
        expect(await cache.ttlMs('forever')).toBe(Number.POSITIVE_INFINITY);
        expect(await cache.ttlMs('missing')).toBeUndefined();
      });
    });

    describe('take', () => {
      it('returns the value once and removes it', async () => {
        await cache.set('ticket', { answer: 'x7k2' }, 120_000);
        expect(await cache.take('ticket')).toEqual({ answer: 'x7k2' });
        expect(await cache.take('ticket')).toBeUndefined();
        expect(await cache.has('ticket')).toBe(false);
        expect(await cache.take('never-issued')).toBeUndefined();
      });

      it(`hands the value to exactly one of ${CONCURRENCY} concurrent takers`, async () => {
        await cache.set('code', '123456', 300_000);
        const results = await Promise.all(
          Array.from({ length: CONCURRENCY }, (_, i) => (i % 2 ? peer : cache).take<string>('code')),
        );
        expect(results.filter((r) => r !== undefined)).toEqual(['123456']);
      });

      it('does not return an expired value', async () => {
        await cache.set('ticket', 'x', 100);
        await f.elapse(150);
        expect(await cache.take('ticket')).toBeUndefined();
      });
    });

    describe('setIfAbsent', () => {
      it(`lets exactly one of ${CONCURRENCY} concurrent callers create the entry`, async () => {
        const outcomes = await Promise.all(
          Array.from({ length: CONCURRENCY }, (_, i) =>
            (i % 2 ? peer : cache).setIfAbsent('cooldown', i, 60_000),
          ),
        );
        const winners = outcomes.flatMap((won, i) => (won ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(await cache.get('cooldown')).toBe(winners[0]);
      });

      it('refuses while a value or counter is there and succeeds again after expiry', async () => {
        await cache.set('taken', 'first');
        expect(await cache.setIfAbsent('taken', 'second', 60_000)).toBe(false);
        expect(await cache.get('taken')).toBe('first');
        await cache.increment('counter');
        expect(await cache.setIfAbsent('counter', 'x', 60_000)).toBe(false);
        expect(await cache.setIfAbsent('lock', 'a', 100)).toBe(true);
        await f.elapse(150);
        expect(await cache.setIfAbsent('lock', 'b', 100)).toBe(true);
        expect(await cache.get('lock')).toBe('b');
      });
    });

    describe('counters', () => {
      it(`counts every one of ${CONCURRENCY} concurrent increments`, async () => {
        const values = await Promise.all(
          Array.from({ length: CONCURRENCY }, (_, i) =>
            (i % 2 ? peer : cache).increment('hits', { ttlMs: 60_000 }),
          ),
        );
        expect([...values].sort((a, b) => a - b)).toEqual(
          Array.from({ length: CONCURRENCY }, (_, i) => i + 1),
        );
        expect(await cache.getCounter('hits')).toBe(CONCURRENCY);
      });

      it('adds the given step and reads absent counters as 0', async () => {
        expect(await cache.getCounter('c')).toBe(0);
        expect(await cache.increment('c', { by: 5 })).toBe(5);
        expect(await cache.increment('c', { by: -2 })).toBe(3);
        expect(await cache.increment('c')).toBe(4);
        expect(await peer.getCounter('c')).toBe(4);
        await expect(cache.increment('c', { by: 1.5 })).rejects.toThrow(RangeError);
        expect(await cache.getCounter('c')).toBe(4);
      });

      it('keeps a fixed window: the TTL set at creation is not extended', async () => {
        // TTLs of a minute with 20 s to spare: Redis's own clock runs on during the test, and a loaded machine
        // must not eat the margin (300 ms TTLs with 100 ms to spare failed a CI run).
        await cache.increment('window', { ttlMs: 60_000 });
        await f.elapse(40_000);
        expect(await cache.increment('window', { ttlMs: 60_000 })).toBe(2);
        await f.elapse(25_000);
        expect(await cache.getCounter('window')).toBe(0);
        expect(await cache.increment('window', { ttlMs: 60_000 })).toBe(1);
      });

      it('slides: every increment refreshes the TTL', async () => {
        await cache.increment('lock', { ttlMs: 60_000, slide: true });
        await f.elapse(40_000);
        expect(await cache.increment('lock', { ttlMs: 60_000, slide: true })).toBe(2);
        await f.elapse(40_000);
        expect(await cache.getCounter('lock')).toBe(2);
        await f.elapse(25_000);
        expect(await cache.getCounter('lock')).toBe(0);
        expect(await cache.has('lock')).toBe(false);
      });

      it('refuses counter operations on a key holding a value', async () => {
        await cache.set('plain', { a: 1 });
        await expect(cache.increment('plain')).rejects.toBeInstanceOf(CacheError);
        await expect(cache.getCounter('plain')).rejects.toBeInstanceOf(CacheError);
        expect(await cache.get('plain')).toEqual({ a: 1 });
      });

      it('shares the key space with values: set replaces a counter, delete removes one', async () => {
        await cache.increment('k', { by: 3 });
        expect(await cache.get('k')).toBeUndefined();
        expect(await cache.has('k')).toBe(true);
        await cache.set('k', 'value');
        expect(await cache.get('k')).toBe('value');
        await cache.delete('k');
        await cache.increment('k');
        expect(await cache.delete('k')).toBe(true);
        expect(await cache.getCounter('k')).toBe(0);
      });
    });

    describe('deleteByPrefix', () => {
      it('removes and counts only the keys under the prefix, values and counters alike', async () => {
        await cache.set('dict:gender', ['m', 'f']);
        await cache.set('dict:status', [0, 1], 60_000);
        await cache.increment('dict:hits');
        await cache.set('dictx', 'outside');
        await cache.set('config:site', 'outside');
        expect(await cache.deleteByPrefix('dict:')).toBe(3);
        expect(await cache.has('dict:gender')).toBe(false);
        expect(await cache.has('dict:status')).toBe(false);
        expect(await cache.getCounter('dict:hits')).toBe(0);
        expect(await cache.get('dictx')).toBe('outside');
        expect(await cache.get('config:site')).toBe('outside');
        expect(await cache.deleteByPrefix('dict:')).toBe(0);
      });

      it('treats pattern characters in the prefix literally', async () => {
        await cache.set('p*[a]?:1', 1);
        await cache.set('pX[a]?:1', 1);
        await cache.set('p*a?:1', 1);
        expect(await cache.deleteByPrefix('p*[a]?:')).toBe(1);
        expect(await cache.has('pX[a]?:1')).toBe(true);
        expect(await cache.has('p*a?:1')).toBe(true);
      });

      it('handles more keys than one scan batch', async () => {
        await Promise.all(Array.from({ length: 1_200 }, (_, i) => cache.set(`bulk:${i}`, i)));
        expect(await cache.deleteByPrefix('bulk:')).toBe(1_200);
        expect(await cache.has('bulk:0')).toBe(false);
      });
    });

    describe('publish/subscribe', () => {
      it('delivers a published message to a subscriber of another handle', async () => {
        const inbox = await listen<{ key: string }>(peer, 'config-changed');
        await cache.publish('config-changed', { key: 'sys.security.captcha.enabled' });
        expect(await inbox.next()).toEqual({ key: 'sys.security.captcha.enabled' });
        await inbox.unsubscribe();
      });

      it('keeps channels apart and stops delivering after unsubscribe', async () => {
        const config = await listen<string>(peer, 'config');
        const dict = await listen<string>(peer, 'dict');
        await cache.publish('dict', 'd1');
        await cache.publish('config', 'c1');
        // Messages arrive in publish order, so once c1 is in, a misrouted d1 would be too.
        expect(await config.next()).toBe('c1');
        expect(await dict.next()).toBe('d1');
        expect(config.received).toEqual(['c1']);

        await config.unsubscribe();
        await config.unsubscribe();
        const later = await listen<string>(peer, 'config');
        await cache.publish('config', 'c2');
        expect(await later.next()).toBe('c2');
        expect(config.received).toEqual(['c1']);
        await Promise.all([dict.unsubscribe(), later.unsubscribe()]);
      });

      it('delivers to every subscriber even when one of them throws', async () => {
        const failure = new Error('handler failed');
        const unsubscribeFailing = await peer.subscribe('events', () => {
          throw failure;
        });
        const inbox = await listen<number>(peer, 'events');
        await cache.publish('events', 42);
        expect(await inbox.next()).toBe(42);
        expect(f.reportedErrors).toContain(failure);
        await Promise.all([unsubscribeFailing(), inbox.unsubscribe()]);
      });
    });

    describe('lifecycle', () => {
      it('answers ping while open and rejects every operation after close', async () => {
        await expect(cache.ping()).resolves.toBeUndefined();
        await cache.close();
        await cache.close();
        await expect(cache.ping()).rejects.toBeInstanceOf(CacheError);
        await expect(cache.get('k')).rejects.toBeInstanceOf(CacheError);
        await expect(cache.take('k')).rejects.toBeInstanceOf(CacheError);
        await expect(cache.increment('k')).rejects.toBeInstanceOf(CacheError);
        await expect(cache.publish('c', 1)).rejects.toBeInstanceOf(CacheError);
      });
    });
  });
}

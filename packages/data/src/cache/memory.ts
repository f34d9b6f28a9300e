/**
 * The in-process cache provider (`Service:Cache:Provider` = `Memory`). Values live in an LRU bounded by
 * `Cache:MemoryEntryLimit` and capped at `Cache:MaxEntryMinutes`; counters live beside it, exempt from both
 * (a lockout or rate-limit counter evicted under memory pressure would reopen the door it guards). Node runs
 * each operation to completion before the next, so every operation here is atomic without locks.
 */
import { LRUCache } from 'lru-cache';
import { LocalBus } from './local-bus.js';
import type { Cache, IncrementOptions, MessageHandler, Unsubscribe } from './port.js';
import {
  type CacheErrorReporter,
  closedError,
  encodeJson,
  normalizeStep,
  normalizeTtl,
  notACounter,
  reportToConsole,
} from './shared.js';

/** Options of {@link createMemoryCache}. */
export interface MemoryCacheOptions {
  /**
   * Most values kept (`Cache:MemoryEntryLimit`); beyond it the least recently used is evicted. Counters are
   * not counted. 0 = unlimited.
   * @default 100000
   */
  entryLimit?: number;
  /**
   * Backstop lifetime in minutes (`Cache:MaxEntryMinutes`): a value without a TTL, or with a longer one,
   * expires after this. Counters are exempt. 0 = no backstop.
   * @default 1440
   */
  maxEntryMinutes?: number;
  /**
   * Clock in epoch milliseconds; tests inject one to move time without sleeping.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Receives errors thrown by subscribers.
   * @default writes to `console.error`
   */
  onError?: CacheErrorReporter;
}

interface ValueEntry {
  json: string;
  expiresAt: number | undefined;
  /** The decoded value, frozen, once a `getShared` asked for it. */
  shared?: unknown;
}

/** Freezes a decoded JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

interface CounterEntry {
  value: number;
  expiresAt: number | undefined;
}

/** How often (on the injected clock) expired entries are swept out, so idle keys do not pile up. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Creates an in-process cache.
 * @example
 * const cache = createMemoryCache({ entryLimit: 10_000 });
 * await cache.set('dict:gender', items, 20 * 60_000);
 */
export function createMemoryCache(options: MemoryCacheOptions = {}): Cache {
  const entryLimit = options.entryLimit ?? 100_000;
  const maxEntryMinutes = options.maxEntryMinutes ?? 1440;
  if (!Number.isSafeInteger(entryLimit) || entryLimit < 0) {
    throw new RangeError(`entryLimit must be a non-negative integer, got ${entryLimit}`);
  }
  if (!Number.isFinite(maxEntryMinutes) || maxEntryMinutes < 0) {
    throw new RangeError(`maxEntryMinutes must be a non-negative number, got ${maxEntryMinutes}`);
  }
  const backstopMs = maxEntryMinutes > 0 ? maxEntryMinutes * 60_000 : undefined;
  const now = options.now ?? Date.now;
  const bus = new LocalBus(options.onError ?? reportToConsole);
  // lru-cache keeps recency order only; expiry is checked here against the injectable clock. Unlimited mode
  // still needs a bound for lru-cache, so it counts every entry as size 1 against an unreachable maximum.
  const values = new LRUCache<string, ValueEntry>(
    entryLimit > 0 ? { max: entryLimit } : { maxSize: Number.MAX_SAFE_INTEGER, sizeCalculation: () => 1 },
  );
  const counters = new Map<string, CounterEntry>();
  let nextSweepAt = now() + SWEEP_INTERVAL_MS;
  let closed = false;

  const expired = (entry: { expiresAt: number | undefined }, at: number) =>
    entry.expiresAt !== undefined && at >= entry.expiresAt;

  function liveValue(key: string, touch: boolean): ValueEntry | undefined {
    const entry = touch ? values.get(key) : values.peek(key);
    if (entry === undefined || !expired(entry, now())) return entry;
    values.delete(key);
    return undefined;
  }

  function liveCounter(key: string): CounterEntry | undefined {
    const entry = counters.get(key);
    if (entry === undefined || !expired(entry, now())) return entry;
    counters.delete(key);
    return undefined;
  }

  /** Guards every operation: rejects after close and occasionally sweeps expired entries. */
  function open(): void {
    if (closed) throw closedError();
    const at = now();
    if (at < nextSweepAt) return;
    nextSweepAt = at + SWEEP_INTERVAL_MS;
    for (const [key, entry] of counters) if (expired(entry, at)) counters.delete(key);
    for (const key of [...values.keys()]) liveValue(key, false);
  }

  function store(key: string, value: unknown, ttlMs: number | undefined): void {
    const ttl = ttlMs === undefined ? backstopMs : Math.min(ttlMs, backstopMs ?? ttlMs);
    const json = encodeJson(value);
    counters.delete(key);
    values.set(key, { json, expiresAt: ttl === undefined ? undefined : now() + ttl });
  }

  /** The decoded value, frozen and kept on the entry until the next write of the key. */
  function shared<T>(key: string): Readonly<T> | undefined {
    open();
    const entry = liveValue(key, true);
    if (entry === undefined) return undefined;
    entry.shared ??= deepFreeze(JSON.parse(entry.json));
    return entry.shared as T;
  }

  const remaining = (entry: { expiresAt: number | undefined }) =>
    entry.expiresAt === undefined ? Number.POSITIVE_INFINITY : entry.expiresAt - now();

  function increment(key: string, incrementOptions: IncrementOptions = {}): number {
    open();
    const step = normalizeStep(incrementOptions.by);
    const ttl = normalizeTtl(incrementOptions.ttlMs);
    // A key holds a value or a counter, never both (`store` drops the counter): a live counter needs no look
    // at the values.
    let entry = liveCounter(key);
    if (entry === undefined) {
      if (liveValue(key, false) !== undefined) throw notACounter(key);
      entry = { value: 0, expiresAt: undefined };
    }
    entry.value += step;
    if (ttl !== undefined && (incrementOptions.slide === true || entry.expiresAt === undefined)) {
      entry.expiresAt = now() + ttl;
    }
    counters.set(key, entry);
    return entry.value;
  }

  function ttlMs(key: string): number | undefined {
    open();
    const entry = liveValue(key, false) ?? liveCounter(key);
    return entry === undefined ? undefined : remaining(entry);
  }

  return {
    provider: 'Memory',

    async get<T>(key: string): Promise<T | undefined> {
      open();
      const entry = liveValue(key, true);
      return entry === undefined ? undefined : (JSON.parse(entry.json) as T);
    },

    async getShared<T>(key: string): Promise<Readonly<T> | undefined> {
      return shared<T>(key);
    },

    sync: { getShared: shared },
    syncCounters: { increment, ttlMs },

    async set<T>(key: string, value: T, ttlMs?: number): Promise<void> {
      open();
      store(key, value, normalizeTtl(ttlMs));
    },

    async delete(key: string): Promise<boolean> {
      open();
      const existed = liveValue(key, false) !== undefined || liveCounter(key) !== undefined;
      values.delete(key);
      counters.delete(key);
      return existed;
    },

    async has(key: string): Promise<boolean> {
      open();
      return liveValue(key, false) !== undefined || liveCounter(key) !== undefined;
    },

    async take<T>(key: string): Promise<T | undefined> {
      open();
      const entry = liveValue(key, false);
      values.delete(key);
      // Like Redis GETDEL, a take on a counter key removes the counter and yields nothing.
      counters.delete(key);
      return entry === undefined ? undefined : (JSON.parse(entry.json) as T);
    },

    async setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean> {
      open();
      const ttl = normalizeTtl(ttlMs);
      if (liveValue(key, false) !== undefined || liveCounter(key) !== undefined) return false;
      store(key, value, ttl);
      return true;
    },

    async increment(key: string, incrementOptions: IncrementOptions = {}): Promise<number> {
      return increment(key, incrementOptions);
    },

    async getCounter(key: string): Promise<number> {
      open();
      if (liveValue(key, false) !== undefined) throw notACounter(key);
      return liveCounter(key)?.value ?? 0;
    },

    async ttlMs(key: string): Promise<number | undefined> {
      return ttlMs(key);
    },

    async deleteByPrefix(prefix: string): Promise<number> {
      open();
      let removed = 0;
      for (const key of [...values.keys()]) {
        if (!key.startsWith(prefix)) continue;
        if (liveValue(key, false) !== undefined) removed++;
        values.delete(key);
      }
      for (const key of [...counters.keys()]) {
        if (!key.startsWith(prefix)) continue;
        if (liveCounter(key) !== undefined) removed++;
        counters.delete(key);
      }
      return removed;
    },

    async ping(): Promise<void> {
      if (closed) throw closedError();
    },

    async publish<T>(channel: string, message: T): Promise<void> {
      open();
      bus.publish(channel, encodeJson(message));
    },

    async subscribe<T>(channel: string, handler: MessageHandler<T>): Promise<Unsubscribe> {
      open();
      return bus.subscribe(channel, handler);
    },

    async close(): Promise<void> {
      closed = true;
      values.clear();
      counters.clear();
      bus.clear();
    },
  };
}

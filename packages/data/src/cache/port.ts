/**
 * The cache port: what every cache provider offers, including the atomic operations the security features
 * rely on (captcha tickets, SMS codes, lockout and rate-limit counters, cooldowns) and the change events that
 * keep config and dictionary caches coherent across instances.
 */

/** Options of {@link Cache.increment}. */
export interface IncrementOptions {
  /**
   * Amount added to the counter; a safe integer, may be negative.
   * @default 1
   */
  by?: number;
  /**
   * Time to live in milliseconds. Without `slide` it is applied only while the counter has no expiry, that is
   * when this call creates it (a fixed window: rate limits, daily SMS limits).
   * @default undefined (the counter never expires)
   */
  ttlMs?: number;
  /**
   * Refresh the time to live on every increment (a sliding window: the login-lockout counter, whose expiry
   * counts from the latest failure).
   * @default false
   */
  slide?: boolean;
}

/** Receives one published message; a thrown error or rejection goes to the provider's `onError`. */
export type MessageHandler<T> = (message: T) => void | Promise<void>;

/** Stops one subscription; calling it again does nothing. */
export type Unsubscribe = () => Promise<void>;

/** Reads a cache answers without I/O (see {@link Cache.sync}). */
export interface SyncReads {
  /** As {@link Cache.getShared}, now. */
  getShared<T = unknown>(key: string): Readonly<T> | undefined;
}

/** Counters a cache keeps without I/O (see {@link Cache.syncCounters}). */
export interface SyncCounters {
  /** As {@link Cache.increment}, now. */
  increment(key: string, options?: IncrementOptions): number;
  /** As {@link Cache.ttlMs}, now. */
  ttlMs(key: string): number | undefined;
}

/**
 * A key-value cache with expiry. Values must be JSON-serialisable and come back as their JSON round trip
 * (a `Date` comes back as its ISO string). Counters share the key space with values but are written only by
 * {@link Cache.increment} and read by {@link Cache.getCounter}; `get` and `take` on a counter key answer
 * `undefined`.
 *
 * A time to live is a positive number of milliseconds (fractions round up); omitted means no expiry.
 */
export interface Cache {
  /** Which provider backs this cache. */
  readonly provider: CacheProvider;
  /** The value stored under `key`, or `undefined` when absent or expired. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /**
   * The same value as {@link Cache.get}, shared between callers and frozen: never modify it. The memory
   * provider decodes a value once per write instead of once per read (the per-request session copy).
   */
  getShared<T = unknown>(key: string): Promise<Readonly<T> | undefined>;
  /**
   * Synchronous reads, present only where a read needs no I/O (the memory provider). The request path uses it
   * to answer without a promise when everything it needs is in memory; without it, it takes the async path.
   */
  readonly sync?: SyncReads;
  /**
   * Synchronous counters, present only where counting needs no I/O (the memory provider): the rate limit
   * decides a request without a promise through them. Same semantics as {@link Cache.increment} and
   * {@link Cache.ttlMs}, errors thrown instead of rejected.
   */
  readonly syncCounters?: SyncCounters;
  /** Stores `value` under `key`, replacing any value or counter there. `undefined` is rejected. */
  set<T>(key: string, value: T, ttlMs?: number): Promise<void>;
  /** Removes `key`; `true` when something was there. */
  delete(key: string): Promise<boolean>;
  /** Whether `key` holds a live value or counter. */
  has(key: string): Promise<boolean>;
  /**
   * Atomic get-and-remove: of any number of concurrent callers, exactly one receives the value. Captcha
   * tickets and SMS codes are consumed this way, whether the answer turns out right or wrong.
   */
  take<T = unknown>(key: string): Promise<T | undefined>;
  /**
   * Stores `value` only when `key` is absent; `true` for the one caller that created the entry (cooldowns,
   * single-flight). The time to live is required so that a lost owner cannot hold the key for ever.
   */
  setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean>;
  /**
   * Atomically adds to the counter at `key` (created at 0) and answers the new value. Rejects with a
   * {@link CacheError} when `key` holds a value rather than a counter.
   */
  increment(key: string, options?: IncrementOptions): Promise<number>;
  /** The counter at `key`, 0 when absent or expired. Rejects when `key` holds a value. */
  getCounter(key: string): Promise<number>;
  /**
   * Remaining time to live of a value or counter in milliseconds (for `Retry-After`); `Infinity` when it
   * never expires, `undefined` when the key is absent.
   */
  ttlMs(key: string): Promise<number | undefined>;
  /** Removes every value and counter whose key starts with `prefix`; answers how many were removed. */
  deleteByPrefix(prefix: string): Promise<number>;
  /** Resolves when the backing store answers; rejects otherwise (readiness probe). */
  ping(): Promise<void>;
  /**
   * Sends a JSON-serialisable message to every subscriber of `channel`: in-process for the memory provider,
   * to every instance sharing the Redis server for the Redis provider.
   */
  publish<T>(channel: string, message: T): Promise<void>;
  /** Calls `handler` for each message on `channel`; resolves once the subscription is live. */
  subscribe<T = unknown>(channel: string, handler: MessageHandler<T>): Promise<Unsubscribe>;
  /** Releases connections and subscriptions; later calls reject with a {@link CacheError}. Idempotent. */
  close(): Promise<void>;
}

/** The providers selectable by `Service:Cache:Provider`. */
export type CacheProvider = 'Memory' | 'Redis';

/** Raised for misuse (a counter operation on a value), a closed cache, or a store that cannot be reached. */
export class CacheError extends Error {
  override readonly name: string = 'CacheError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The shared store cannot be reached and the operation needs it: a challenge kept only in the shared cache
 * (captcha ticket, SMS code, TOTP challenge) while Redis is down. The HTTP layer answers 503 with 50004.
 */
export class CacheUnavailableError extends CacheError {
  override readonly name: string = 'CacheUnavailableError';
}

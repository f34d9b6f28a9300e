/**
 * Redis as a cache, not a single point of failure (contract §10). Wraps the shared cache with an in-process
 * fallback and a health state:
 * - every shared operation has a bounded wait (`commandTimeoutMs`); one that fails because the store cannot be
 *   reached turns the state to `Degraded` (reported once) instead of failing the request;
 * - while degraded, keys are served by class: shared-only challenges reject with {@link CacheUnavailableError},
 *   database-backed copies (sessions, permissions) are neither read nor written so every check goes to the
 *   database, and everything else (counters, windows) continues in this instance's memory; publish reaches
 *   this instance's subscribers only;
 * - a probe pings the store every `probeIntervalMs`; when it answers, the database-backed copies are dropped
 *   from the shared store, the local fallback is emptied (invalidation events sent meanwhile were lost), the
 *   `recoveryMessages` are delivered to local subscribers (e.g. "config changed: everything"), and the state
 *   returns to `Healthy`, so every instance is back on shared counters.
 * Misuse (a counter operation on a value, a bad TTL) and Redis error replies still reject as before.
 */
import { createMemoryCache } from './memory.js';
import {
  type Cache,
  CacheError,
  CacheUnavailableError,
  type IncrementOptions,
  type MessageHandler,
  type Unsubscribe,
} from './port.js';
import { type CacheErrorReporter, reportToConsole } from './shared.js';

/** `Healthy`: the shared store serves; `Degraded`: the fallbacks serve until it answers again. */
export type CacheHealth = 'Healthy' | 'Degraded';

/** A message delivered to this instance's subscribers when the shared store returns. */
export interface RecoveryMessage {
  channel: string;
  message: unknown;
}

/** Options of {@link createResilientCache}. */
export interface ResilientCacheOptions {
  /** The shared cache (the Redis provider). */
  shared: Cache;
  /**
   * Serves while the shared cache is down.
   * @default an in-process memory cache
   */
  fallback?: Cache;
  /** Key prefixes that live only in the shared cache: they reject with `CacheUnavailableError` while degraded. */
  sharedOnlyPrefixes?: readonly string[];
  /** Key prefixes of copies of database rows: bypassed while degraded, flushed from the shared cache on recovery. */
  databaseBackedPrefixes?: readonly string[];
  /**
   * Generation counters that entries are stamped with and compared against: on recovery they are incremented in
   * the shared cache, never deleted (a deleted counter restarts at 0 and climbs back to the stamp of an entry
   * written before a revocation, which would then match again). Keys listed here are not flushed even when a
   * `databaseBackedPrefixes` entry names them.
   */
  recoveryCounters?: readonly string[];
  /**
   * Published on recovery through the shared cache, to every instance, standing in for the change events this
   * one could not send meanwhile (instances that kept Redis never heard of them); to local subscribers when the
   * shared publish fails.
   */
  recoveryMessages?: readonly RecoveryMessage[];
  /**
   * Longest wait for one shared operation before it counts as an outage.
   * @default 2000
   */
  commandTimeoutMs?: number;
  /**
   * How often a degraded cache pings the shared store.
   * @default 1000
   */
  probeIntervalMs?: number;
  /** Told of every change of state, with the error that caused a degradation. */
  onStateChange?: (state: CacheHealth, cause?: unknown) => void;
  /**
   * Receives errors nobody awaits (a failed recovery step).
   * @default writes to `console.error`
   */
  onError?: CacheErrorReporter;
}

/** The cache the service uses when the provider is Redis. */
export interface ResilientCache extends Cache {
  /** The current state. */
  health(): CacheHealth;
  /**
   * Pings the shared store now: a degraded cache recovers when it answers, a healthy one degrades when it does
   * not. Answers the resulting state (the readiness probe uses it).
   */
  probe(): Promise<CacheHealth>;
  /** Calls `listener` on every change of state; answers a function that stops it. */
  onStateChange(listener: (state: CacheHealth) => void): () => void;
}

/** Raised when a shared operation does not answer within the command timeout. */
class CacheTimeoutError extends Error {
  override readonly name = 'CacheTimeoutError';
}

/**
 * Whether a failure of the shared store means "unreachable" rather than "wrong request": argument errors,
 * the cache's own errors (misuse, closed; not a failed connect) and Redis error replies (`ERR …`, `WRONGTYPE …`) are not outages.
 */
export function isCacheOutage(error: unknown): boolean {
  if (error instanceof CacheTimeoutError || error instanceof CacheUnavailableError) return true;
  if (error instanceof CacheError || error instanceof RangeError || error instanceof TypeError) return false;
  const kind = (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? '';
  return !/^(ErrorReply|SimpleError|BlobError)$/.test(kind);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CacheTimeoutError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

type KeyClass = 'sharedOnly' | 'databaseBacked' | 'local';

/**
 * Wraps `shared` with the fallback described above.
 * @example
 * const cache = createResilientCache({ shared: await createRedisCache({ url }), sharedOnlyPrefixes: ['mfa:captcha:'] });
 */
export function createResilientCache(options: ResilientCacheOptions): ResilientCache {
  const shared = options.shared;
  const fallback = options.fallback ?? createMemoryCache({ onError: options.onError ?? reportToConsole });
  const sharedOnly = options.sharedOnlyPrefixes ?? [];
  const databaseBacked = options.databaseBackedPrefixes ?? [];
  const counters = options.recoveryCounters ?? [];
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  const probeMs = options.probeIntervalMs ?? 1_000;
  const onError = options.onError ?? reportToConsole;
  const listeners = new Set<(state: CacheHealth) => void>();
  /** Subscriptions the shared store must (re)establish on recovery. */
  const pendingShared = new Set<{ channel: string; handler: MessageHandler<unknown>; stop?: Unsubscribe }>();
  let state: CacheHealth = 'Healthy';
  let probeTimer: NodeJS.Timeout | undefined;
  let recovering: Promise<CacheHealth> | undefined;
  let closed = false;

  const classOf = (key: string): KeyClass =>
    sharedOnly.some((p) => key.startsWith(p))
      ? 'sharedOnly'
      : databaseBacked.some((p) => key.startsWith(p))
        ? 'databaseBacked'
        : 'local';

  function setState(next: CacheHealth, cause?: unknown): void {
    if (state === next) return;
    state = next;
    options.onStateChange?.(next, cause);
    for (const listener of [...listeners]) listener(next);
  }

  function degrade(cause: unknown): void {
    if (closed) return;
    setState('Degraded', cause);
    if (probeTimer === undefined) {
      probeTimer = setInterval(() => {
        void probe();
      }, probeMs);
      probeTimer.unref();
    }
  }

  async function recover(): Promise<CacheHealth> {
    try {
      await withTimeout(shared.ping(), timeoutMs);
      // Copies written before the outage may predate a revocation made during it: drop them all, and move the
      // generations on (instances that kept Redis hold entries stamped with the old ones).
      for (const prefix of databaseBacked)
        if (!counters.includes(prefix)) await withTimeout(shared.deleteByPrefix(prefix), timeoutMs);
      for (const key of counters) await withTimeout(shared.increment(key), timeoutMs);
      for (const pending of [...pendingShared]) {
        pending.stop = await withTimeout(shared.subscribe(pending.channel, pending.handler), timeoutMs);
        pendingShared.delete(pending);
      }
    } catch (error) {
      if (!isCacheOutage(error)) onError(error);
      return state;
    }
    await fallback.deleteByPrefix('');
    if (probeTimer !== undefined) clearInterval(probeTimer);
    probeTimer = undefined;
    setState('Healthy');
    for (const { channel, message } of options.recoveryMessages ?? []) {
      try {
        await withTimeout(shared.publish(channel, message), timeoutMs);
      } catch {
        await fallback.publish(channel, message);
      }
    }
    return state;
  }

  async function probe(): Promise<CacheHealth> {
    if (closed) return state;
    if (state === 'Healthy') {
      try {
        await withTimeout(shared.ping(), timeoutMs);
      } catch (error) {
        if (isCacheOutage(error)) degrade(error);
        else throw error;
      }
      return state;
    }
    recovering ??= recover().finally(() => {
      recovering = undefined;
    });
    return recovering;
  }

  /**
   * Runs `onShared` while healthy; on an outage (now or already) serves the key by its class: `onLocal` for
   * local keys, `onBypass` for database-backed ones, a `CacheUnavailableError` for shared-only ones.
   */
  async function run<T>(
    key: string,
    onShared: () => Promise<T>,
    onLocal: () => Promise<T>,
    onBypass: () => Promise<T> = onLocal,
  ): Promise<T> {
    if (state === 'Healthy') {
      try {
        return await withTimeout(onShared(), timeoutMs);
      } catch (error) {
        if (!isCacheOutage(error)) throw error;
        degrade(error);
      }
    }
    switch (classOf(key)) {
      case 'sharedOnly':
        throw new CacheUnavailableError(`The shared cache is unavailable; "${key}" lives only there.`);
      case 'databaseBacked':
        return onBypass();
      default:
        return onLocal();
    }
  }

  const miss = async () => undefined;

  return {
    provider: shared.provider,

    health: () => state,
    probe,
    onStateChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    get: <T>(key: string) =>
      run<T | undefined>(
        key,
        () => shared.get<T>(key),
        () => fallback.get<T>(key),
        miss,
      ),
    getShared: <T>(key: string) =>
      run<Readonly<T> | undefined>(
        key,
        () => shared.getShared<T>(key),
        () => fallback.getShared<T>(key),
        miss,
      ),
    set: <T>(key: string, value: T, ttlMs?: number) =>
      run(
        key,
        () => shared.set(key, value, ttlMs),
        () => fallback.set(key, value, ttlMs),
        async () => {},
      ),
    delete: (key) =>
      run(
        key,
        () => shared.delete(key),
        () => fallback.delete(key),
      ),
    has: (key) =>
      run(
        key,
        () => shared.has(key),
        () => fallback.has(key),
        async () => false,
      ),
    take: <T>(key: string) =>
      run<T | undefined>(
        key,
        () => shared.take<T>(key),
        () => fallback.take<T>(key),
        miss,
      ),
    setIfAbsent: <T>(key: string, value: T, ttlMs: number) =>
      run(
        key,
        () => shared.setIfAbsent(key, value, ttlMs),
        () => fallback.setIfAbsent(key, value, ttlMs),
      ),
    increment: (key: string, incrementOptions?: IncrementOptions) =>
      run(
        key,
        () => shared.increment(key, incrementOptions),
        () => fallback.increment(key, incrementOptions),
      ),
    getCounter: (key) =>
      run(
        key,
        () => shared.getCounter(key),
        () => fallback.getCounter(key),
      ),
    ttlMs: (key) =>
      run(
        key,
        () => shared.ttlMs(key),
        () => fallback.ttlMs(key),
        miss,
      ),
    deleteByPrefix: (prefix) =>
      run(
        prefix,
        () => shared.deleteByPrefix(prefix),
        () => fallback.deleteByPrefix(prefix),
      ),

    async ping() {
      await withTimeout(shared.ping(), timeoutMs);
    },

    async publish<T>(channel: string, message: T): Promise<void> {
      if (state === 'Healthy') {
        try {
          await withTimeout(shared.publish(channel, message), timeoutMs);
          return;
        } catch (error) {
          if (!isCacheOutage(error)) throw error;
          degrade(error);
        }
      }
      // Other instances miss this event; they drop their local caches when the shared store returns.
      await fallback.publish(channel, message);
    },

    async subscribe<T>(channel: string, handler: MessageHandler<T>): Promise<Unsubscribe> {
      // Local delivery serves what this instance publishes while degraded; the shared subscription the rest.
      const stopLocal = await fallback.subscribe(channel, handler);
      const pending = { channel, handler: handler as MessageHandler<unknown> } as {
        channel: string;
        handler: MessageHandler<unknown>;
        stop?: Unsubscribe;
      };
      try {
        if (state === 'Degraded') throw new CacheTimeoutError('degraded');
        pending.stop = await withTimeout(shared.subscribe(channel, handler), timeoutMs);
      } catch (error) {
        if (!(error instanceof CacheTimeoutError) && !isCacheOutage(error)) {
          await stopLocal();
          throw error;
        }
        pendingShared.add(pending);
        degrade(error);
      }
      let active = true;
      return async () => {
        if (!active) return;
        active = false;
        pendingShared.delete(pending);
        await Promise.allSettled([stopLocal(), pending.stop?.()]);
      };
    },

    async close() {
      closed = true;
      if (probeTimer !== undefined) clearInterval(probeTimer);
      probeTimer = undefined;
      listeners.clear();
      await Promise.allSettled([shared.close(), fallback.close()]);
    },
  };
}

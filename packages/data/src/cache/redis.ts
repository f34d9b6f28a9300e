/**
 * The Redis cache provider (`Service:Cache:Provider` = `Redis`), shared by every instance of the service.
 * Plain reads and writes go through keyv with @keyv/redis; the atomic operations use node-redis commands
 * directly on the same connection (GETDEL, SET NX PX, a Lua increment, SCAN + UNLINK, PTTL), and pub/sub
 * uses a second, dedicated subscriber connection. Needs Redis 6.2 or later (GETDEL). Values are stored in
 * keyv's entry shape, `{"value":…,"expires":…}` as JSON; counters as plain Redis integers.
 */
import KeyvRedis from '@keyv/redis';
import { Keyv } from 'keyv';
import type { Cache, IncrementOptions, MessageHandler, Unsubscribe } from './port.js';
import { connectRedis, type RedisClient } from './redis-connect.js';
import {
  type CacheErrorReporter,
  closedError,
  deliver,
  encodeJson,
  normalizeStep,
  normalizeTtl,
  parseCounter,
  reportToConsole,
} from './shared.js';

/** Options of {@link createRedisCache}. */
export interface RedisCacheOptions {
  /** Server URL (`Service:Cache:Redis:Configuration`), e.g. `redis://:password@127.0.0.1:6379/0`. */
  url: string;
  /**
   * Prepended to every key and channel (`Service:Cache:Redis:KeyPrefix`), so deployments can share a server.
   * @default 'svc:'
   */
  keyPrefix?: string;
  /**
   * Start-up gives up after this long with an error naming the URL; also the TCP timeout of reconnects.
   * @default 5000
   */
  connectTimeoutMs?: number;
  /**
   * Connection name shown by Redis `CLIENT LIST`; the subscriber connection adds `:subscriber`.
   * @default 'svc-cache'
   */
  clientName?: string;
  /**
   * Receives errors nobody awaits: subscriber failures, dropped connections, failed reconnects.
   * @default writes to `console.error`
   */
  onError?: CacheErrorReporter;
  /**
   * Start even when Redis cannot be reached: the cache is created offline and connects in the background (its
   * commands fail fast meanwhile, so a resilient cache over it serves degraded). A malformed URL still fails.
   * @default false
   */
  startOffline?: boolean;
}

/** keyv's stored entry: the value and an absolute expiry in epoch milliseconds. */
interface StoredEntry {
  value?: unknown;
  expires?: number;
}

/**
 * INCRBY, then PEXPIRE when sliding or when the counter has no expiry yet (it was just created), in one
 * atomic step. Lua rather than `PEXPIRE … NX` keeps Redis 6 supported.
 * KEYS[1] counter; ARGV[1] step; ARGV[2] ttl in ms (0 = none); ARGV[3] '1' to slide.
 */
const INCREMENT_SCRIPT = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = tonumber(ARGV[2])
if ttl > 0 and (ARGV[3] == '1' or redis.call('PTTL', KEYS[1]) < 0) then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return value`;

/** Keys removed per UNLINK while flushing a prefix. */
const SCAN_BATCH = 500;

const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

const isSerialisable = (value: unknown) =>
  value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

/**
 * Reads a raw entry written through keyv; a counter yields `undefined`. The entry's `expires` is not checked:
 * Redis only returns keys whose PX has not run out, and its clock, unlike each instance's, is shared.
 */
function unwrap<T>(raw: string | null): T | undefined {
  if (raw === null) return undefined;
  const entry: unknown = JSON.parse(raw);
  if (typeof entry !== 'object' || entry === null || !('value' in entry)) return undefined;
  return (entry as StoredEntry).value as T;
}

/**
 * Connects to Redis and creates the cache; rejects with a {@link CacheError} naming the password-free URL
 * when the server cannot be reached within `connectTimeoutMs`.
 * @example
 * const cache = await createRedisCache({ url: 'redis://127.0.0.1:6379', keyPrefix: 'svc:' });
 */
export async function createRedisCache(options: RedisCacheOptions): Promise<Cache> {
  const prefix = options.keyPrefix ?? 'svc:';
  const onError = options.onError ?? reportToConsole;
  const clientName = options.clientName ?? 'svc-cache';
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  if (!Number.isFinite(connectTimeoutMs) || connectTimeoutMs <= 0) {
    throw new RangeError(`connectTimeoutMs must be a positive number, got ${connectTimeoutMs}`);
  }
  const connectOptions = {
    url: options.url,
    connectTimeoutMs,
    onError,
    startOffline: options.startOffline ?? false,
  };
  const client = await connectRedis({ ...connectOptions, clientName, role: 'command' });
  const store = new KeyvRedis(client, { throwOnErrors: true, useUnlink: true });
  // The adapter re-emits every connection error; unheard, that would be an uncaught exception and end the
  // process when Redis goes away. The client's own listener already reports them, and command failures
  // reach their callers (throwOnErrors).
  store.on('error', () => {});
  const keyv = new Keyv<unknown>(store, {
    namespace: undefined,
    useKeyPrefix: false,
    emitErrors: false,
    throwOnErrors: true,
    serialize: JSON.stringify,
    deserialize: JSON.parse,
  });
  let subscriber: Promise<RedisClient> | undefined;
  let closed = false;

  /** The full Redis key, after checking the cache is still open. */
  function k(key: string): string {
    if (closed) throw closedError();
    return prefix + key;
  }

  function checkValue(value: unknown): void {
    if (!isSerialisable(value)) {
      throw new TypeError(`Cache values must be JSON-serialisable, got ${typeof value}`);
    }
  }

  function connectSubscriber(): Promise<RedisClient> {
    subscriber ??= connectRedis({
      ...connectOptions,
      clientName: `${clientName}:subscriber`,
      role: 'subscriber',
    }).catch((error: unknown) => {
      subscriber = undefined;
      throw error;
    });
    return subscriber;
  }

  return {
    provider: 'Redis',

    async get<T>(key: string): Promise<T | undefined> {
      return (await keyv.get(k(key))) as T | undefined;
    },

    // Every read decodes its own copy here (the round trip dominates); nothing is shared to protect.
    async getShared<T>(key: string): Promise<Readonly<T> | undefined> {
      return (await keyv.get(k(key))) as T | undefined;
    },

    async set<T>(key: string, value: T, ttlMs?: number): Promise<void> {
      const full = k(key);
      checkValue(value);
      await keyv.set(full, value, normalizeTtl(ttlMs));
    },

    async delete(key: string): Promise<boolean> {
      return keyv.delete(k(key));
    },

    async has(key: string): Promise<boolean> {
      return keyv.has(k(key));
    },

    async take<T>(key: string): Promise<T | undefined> {
      return unwrap<T>(await client.getDel(k(key)));
    },

    async setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean> {
      const full = k(key);
      const ttl = normalizeTtl(ttlMs) ?? 0;
      checkValue(value);
      const entry: StoredEntry = { value, expires: Date.now() + ttl };
      const reply = await client.set(full, encodeJson(entry), {
        condition: 'NX',
        expiration: { type: 'PX', value: ttl },
      });
      return reply === 'OK';
    },

    async increment(key: string, incrementOptions: IncrementOptions = {}): Promise<number> {
      const full = k(key);
      const step = normalizeStep(incrementOptions.by);
      const ttl = normalizeTtl(incrementOptions.ttlMs) ?? 0;
      const slide = incrementOptions.slide === true ? '1' : '0';
      try {
        const reply = await client.eval(INCREMENT_SCRIPT, {
          keys: [full],
          arguments: [String(step), String(ttl), slide],
        });
        return Number(reply);
      } catch (error) {
        // INCRBY on a keyv entry fails with "value is not an integer"; report it as the port promises.
        if (error instanceof Error && /not an integer/.test(error.message)) {
          parseCounter(key, await client.get(full));
        }
        throw error;
      }
    },

    async getCounter(key: string): Promise<number> {
      return parseCounter(key, await client.get(k(key)));
    },

    async ttlMs(key: string): Promise<number | undefined> {
      const pttl = await client.pTTL(k(key));
      if (pttl === -2) return undefined;
      return pttl === -1 ? Number.POSITIVE_INFINITY : pttl;
    },

    async deleteByPrefix(keyPrefix: string): Promise<number> {
      const match = `${escapeGlob(k(keyPrefix))}*`;
      let removed = 0;
      for await (const keys of client.scanIterator({ MATCH: match, COUNT: SCAN_BATCH })) {
        if (keys.length > 0) removed += await client.unlink(keys);
      }
      return removed;
    },

    async ping(): Promise<void> {
      if (closed) throw closedError();
      await client.ping();
    },

    async publish<T>(channel: string, message: T): Promise<void> {
      await client.publish(k(channel), encodeJson(message));
    },

    async subscribe<T>(channel: string, handler: MessageHandler<T>): Promise<Unsubscribe> {
      const full = k(channel);
      const connection = await connectSubscriber();
      const listener = (raw: string) => {
        let message: T;
        try {
          message = JSON.parse(raw) as T;
        } catch (error) {
          onError(error);
          return;
        }
        deliver(handler, message, onError);
      };
      await connection.subscribe(full, listener);
      let active = true;
      return async () => {
        if (!active || closed) return;
        active = false;
        await connection.unsubscribe(full, listener);
      };
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const pending = subscriber;
      subscriber = undefined;
      await Promise.allSettled([client.close(), pending?.then((connection) => connection.close())]);
    },
  };
}

/**
 * Opens node-redis connections for the Redis cache provider. At start a connection is tried once within a
 * deadline and fails with an error naming the URL (password removed), so a wrong address stops start-up
 * instead of hanging it; once connected, a dropped connection is retried with capped backoff for good.
 */
import { createClient } from '@keyv/redis';
import { CacheUnavailableError } from './port.js';
import { redactRedisUrl } from './redis-url.js';
import type { CacheErrorReporter } from './shared.js';

export type RedisClient = ReturnType<typeof createClient>;

/** Reconnect delays after a working connection drops: exponential from 100 ms, capped at 2 s. */
const RECONNECT_BASE_MS = 100;
const RECONNECT_CAP_MS = 2_000;

export interface ConnectOptions {
  url: string;
  /** Deadline for the whole start-up handshake, and the TCP connect timeout of later reconnects. */
  connectTimeoutMs: number;
  /** Receives errors of a connection that was up (drops, failed reconnects). */
  onError: CacheErrorReporter;
  /** Connection name shown by `CLIENT LIST`. */
  clientName: string;
  /** Names the connection in error messages ("command", "subscriber"). */
  role: string;
  /**
   * When the server cannot be reached at start (refused, unreachable, no answer within the deadline), answer the
   * client anyway, offline and reconnecting in the background, instead of failing; its commands fail fast until
   * it connects. A malformed URL still fails. @default false
   */
  startOffline?: boolean;
}

/** Connects one client or rejects with a {@link CacheError} within `connectTimeoutMs`. */
export async function connectRedis(options: ConnectOptions): Promise<RedisClient> {
  const where = redactRedisUrl(options.url);
  const fail = (cause: unknown) =>
    new CacheUnavailableError(
      `Cannot connect to Redis at ${where} (${options.role} connection): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  let ready = false;
  let client: RedisClient;
  try {
    client = createClient({
      url: options.url,
      name: options.clientName,
      // Fail fast while the server is unreachable instead of queueing commands that hang requests.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: options.connectTimeoutMs,
        reconnectStrategy: (retries) =>
          ready || options.startOffline
            ? Math.min(RECONNECT_BASE_MS * 2 ** retries, RECONNECT_CAP_MS)
            : false,
      },
    });
  } catch (error) {
    throw fail(error);
  }
  // Before the first connection the rejection of connect() carries the error; afterwards nobody awaits it.
  let offline: ((error: unknown) => void) | undefined;
  client.on('error', (error: unknown) => {
    if (ready) options.onError(error);
    else offline?.(error);
  });
  // With startOffline, connect() keeps retrying and stays pending; its first error means the server is away.
  const firstError = new Promise<never>((_, reject) => {
    offline = reject;
  });
  firstError.catch(() => {});
  const connecting = client.connect();
  connecting.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${options.connectTimeoutMs} ms`)),
      options.connectTimeoutMs,
    );
  });
  try {
    await Promise.race([connecting, deadline, ...(options.startOffline ? [firstError] : [])]);
    ready = true;
    return client;
  } catch (error) {
    if (options.startOffline) {
      // Reconnects go on with backoff; from now on their failures are reported like a dropped connection's.
      ready = true;
      options.onError(fail(error));
      return client;
    }
    try {
      client.destroy();
    } catch {
      // Already closed by the failed attempt.
    }
    throw fail(error);
  } finally {
    clearTimeout(timer);
  }
}

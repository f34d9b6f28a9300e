/**
 * Runs the cache contract on the Redis provider against a real server (`SVC_TEST_REDIS_URL`, default
 * `redis://127.0.0.1:6379`), plus what only Redis has: key prefixing on the server, isolation between
 * prefixes, and start-up failures that must reject promptly with the password-free URL.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCacheContract } from './cache.contract.js';
import { createCache } from './index.js';
import { CacheError } from './port.js';
import { createRedisCache } from './redis.js';

const url = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const uniquePrefix = () => `svc-test:${randomUUID()}:`;

/** Removes every key under `keyPrefix` through a fresh connection. */
async function purge(keyPrefix: string): Promise<void> {
  const cleaner = await createRedisCache({ url, keyPrefix });
  await cleaner.deleteByPrefix('');
  await cleaner.close();
}

/**
 * Moves Redis's clock for the keys under a prefix: every remaining TTL shrinks by `ms`, and keys whose TTL runs
 * out are removed, as if that much time had passed. Tests thus never sleep for a TTL (a loaded machine
 * oversleeps and made the TTL cases flaky).
 */
const ELAPSE_SCRIPT = `
local cursor = '0'
repeat
  local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 500)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    local left = redis.call('PTTL', key)
    if left > 0 then
      local rest = left - tonumber(ARGV[2])
      if rest <= 0 then redis.call('DEL', key) else redis.call('PEXPIRE', key, rest) end
    end
  end
until cursor == '0'
return 0`;

/** One connection for the clock moves, opened at the first and closed after the file. */
let clockClient: ReturnType<typeof createClient> | undefined;
afterAll(async () => {
  await clockClient?.close();
});

async function connectClock(): Promise<ReturnType<typeof createClient>> {
  if (clockClient === undefined) {
    clockClient = createClient({ url });
    await clockClient.connect();
  }
  return clockClient;
}

async function elapseRedis(keyPrefix: string, ms: number): Promise<void> {
  const clock = await connectClock();
  await clock.eval(ELAPSE_SCRIPT, { keys: [], arguments: [`${keyPrefix}*`, String(ms)] });
}

defineCacheContract('redis', async () => {
  const keyPrefix = uniquePrefix();
  const reportedErrors: unknown[] = [];
  const onError = (error: unknown) => reportedErrors.push(error);
  const cache = await createRedisCache({ url, keyPrefix, onError });
  const peer = await createRedisCache({ url, keyPrefix, onError });
  // Connected before the test starts, so a clock move costs one round trip and no connect.
  await connectClock();
  return {
    cache,
    peer,
    reportedErrors,
    // Redis keeps its own time: shorten the TTLs instead of sleeping.
    elapse: (ms) => elapseRedis(keyPrefix, ms),
    dispose: async () => {
      await Promise.all([cache.close(), peer.close()]);
      await purge(keyPrefix);
    },
  };
});

describe('redis cache', () => {
  const raw = createClient({ url });
  beforeAll(async () => {
    await raw.connect();
  });
  afterAll(async () => {
    await raw.close();
  });

  it('is selected by createCache and writes every key and channel under its prefix', async () => {
    const keyPrefix = uniquePrefix();
    const cache = await createCache({ provider: 'Redis', url, keyPrefix });
    try {
      expect(cache.provider).toBe('Redis');
      await cache.set('v', 1);
      await cache.increment('c');
      await cache.setIfAbsent('n', 1, 60_000);
      expect((await raw.keys(`${keyPrefix}*`)).sort()).toEqual([
        `${keyPrefix}c`,
        `${keyPrefix}n`,
        `${keyPrefix}v`,
      ]);
      expect(await raw.get(`${keyPrefix}c`)).toBe('1');

      let deliver: (message: unknown) => void = () => {};
      const delivered = new Promise<unknown>((resolve) => {
        deliver = resolve;
      });
      // subscribe resolves once the subscription is live: publish then, never after a sleep.
      await cache.subscribe('events', (message) => deliver(message));
      expect(await raw.publish(`${keyPrefix}events`, JSON.stringify('from-raw'))).toBe(1);
      expect(await delivered).toBe('from-raw');
    } finally {
      await cache.close();
      await purge(keyPrefix);
    }
  });

  it('keeps two prefixes apart, flushes included', async () => {
    const [a, b] = [uniquePrefix(), uniquePrefix()];
    const [cacheA, cacheB] = await Promise.all([
      createRedisCache({ url, keyPrefix: a }),
      createRedisCache({ url, keyPrefix: b }),
    ]);
    try {
      await cacheA.set('k', 'a');
      await cacheB.set('k', 'b');
      expect(await cacheA.get('k')).toBe('a');
      expect(await cacheA.deleteByPrefix('')).toBe(1);
      expect(await cacheB.get('k')).toBe('b');
    } finally {
      await Promise.all([cacheA.close(), cacheB.close()]);
      await Promise.all([purge(a), purge(b)]);
    }
  });

  it('recovers after the server drops its connections, subscriptions included', async () => {
    const keyPrefix = uniquePrefix();
    const clientName = `svc-test-${randomUUID()}`;
    const reported: unknown[] = [];
    const cache = await createRedisCache({ url, keyPrefix, clientName, onError: (e) => reported.push(e) });
    try {
      const received: unknown[] = [];
      await cache.subscribe('events', (message) => {
        received.push(message);
      });
      await cache.set('k', 'v');
      const ours = String(await raw.sendCommand(['CLIENT', 'LIST']))
        .split('\n')
        .filter((line) => line.includes(` name=${clientName}`))
        .map((line) => /\bid=(\d+)/.exec(line)?.[1] ?? '');
      expect(ours).toHaveLength(2);
      for (const id of ours) await raw.sendCommand(['CLIENT', 'KILL', 'ID', id]);

      // Wait on the server, not on a timer: each check is a round trip on the raw connection.
      const names = async () =>
        String(await raw.sendCommand(['CLIENT', 'LIST'])).split(` name=${clientName}`).length - 1;
      while ((await names()) < 2) {}
      const subscribers = async () =>
        Number(((await raw.sendCommand(['PUBSUB', 'NUMSUB', `${keyPrefix}events`])) as unknown[])[1]);
      while ((await subscribers()) < 1) {}
      expect(await cache.get('k')).toBe('v');
      expect(reported.length).toBeGreaterThan(0);
      let deliver: (message: unknown) => void = () => {};
      const delivered = new Promise((resolve) => {
        deliver = resolve;
      });
      await cache.subscribe('events', (message) => deliver(message));
      await cache.publish('events', 'after-reconnect');
      await delivered;
      expect(received[0]).toBe('after-reconnect');
    } finally {
      await cache.close();
      await purge(keyPrefix);
    }
  });

  it('rejects start-up against a closed port with the URL, minus its password', async () => {
    const started = Date.now();
    const failure = createRedisCache({
      url: 'redis://admin:s3cret-pw@127.0.0.1:1/0',
      connectTimeoutMs: 1_000,
    });
    await expect(failure).rejects.toBeInstanceOf(CacheError);
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain('redis://admin@127.0.0.1:1/0');
    expect(message).not.toContain('s3cret-pw');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  describe('against a server that accepts connections but never answers', () => {
    let silent: Server;
    const sockets: Socket[] = [];
    let port = 0;
    beforeAll(async () => {
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      port = (silent.address() as { port: number }).port;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('gives up after connectTimeoutMs instead of hanging', async () => {
      const started = Date.now();
      await expect(
        createRedisCache({ url: `redis://:pw@127.0.0.1:${port}`, connectTimeoutMs: 300 }),
      ).rejects.toThrow(new RegExp(`Cannot connect to Redis at redis://127\\.0\\.0\\.1:${port}.*300 ms`));
      expect(Date.now() - started).toBeLessThan(1_500);
    });
  });
});

/**
 * `resync` after an outage: a private Redis is stopped while a client is connected; the instance notices (the
 * hub's heartbeat pings the cache), and when Redis is back and its subscription restored every client of the
 * instance is told `resync` (events published meanwhile may be lost). Waited for as events, never slept.
 */
import type { CacheHealth, ResilientCache } from '@svc/data/cache';
import { type FaultServer, startPrivateRedis } from '@svc/data/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningServer, listen } from './host/listen.js';
import { connectHub } from './modules/realtime/client.contract.js';
import { login } from './testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from './testing/index.js';

const setup = await startPrivateRedis();

function reach(t: TestServer, state: CacheHealth): Promise<void> {
  const cache = t.server.resilientCache as ResilientCache;
  if (cache.health() === state) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = cache.onStateChange((next) => {
      if (next !== state) return;
      stop();
      resolve();
    });
  });
}

describe.skipIf(setup.skip !== undefined)(`realtime resync after a Redis outage ${setup.skip ?? ''}`, () => {
  const redis = setup.server as FaultServer;
  let t: TestServer;
  let running: ListeningServer;

  beforeAll(async () => {
    t = await startTestServer({
      cache: 'Redis',
      env: {
        Service__Realtime__Enabled: 'true',
        Service__Realtime__HeartbeatSeconds: '1',
        Service__Cache__Redis__Configuration: redis.url,
      },
    });
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
  });
  afterAll(async () => {
    await running?.shutdown();
    await t?.close();
    await redis.destroy();
  });

  it('tells connected clients to resync once Redis is back', async () => {
    const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
    const client = await connectHub(running.url, { token });
    const degraded = reach(t, 'Degraded');
    await redis.stop();
    await degraded;
    const healthy = reach(t, 'Healthy');
    await redis.start();
    await healthy;
    expect(await client.next()).toEqual({ type: 'resync', data: null });
    // The socket itself stayed open through the outage.
    client.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await client.next()).toEqual({ type: 'pong', data: null });
    client.close();
    await client.closed;
  });
});

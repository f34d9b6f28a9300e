/**
 * The direct path with two instances on one Redis (issue 16, middleware/direct.ts): a session ended on one
 * instance is refused on the other's listener at its next request. On Redis the security layer cannot confirm a
 * session without a round trip, so the direct path leaves live tokens to the usual way (which reads the shared
 * copy) and still refuses forged ones itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningServer, listen } from './host/listen.js';
import { RawConnection, type RawResponse } from './host/raw-http.contract.js';
import type { DirectDispatch } from './middleware/direct.js';
import { bearer, json, login } from './testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from './testing/index.js';

describe('the direct path on a second instance sharing Redis', () => {
  let a: TestServer;
  let b: TestServer;
  let running: ListeningServer;
  const counter = { decided: 0 };

  beforeAll(async () => {
    const env = {
      Service__Security__RateLimit__Enabled: 'false',
      Service__Cache__Redis__KeyPrefix: `svc-direct-${Math.random().toString(36).slice(2, 10)}:`,
    };
    a = await startTestServer({ cache: 'Redis', env });
    b = await startTestServer({
      cache: 'Redis',
      env,
      reuse: { database: a.database, contentRoot: a.contentRoot },
    });
    const real = b.server.direct;
    if (!real) throw new Error('the second instance has no direct path');
    const counting: DirectDispatch = (incoming, outgoing) => {
      const decided = real(incoming, outgoing);
      if (decided) counter.decided++;
      return decided;
    };
    running = await listen({ ...b.server, direct: counting }, b.server.deps.logger, 'http://127.0.0.1:0');
  });
  afterAll(async () => {
    await running?.shutdown();
    await b?.stop();
    await a?.close();
  });

  async function ping(token: string): Promise<RawResponse> {
    const connection = await RawConnection.open(running.url);
    try {
      await connection.request('GET', '/api/v1/ping', bearer(token));
      return await connection.response();
    } finally {
      connection.close();
    }
  }

  it('refuses on B, at the next request, a session logged out on A', async () => {
    const token = (await login(a, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
    const before = counter.decided;
    expect((await ping(token)).status).toBe(200);
    expect((await ping(token)).status).toBe(200);
    // Live tokens on Redis are the usual way's: the shared copy needs a round trip.
    expect(counter.decided).toBe(before);
    const out = await a.request('/api/v1/auth/logout', { method: 'POST', headers: bearer(token) });
    expect((await json(out)).code).toBe(0);
    const refused = await ping(token);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).code).toBe(40006);
  });

  it('refuses a forged token on B before Hono', async () => {
    const token = (await login(a, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;
    const before = counter.decided;
    const res = await ping(forged);
    expect(res.status).toBe(401);
    expect(counter.decided - before).toBe(1);
  });
});

describe('the direct path under rate limiting on Redis', () => {
  it('leaves every counted request to the usual way (no count without a round trip), counted once there', async () => {
    const t = await startTestServer({
      cache: 'Redis',
      env: {
        Service__Security__RateLimit__PermitPerWindow: '3',
        Service__Cache__Redis__KeyPrefix: `svc-direct-rl-${Math.random().toString(36).slice(2, 10)}:`,
      },
    });
    const real = t.server.direct;
    if (!real) throw new Error('no direct path');
    let decided = 0;
    const running = await listen(
      {
        ...t.server,
        direct: (incoming, outgoing) => {
          const yes = real(incoming, outgoing);
          if (yes) decided++;
          return yes;
        },
      },
      t.server.deps.logger,
      'http://127.0.0.1:0',
    );
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        const connection = await RawConnection.open(running.url);
        await connection.request('GET', '/api/v1/ping', bearer('x.y'));
        statuses.push((await connection.response()).status);
        connection.close();
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(decided).toBe(0);
    } finally {
      await running.shutdown();
      await t.close();
    }
  });
});

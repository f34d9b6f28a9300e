/**
 * The rate limit decided in the same turn (security/rate-limit.ts `around`): on the memory cache, once the
 * settings are known, allowed and refused requests are decided without the asynchronous reads (neither
 * `settings.rateLimit()` nor `rateLimiter.hit()` is called), with the same counts, 429, 40008 and `Retry-After`
 * as the asynchronous path; a change of the runtime settings is read through the asynchronous path first and
 * applies to the very next request.
 */
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRoute, z } from '../index.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { bearer, json, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';

describe('the rate limit in the same turn', () => {
  let t: TestServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await startTestServer({
      env: { Service__Security__RateLimit__PermitPerWindow: '6' },
      configure: (ctx) => {
        registerRoute(
          ctx,
          createRoute({
            method: 'get',
            path: '/api/v1/test/sync-answer',
            summary: 'Answers in the same turn',
            responses: envelopeResponses(z.null()),
          }),
          { auth: 'authenticated' },
          (c) => c.json(ok(null), 200),
        );
      },
    });
    auth = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = () =>
    t.server.app.fetch(new Request('http://localhost/api/v1/test/sync-answer', { headers: auth }));

  it('decides allowed and refused requests without the asynchronous reads, counting as they do', async () => {
    const security = t.server.deps.security;
    // The first request reads the settings (asynchronous); it counts like any other.
    expect((await send()).status).toBe(200);
    const settingsRead = vi.spyOn(security.settings, 'rateLimit');
    const asyncHit = vi.spyOn(security.rateLimiter, 'hit');
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await send()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(settingsRead).not.toHaveBeenCalled();
    expect(asyncHit).not.toHaveBeenCalled();
    const refused = await send();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = await json(refused);
    expect(body.code).toBe(40008);
    expect(body.args.retryAfterSeconds).toBe(Number(refused.headers.get('retry-after')));
    expect(security.rateLimiter.stats().refused).toBe(3);
    settingsRead.mockRestore();
    asyncHit.mockRestore();
  });

  it('reads changed settings before deciding again, and applies them to the next request', async () => {
    const fresh = await startTestServer({ env: { Service__Security__RateLimit__PermitPerWindow: '4' } });
    try {
      const security = fresh.server.deps.security;
      const token = bearer((await login(fresh, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      const ping = () =>
        fresh.server.app.fetch(new Request('http://localhost/api/v1/ping', { headers: token }));
      expect((await ping()).status).toBe(200);
      const settingsRead = vi.spyOn(security.settings, 'rateLimit');
      expect((await ping()).status).toBe(200);
      expect(settingsRead).not.toHaveBeenCalled();
      // Raise the permit at runtime (the third request of the window): the config cache's version moves, so
      // the next request reads the settings through the asynchronous path, then decides by the new permit.
      const change = await fresh.request('/api/v1/sys/config/batch', {
        method: 'PUT',
        headers: token,
        json: [{ key: 'sys.security.rateLimit.permitPerWindow', value: '1000' }],
      });
      expect((await json(change)).code).toBe(0);
      const calls = settingsRead.mock.calls.length;
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await ping()).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      // One read for the change (maybe two, when the cache refreshed during the read), then none.
      expect(settingsRead.mock.calls.length - calls).toBeGreaterThanOrEqual(1);
      expect(settingsRead.mock.calls.length - calls).toBeLessThanOrEqual(2);
    } finally {
      await fresh.close();
    }
  });
});

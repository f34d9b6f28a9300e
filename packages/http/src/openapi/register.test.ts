/**
 * registerRoute with a route's own middleware (`createRoute({ middleware })`): it runs after the route's guards,
 * so it never sees a caller the marker refuses and cannot answer in their place, with and without request
 * validation (review of issue 16; before, guards replaced it or it ran before them).
 */

import { ok } from '@svc/kernel';
import type { MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoute, z } from '../index.js';
import { bearer, json, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';
import { registerRoute } from './register.js';
import { envelopeResponses } from './schemas.js';

const seen: string[] = [];
/** Records who it saw and answers by itself when asked to (a cache would). */
const own: MiddlewareHandler = async (c, next) => {
  const principal = c.get('principal') as { account?: string } | undefined;
  seen.push(`${c.req.path} ${principal?.account ?? 'nobody'}`);
  if (c.req.query('short') === '1') return c.json(ok('from the middleware'), 200);
  await next();
};

describe('registerRoute: a route with middleware of its own', () => {
  let t: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestServer({
      configure: (ctx) => {
        registerRoute(
          ctx,
          createRoute({
            method: 'get',
            path: '/api/v1/test/own-mw',
            middleware: [own],
            responses: envelopeResponses(z.string()),
          }),
          { auth: 'authenticated' },
          (c) => c.json(ok('from the handler'), 200),
        );
        registerRoute(
          ctx,
          createRoute({
            method: 'get',
            path: '/api/v1/test/own-mw/{id}',
            middleware: [own],
            request: { params: z.object({ id: z.coerce.number().int() }) },
            responses: envelopeResponses(z.string()),
          }),
          { auth: 'authenticated' },
          (c) => c.json(ok(`handler ${c.req.valid('param').id}`), 200),
        );
      },
    });
    admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
  });
  afterAll(() => t?.close());

  it('refuses an anonymous caller before the middleware runs, even one that would answer by itself', async () => {
    for (const path of ['/api/v1/test/own-mw?short=1', '/api/v1/test/own-mw/5?short=1']) {
      const res = await t.request(path);
      expect(res.status).toBe(401);
      expect((await json(res)).code).toBe(40006);
    }
    expect(seen).toEqual([]);
  });

  it('runs the middleware after the guards for a signed-in caller, then the validation and the handler', async () => {
    expect((await json(await t.request('/api/v1/test/own-mw', { headers: admin }))).data).toBe(
      'from the handler',
    );
    expect((await json(await t.request('/api/v1/test/own-mw/7', { headers: admin }))).data).toBe('handler 7');
    expect((await json(await t.request('/api/v1/test/own-mw/x', { headers: admin }))).code).toBe(48000);
    expect((await json(await t.request('/api/v1/test/own-mw?short=1', { headers: admin }))).data).toBe(
      'from the middleware',
    );
    expect(seen).toEqual([
      '/api/v1/test/own-mw superAdmin',
      '/api/v1/test/own-mw/7 superAdmin',
      '/api/v1/test/own-mw/x superAdmin',
      '/api/v1/test/own-mw superAdmin',
    ]);
  });
});

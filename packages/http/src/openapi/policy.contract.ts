/**
 * A route's request policy from its own options (openapi/policy.ts), on a module defined here as a user's would
 * be: a read with `opLog: { read: true }` is recorded and a plain read is not, a body with an `opLog` summary is
 * recorded only as that summary (on a path with a parameter, matched by the router), and a `bodyLimit`, given or
 * made from the module's own options, takes a body over `Service:Api:MaxBodyBytes` and answers 413 over it.
 */
import type { DbType } from '@svc/kernel';
import { int, ok, section } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoute, z } from '../index.js';
import { defineModule, defineRoute, moduleOptions } from '../module/define.js';
import { bearer, json, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';
import { envelopeResponses } from './schemas.js';

/** `Service:Api:MaxBodyBytes` of the test server (the smallest allowed), and the module's `PolicyTest:MaxRowsKb`. */
const MAX_BODY = 1024;
const ROWS_KB = 1024;
const OWN_LIMIT = 4096;

const rowsBody = {
  content: { 'application/json': { schema: z.object({ rows: z.array(z.string()) }) } },
};
const counted = envelopeResponses(z.object({ n: z.number() }));

const policyModule = defineModule({
  name: 'PolicyTest',
  options: moduleOptions(
    'PolicyTest',
    section({ MaxRowsKb: int(64, 'Body limit of the rows route.', { min: 1 }) }),
  ),
  services: ({ options }) => ({ rowsLimit: options.MaxRowsKb * 1024 }),
  routes: [
    defineRoute(
      createRoute({
        method: 'get',
        path: '/api/v1/policy-test/report',
        summary: 'Report for the policy test',
        responses: counted,
      }),
      { auth: 'authenticated', opLog: { read: true } },
      () => (c) => c.json(ok({ n: 1 }), 200),
    ),
    defineRoute(
      createRoute({ method: 'get', path: '/api/v1/policy-test/plain', responses: counted }),
      { auth: 'authenticated' },
      () => (c) => c.json(ok({ n: 2 }), 200),
    ),
    defineRoute(
      createRoute({
        method: 'post',
        path: '/api/v1/policy-test/{id}/rows',
        request: { params: z.object({ id: z.string() }), body: rowsBody },
        responses: counted,
      }),
      {
        auth: 'authenticated',
        opLog: { summary: (body) => ({ rows: (body as { rows: unknown[] }).rows.length }) },
      },
      () => (c) => c.json(ok({ n: c.req.valid('json').rows.length }), 200),
    ),
    defineRoute(
      createRoute({
        method: 'post',
        path: '/api/v1/policy-test/import',
        request: { body: rowsBody },
        responses: counted,
      }),
      (s: { rowsLimit: number }) => ({ auth: 'authenticated', bodyLimit: s.rowsLimit }),
      () => (c) => c.json(ok({ n: c.req.valid('json').rows.length }), 200),
    ),
    defineRoute(
      createRoute({
        method: 'post',
        path: '/api/v1/policy-test/{id}/own',
        request: { params: z.object({ id: z.string() }), body: rowsBody },
        responses: counted,
      }),
      { auth: 'authenticated', bodyLimit: OWN_LIMIT },
      () => (c) => c.json(ok({ n: c.req.valid('json').rows.length }), 200),
    ),
    defineRoute(
      createRoute({
        method: 'post',
        path: '/api/v1/policy-test/default',
        request: { body: rowsBody },
        responses: counted,
      }),
      { auth: 'authenticated' },
      () => (c) => c.json(ok({ n: c.req.valid('json').rows.length }), 200),
    ),
  ],
});

/** A JSON body of about `bytes` bytes: one row of that length. */
const sized = (bytes: number) => ({ rows: ['x'.repeat(bytes)] });

export function defineRoutePolicyContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`route policy from the route's options on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        cache,
        modules: [policyModule],
        env: {
          Service__Api__MaxBodyBytes: String(MAX_BODY),
          Service__PolicyTest__MaxRowsKb: String(ROWS_KB),
        },
      });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    const ops = async () => {
      await t.server.deps.core.opLog.drain(5000);
      const res = await t.request('/api/v1/sys/log/op/page?size=200', { headers: admin });
      return (await json(res)).data.items as Record<string, unknown>[];
    };

    it('records a read whose route says `opLog: { read: true }`, and not a plain read', async () => {
      expect((await json(await t.request('/api/v1/policy-test/report?q=1', { headers: admin }))).code).toBe(
        0,
      );
      expect((await json(await t.request('/api/v1/policy-test/plain', { headers: admin }))).code).toBe(0);
      const rows = await ops();
      const report = rows.filter((r) => r.path === '/api/v1/policy-test/report');
      expect(report).toHaveLength(1);
      expect(report[0]).toMatchObject({
        title: 'Report for the policy test',
        httpMethod: 'GET',
        resultCode: 0,
      });
      expect(JSON.parse(report[0]?.paramJson as string)).toEqual({ query: { q: '1' } });
      expect(rows.some((r) => r.path === '/api/v1/policy-test/plain')).toBe(false);
    });

    it('records a body only as the summary its route declares, refused by validation too', async () => {
      const res = await t.request('/api/v1/policy-test/7/rows', {
        headers: admin,
        json: { rows: ['Alice Example', 'Bob Example', 'Carol Example'] },
      });
      expect((await json(res)).data).toEqual({ n: 3 });
      const invalid = await t.request('/api/v1/policy-test/8/rows', {
        headers: admin,
        json: { rows: ['Dave Example', 42] },
      });
      expect((await json(invalid)).code).toBe(48000);
      const rows = await ops();
      const logged = rows.find((r) => r.path === '/api/v1/policy-test/7/rows');
      expect(JSON.parse(logged?.paramJson as string)).toEqual({ params: { id: '7' }, body: { rows: 3 } });
      const refused = rows.find((r) => r.path === '/api/v1/policy-test/8/rows');
      expect(refused).toMatchObject({ resultCode: 48000, success: false });
      expect(JSON.parse(refused?.paramJson as string)).toEqual({ params: { id: '8' }, body: { rows: 2 } });
      expect(rows.some((r) => String(r.paramJson).includes('Example'))).toBe(false);
    });

    it('takes a body over MaxBodyBytes on a route with `bodyLimit`, and answers 413 over its own limit', async () => {
      const over = sized(MAX_BODY * 2);
      const plain = await t.request('/api/v1/policy-test/default', { headers: admin, json: over });
      expect(plain.status).toBe(413);
      expect((await json(plain)).code).toBe(48002);

      const imported = await t.request('/api/v1/policy-test/import', { headers: admin, json: over });
      expect((await json(imported)).data).toEqual({ n: 1 });
      // Over the option's default (64 KiB): the limit is the configured `Service:PolicyTest:MaxRowsKb`.
      const configured = await t.request('/api/v1/policy-test/import', {
        headers: admin,
        json: sized(512 * 1024),
      });
      expect((await json(configured)).data).toEqual({ n: 1 });
      const tooLarge = await t.request('/api/v1/policy-test/import', {
        headers: admin,
        json: sized(ROWS_KB * 1024 + 1),
      });
      expect(tooLarge.status).toBe(413);
      expect(await json(tooLarge)).toMatchObject({ code: 48002, data: null });

      const own = await t.request('/api/v1/policy-test/5/own', { headers: admin, json: over });
      expect((await json(own)).data).toEqual({ n: 1 });
      const ownTooLarge = await t.request('/api/v1/policy-test/5/own', {
        headers: admin,
        json: sized(OWN_LIMIT + 1),
      });
      expect(ownTooLarge.status).toBe(413);
      expect((await json(ownTooLarge)).code).toBe(48002);
    });
  });
}

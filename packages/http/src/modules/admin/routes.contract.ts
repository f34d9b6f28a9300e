/**
 * Permission routes and the seed, both directions, on a running app: every permission-protected route of the
 * live route table has a seeded button carrying its code, and every seeded code names a real route. The
 * server runs without the host samples, so the default seed alone is compared. `GET /api/v1/menu/routes`
 * lists the same routes at request time, consumer routes registered after the built-in ones included. Every
 * paged route of the live route table, a consumer's included, refuses a page size above the configured ceiling.
 */
import { defaultSeedMenus, seedPermissionCodes } from '@svc/data';
import type { DbType } from '@svc/kernel';
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../../app.js';
import { createRoute, z } from '../../index.js';
import { pageQuerySchema, pageSchema } from '../../openapi/query.js';
import { registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import { bearer, json, login } from '../../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/index.js';

const CONSUMER_CODE = 'GET:/api/v1/test/report/{id}';

const consumerRoute: NonNullable<CreateAppOptions['configure']> = (ctx) => {
  registerRoute(
    ctx,
    createRoute({
      method: 'get',
      path: '/api/v1/test/report/{id}',
      request: { params: z.object({ id: z.string() }) },
      responses: envelopeResponses(z.null()),
    }),
    { auth: 'permission' },
    (c) => c.json(ok(null), 200),
  );
};

const CONSUMER_PAGE = '/api/v1/test/report/page';

/** A consumer's paged route: its handler checks no size; the paged query schema and the app do. */
const consumerPage: NonNullable<CreateAppOptions['configure']> = (ctx) => {
  registerRoute(
    ctx,
    createRoute({
      method: 'get',
      path: CONSUMER_PAGE,
      request: { query: pageQuerySchema({}) },
      responses: envelopeResponses(pageSchema(z.null())),
    }),
    { auth: 'authenticated' },
    (c) => {
      const size = c.req.valid('query').size ?? 20;
      return c.json(ok({ current: 1, size, total: 0, pages: 0, items: [] }), 200);
    },
  );
};

export function defineRouteSeedContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`permission routes and the seed on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ dbType, cache });
    });
    afterAll(() => t?.close());

    it('every permission route of the running app has a seeded button with its code', () => {
      const seeded = new Set(seedPermissionCodes(defaultSeedMenus));
      const unseeded = t.server.routes
        .permissionRoutes()
        .map((r) => r.permissionCode as string)
        .filter((code) => !seeded.has(code));
      expect(unseeded).toEqual([]);
    });

    it('every seeded code names a permission route of the running app', () => {
      const live = new Set(t.server.routes.permissionRoutes().map((r) => r.permissionCode));
      const dangling = seedPermissionCodes(defaultSeedMenus).filter((code) => !live.has(code));
      expect(dangling).toEqual([]);
    });

    it('the seeded menu rows carry the same codes (what the database holds, not only the declaration)', async () => {
      const rows = await t.server.database.repos.menus.listAll();
      const stored = new Set(rows.flatMap((m) => (m.permission ? m.permission.split(';') : [])));
      expect([...stored].sort()).toEqual(seedPermissionCodes(defaultSeedMenus).sort());
    });
  });

  describe(`GET /api/v1/menu/routes on ${dbType} with ${cache}`, () => {
    it('lists every permission route with its code, consumer routes included', async () => {
      const t = await startTestServer({ dbType, cache, configure: consumerRoute });
      try {
        const admin = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
        const res = await t.request('/api/v1/menu/routes', { headers: bearer(admin.accessToken) });
        const body = await json(res);
        expect(body.code).toBe(0);
        const codes = body.data.map((r: { code: string }) => r.code);
        expect(codes).toContain(CONSUMER_CODE);
        expect(body.data.find((r: { code: string }) => r.code === CONSUMER_CODE)).toMatchObject({
          method: 'GET',
          path: '/api/v1/test/report/{id}',
          reauth: false,
        });
        expect(
          body.data.find((r: { code: string }) => r.code === 'DELETE:/api/v1/sys/user/{id}'),
        ).toMatchObject({
          reauth: true,
        });
        expect(codes.sort()).toEqual(
          t.server.routes
            .permissionRoutes()
            .map((r) => r.permissionCode)
            .sort(),
        );
        const doc = await json(await t.request('/openapi/v1.json'));
        expect(doc.paths['/api/v1/sys/user/{id}'].delete).toMatchObject({
          'x-auth': 'permission',
          'x-permission-code': 'DELETE:/api/v1/sys/user/{id}',
          'x-reauth': true,
        });
        expect(
          doc.paths['/api/v1/sys/user/page'].get.parameters.map((p: { name: string }) => p.name),
        ).toEqual(
          expect.arrayContaining([
            'current',
            'size',
            'sortField',
            'sortOrder',
            'account',
            'orgId',
            'enabled',
          ]),
        );
      } finally {
        await t.close();
      }
    });
  });

  describe(`paged routes on ${dbType} with ${cache}`, () => {
    it('every paged route of the route table answers a size above Service:Api:MaxPageSize with 48001 {size, max}', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        configure: consumerPage,
        env: { Service__Api__MaxPageSize: '7' },
      });
      try {
        const admin = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
        const headers = bearer(admin.accessToken);
        const doc = await json(await t.request('/openapi/v1.json'));
        // Paged: the route documents the paging parameter `size` (pageQuerySchema).
        const paged = t.server.routes.routes.filter((r) =>
          (doc.paths[r.path]?.[r.method.toLowerCase()]?.parameters ?? []).some(
            (p: { in: string; name: string }) => p.in === 'query' && p.name === 'size',
          ),
        );
        const documented = Object.values(doc.paths).flatMap((ops) =>
          Object.values(ops as Record<string, { parameters?: { in: string; name: string }[] }>).filter((op) =>
            (op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'size'),
          ),
        );
        expect(paged).toHaveLength(documented.length);
        expect(paged.map((r) => r.path)).toContain(CONSUMER_PAGE);
        expect(paged.map((r) => r.path)).toContain('/api/v1/sys/user/page');
        for (const r of paged) {
          // Path parameters by name: a recycle-bin type, otherwise an id.
          const url = r.path.replace(/\{([^}]+)\}/g, (_, name) => (name === 'type' ? 'user' : '1'));
          const over = await t.request(`${url}?size=8`, { method: r.method, headers });
          expect([`${r.method} ${r.path}`, over.status, await json(over)]).toEqual([
            `${r.method} ${r.path}`,
            200,
            { code: 48001, msgKey: 'error.param.pageSizeExceeded', data: null, args: { size: 8, max: 7 } },
          ]);
          const within = await json(await t.request(`${url}?size=7`, { method: r.method, headers }));
          expect([`${r.method} ${r.path}`, within.code]).toEqual([`${r.method} ${r.path}`, 0]);
        }
      } finally {
        await t.close();
      }
    });
  });
}

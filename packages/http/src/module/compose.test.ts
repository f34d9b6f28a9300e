import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, defineErrorCodes, ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartupError } from '../host/startup-error.js';
import { adminModule, dashboardModule } from '../modules/index.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { bearer, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';
import { defineModule, defineRoute } from './define.js';

const ShopCode = defineErrorCodes('ShopErrorCode', {
  OutOfStock: { code: 61001, msgKey: 'shop.outOfStock' },
});

const calls: string[] = [];

const stockRoute = defineRoute(
  createRoute({
    method: 'get',
    path: '/api/v1/shop/stock',
    tags: ['Shop'],
    summary: 'Stock',
    responses: envelopeResponses(z.object({ max: z.number(), seeded: z.boolean() })),
  }),
  { auth: 'permission' },
  (shop: ShopServices) => async (c) => c.json(ok(await shop.stock()), 200),
);
const emptyRoute = defineRoute(
  createRoute({ method: 'post', path: '/api/v1/shop/empty', responses: envelopeResponses(z.null()) }),
  { auth: 'authenticated' },
  () => async () => {
    throw new BusinessError(ShopCode.OutOfStock);
  },
);

interface ShopServices {
  stock(): Promise<{ max: number; seeded: boolean }>;
}

const shopModule = defineModule({
  name: 'Shop',
  dependsOn: [adminModule],
  options: { section: 'Shop', schema: z.object({ MaxItems: z.coerce.number().int().min(1).default(100) }) },
  errorCodes: [ShopCode],
  seedMenus: [
    {
      id: 9100,
      type: 'menu',
      title: 'Shop',
      path: '/shop',
      children: [{ id: 9101, type: 'button', title: 'Stock', permissions: ['GET:/api/v1/shop/stock'] }],
    },
  ],
  services: ({ core, options, use }): ShopServices => {
    calls.push('build Shop');
    const admin = use(adminModule);
    expect(admin.admin.recycleBin).toBeDefined();
    return {
      stock: async () => ({ max: options.MaxItems, seeded: (await core.repos.menus.listAll()).length > 0 }),
    };
  },
  routes: [stockRoute, emptyRoute],
  health: () => [
    { name: 'shop', check: async () => (healthy ? undefined : Promise.reject(new Error('down'))) },
  ],
  start: () => void calls.push('start Shop'),
  close: () => void calls.push('close Shop'),
});
let healthy = true;

describe('a module of the consumer', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer({ modules: [shopModule], env: { Service__Shop__MaxItems: '7' } });
    token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
  });
  afterAll(() => t.close());

  it('is built once, started, and serves its routes with its options', async () => {
    expect(calls).toEqual(['build Shop', 'start Shop']);
    const res = await t.request('/api/v1/shop/stock', { headers: bearer(token) });
    const body = (await res.json()) as { code: number; data: { max: number; seeded: boolean } };
    expect(body.code).toBe(0);
    expect(body.data).toEqual({ max: 7, seeded: true });
  });

  it('documents its routes under its name and registers its permission code', async () => {
    const doc = (await (await t.request('/openapi/v1.json')).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const op = doc.paths['/api/v1/shop/stock']?.get;
    expect(op?.['x-module']).toBe('Shop');
    expect(op?.['x-permission-code']).toBe('GET:/api/v1/shop/stock');
    expect(t.server.routes.permissionRoutes().map((r) => r.permissionCode)).toContain(
      'GET:/api/v1/shop/stock',
    );
  });

  it('answers its own error codes and lists them in the catalogue', async () => {
    const res = await t.request('/api/v1/shop/empty', { method: 'POST', headers: bearer(token) });
    expect(((await res.json()) as { code: number }).code).toBe(61001);
    const catalog = (await (await t.request('/api/v1/meta/error-codes')).json()) as {
      data: { code: number }[];
    };
    expect(catalog.data.some((c) => c.code === 61001)).toBe(true);
  });

  it('seeds its menus and buttons', async () => {
    const tree = await t.server.database.repos.menus.listAll();
    expect(tree.find((m) => m.id === 9101)?.permission).toBe('GET:/api/v1/shop/stock');
  });

  it('makes readiness fail when its health check does', async () => {
    expect((await t.request('/health/ready')).status).toBe(200);
    healthy = false;
    expect((await t.request('/health/ready')).status).toBe(503);
    healthy = true;
  });

  it('hands its services to the server and closes them last to first', async () => {
    expect(typeof t.server.modules.servicesOf(shopModule).stock).toBe('function');
    await t.stop();
    expect(calls.at(-1)).toBe('close Shop');
  });
});

describe('a disabled module', () => {
  it('leaves no route, no menu, no error code and builds nothing', async () => {
    calls.length = 0;
    const t = await startTestServer({
      modules: [shopModule],
      env: { Service__Api__DisabledModules__0: 'shop' },
    });
    try {
      expect(calls).toEqual([]);
      const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      expect((await t.request('/api/v1/shop/stock', { headers: bearer(token) })).status).toBe(404);
      const doc = (await (await t.request('/openapi/v1.json')).json()) as { paths: Record<string, unknown> };
      expect(doc.paths['/api/v1/shop/stock']).toBeUndefined();
      expect((await t.server.database.repos.menus.listAll()).some((m) => m.id === 9101)).toBe(false);
      expect(t.server.deps.errors.catalog().some((c) => c.code === 61001)).toBe(false);
      expect(t.server.modules.servicesIfOn(shopModule)).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('start-up refuses', () => {
  const refused = async (options: Parameters<typeof startTestServer>[0], message: RegExp) => {
    const error = await startTestServer(options).then(
      async (t) => {
        await t.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(message);
  };

  it('two modules of one name', () =>
    refused(
      { modules: [shopModule, defineModule({ name: 'shop' })] },
      /Two modules are named shop \(Shop\)/,
    ));

  it('two modules claiming one error code, naming both', () =>
    refused(
      {
        modules: [
          shopModule,
          defineModule({
            name: 'Orders',
            errorCodes: [
              defineErrorCodes('OrderErrorCode', { Late: { code: 61001, msgKey: 'orders.late' } }),
            ],
          }),
        ],
      },
      /Error code 61001 is claimed by module Shop \(OutOfStock\) and by module Orders \(Late\)/,
    ));

  it('a route a built-in module declares, naming both', () =>
    refused(
      {
        modules: [
          defineModule({
            name: 'Orders',
            routes: [{ ...stockRoute, route: { method: 'get', path: '/api/v1/dashboard/summary' } }],
          }),
        ],
      },
      /Route GET \/api\/v1\/dashboard\/summary is declared by module Dashboard and by module Orders/,
    ));

  it('two modules claiming one realtime message kind, naming both', () =>
    refused(
      { modules: [defineModule({ name: 'Orders', realtimeKinds: ['order-paid', 'notice-changed'] })] },
      /Realtime message kind notice-changed is claimed by module Notice and by module Orders/,
    ));

  it('a realtime message kind of the hub itself', () =>
    refused(
      {
        modules: [defineModule({ name: 'Orders', realtimeKinds: ['resync'] })],
        env: { Service__Realtime__Enabled: 'true' },
      },
      /Realtime message kind resync is claimed by module Realtime and by module Orders/,
    ));

  it('a module whose dependency is off', () =>
    refused(
      {
        modules: [defineModule({ name: 'Orders', dependsOn: [dashboardModule] })],
        env: { Service__Api__DisabledModules__0: 'Dashboard' },
      },
      /Module Orders depends on module Dashboard, which is off/,
    ));

  it('a module using one it did not declare', () =>
    refused(
      { modules: [defineModule({ name: 'Orders', services: ({ use }) => use(dashboardModule) })] },
      /Module Orders uses module Dashboard without declaring it in dependsOn/,
    ));

  it('modules depending on each other', () => {
    const a: ReturnType<typeof defineModule> = defineModule({
      name: 'A',
      dependsOn: [{ name: 'B' } as never],
    });
    const b = defineModule({ name: 'B', dependsOn: [a] });
    return refused({ modules: [a, b] }, /cycle: A → B → A/);
  });

  it('an option its schema refuses, naming the key', () =>
    refused({ modules: [shopModule], env: { Service__Shop__MaxItems: '0' } }, /Service:Shop:MaxItems/));
});

describe('the switch', () => {
  it('warns about a name no module has and about a module that cannot be disabled', async () => {
    const t = await startTestServer({
      env: { Service__Api__DisabledModules__0: 'Shpo', Service__Api__DisabledModules__1: 'Auth' },
    });
    try {
      expect(t.logs.some((l) => l.includes('"Shpo", which no module has'))).toBe(true);
      expect(t.logs.some((l) => l.includes('"Auth", which cannot be disabled'))).toBe(true);
      expect((await t.request('/api/v1/auth/login', { json: {} })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

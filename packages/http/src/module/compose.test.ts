import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, defineErrorCodes, ok } from '@svc/kernel';
import type { RecycleBinType } from '@svc/security';
import { AdminErrorCode } from '@svc/security';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartupError } from '../host/startup-error.js';
import { adminModule, dashboardModule, recycleBinModule } from '../modules/index.js';
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
  /** Ids of the shop's items in the recycle bin. */
  binned: Set<number>;
}

/** A consumer's recycle-bin type over rows kept in memory. */
const memoryType = (type: string, binned: Set<number>): RecycleBinType => ({
  type,
  title: 'Shop items',
  async page() {
    const items = [...binned].map((id) => ({
      id,
      title: `item ${id}`,
      subtitle: null,
      deleteTime: null,
      deleteUserId: null,
    }));
    return { current: 1, size: 20, total: items.length, pages: 1, items };
  },
  async restore(_actor, id) {
    if (!binned.delete(id)) throw new BusinessError(AdminErrorCode.RecycleNotFound);
  },
  async purge(_actor, id) {
    if (!binned.delete(id)) throw new BusinessError(AdminErrorCode.RecycleNotFound);
  },
});

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
    expect(admin.admin.recycleTypes.map((t) => t.type)).toContain('user');
    return {
      stock: async () => ({ max: options.MaxItems, seeded: (await core.repos.menus.listAll()).length > 0 }),
      binned: new Set([3]),
    };
  },
  recycleTypes: (shop) => [memoryType('shop-item', shop.binned)],
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

  it('puts its recycle-bin type into the bin, served by the bin routes', async () => {
    const types = (await (
      await t.request('/api/v1/sys/recycle/types', { headers: bearer(token) })
    ).json()) as {
      data: { type: string; title: string; codes: string[] }[];
    };
    expect(types.data.find((x) => x.type === 'shop-item')).toEqual({
      type: 'shop-item',
      title: 'Shop items',
      codes: [],
    });
    // After the built-in types (module order: Admin's first).
    expect(types.data[0]?.type).toBe('user');
    expect(types.data.at(-1)?.type).toBe('shop-item');
    const page = await t.request('/api/v1/sys/recycle/shop-item/page', { headers: bearer(token) });
    expect(
      ((await page.json()) as { data: { items: { id: number }[] } }).data.items.map((i) => i.id),
    ).toEqual([3]);
    const restore = await t.request('/api/v1/sys/recycle/shop-item/3/restore', {
      method: 'POST',
      headers: bearer(token),
    });
    expect(((await restore.json()) as { code: number }).code).toBe(0);
    expect(t.server.modules.servicesOf(shopModule).binned.size).toBe(0);
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
      // Its recycle-bin type is not registered: not listed, its rows neither paged nor restorable (42022).
      expect(
        t.server.modules
          .servicesOf(recycleBinModule)
          .recycleBin.list()
          .map((x) => x.type),
      ).not.toContain('shop-item');
      for (const [method, path] of [
        ['GET', '/api/v1/sys/recycle/shop-item/page'],
        ['POST', '/api/v1/sys/recycle/shop-item/3/restore'],
      ] as const) {
        const res = await t.request(path, { method, headers: bearer(token) });
        expect(((await res.json()) as { code: number }).code, path).toBe(42022);
      }
    } finally {
      await t.close();
    }
  });
});

describe('a built-in module switched off', () => {
  it('leaves its recycle-bin types out of the bin (42022) while the others stay', async () => {
    const t = await startTestServer({ env: { Service__Api__DisabledModules__0: 'Notice' } });
    try {
      const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const types = (await (
        await t.request('/api/v1/sys/recycle/types', { headers: bearer(token) })
      ).json()) as {
        data: { type: string }[];
      };
      expect(types.data.map((x) => x.type)).not.toContain('notice');
      expect(types.data.map((x) => x.type)).toContain('job');
      const res = await t.request('/api/v1/sys/recycle/notice/page', { headers: bearer(token) });
      expect(((await res.json()) as { code: number }).code).toBe(42022);
    } finally {
      await t.close();
    }
  });
});

describe('a site feature of a module', () => {
  it('is in the anonymous site info while its module is on, read again after a change of its keys', async () => {
    let on = false;
    const beta = defineModule({
      name: 'Beta',
      siteFeatures: () => [{ name: 'beta', read: async () => on, keys: ['sys.site.footer'] }],
    });
    const features = async (t: TestServer) =>
      ((await (await t.request('/api/v1/sys/config/site')).json()) as { data: { features: object } }).data
        .features;
    const t = await startTestServer({ modules: [beta] });
    try {
      expect(await features(t)).toMatchObject({ beta: false });
      on = true;
      // Cached until one of its keys changes.
      expect(await features(t)).toMatchObject({ beta: false });
      await t.server.configStore.invalidate('sys.site.footer');
      expect(await features(t)).toMatchObject({ beta: true });
    } finally {
      await t.close();
    }
    const off = await startTestServer({ modules: [beta], env: { Service__Api__DisabledModules__0: 'Beta' } });
    try {
      expect(await features(off)).not.toHaveProperty('beta');
    } finally {
      await off.close();
    }
  });

  it('answers false for a feature whose read fails, and the rest of the site info still answers', async () => {
    const broken = defineModule({
      name: 'Broken',
      siteFeatures: () => [{ name: 'broken', read: () => Promise.reject(new Error('table gone')) }],
    });
    const t = await startTestServer({ modules: [broken] });
    try {
      const body = (await (await t.request('/api/v1/sys/config/site')).json()) as {
        code: number;
        data: { title: string; features: Record<string, boolean> };
      };
      expect(body.code).toBe(0);
      expect(body.data.title).toBeTruthy();
      expect(body.data.features).toMatchObject({ broken: false });
    } finally {
      await t.close();
    }
  });
});

describe('a user purged for good', () => {
  const told: string[] = [];
  const keeper = defineModule({
    name: 'Keeper',
    services: () => ({ kept: 'per-user rows' }),
    onUserPurged: (services, userId) => void told.push(`Keeper ${userId} ${services.kept}`),
  });
  const broken = defineModule({
    name: 'Broken',
    onUserPurged: () => Promise.reject(new Error('table gone')),
  });
  const sleeper = defineModule({
    name: 'Sleeper',
    onUserPurged: (_s, userId) => void told.push(`Sleeper ${userId}`),
  });

  it('tells the enabled modules in order, once the row is gone; a failing one is logged, the purge stands', async () => {
    const t = await startTestServer({
      // Broken before Keeper: its failure must not keep Keeper from being told.
      modules: [broken, keeper, sleeper],
      env: { Service__Api__DisabledModules__0: 'Sleeper' },
    });
    try {
      const admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      const call = async (method: string, path: string, json?: unknown) =>
        (
          (await (await t.request(path, { method, headers: admin, json })).json()) as {
            code: number;
            data: never;
          }
        ).code;
      // The repositories the server hands out are the ones the services use: a purge through them tells too.
      const users = t.server.database.repos.users;
      const user = async (account: string) => {
        const res = await t.request('/api/v1/sys/user', {
          method: 'POST',
          headers: admin,
          json: { account, realName: account, orgId: 1, password: 'User#Pass2345', roleIds: [] },
        });
        return ((await res.json()) as { data: { id: number } }).data.id;
      };
      const binned = await user('purged-one');
      expect(await call('DELETE', `/api/v1/sys/user/${binned}`)).toBe(0);
      // A soft delete keeps everything for a restore: nobody is told.
      expect(told).toEqual([]);
      expect(await call('DELETE', `/api/v1/sys/recycle/user/${binned}`)).toBe(0);
      expect(await users.findById(binned, { includeDeleted: true })).toBeUndefined();
      expect(told).toEqual([`Keeper ${binned} per-user rows`]);
      expect(
        t.logs.some((l) =>
          l.includes(`Module Broken could not remove what it keeps of purged user ${binned}`),
        ),
      ).toBe(true);
      // Not in the bin (already gone): nobody is told again.
      expect(await call('DELETE', `/api/v1/sys/recycle/user/${binned}`)).toBe(42020);
      // Any hard delete through the server's repositories tells them too.
      const other = await user('purged-two');
      await users.softDelete([other], { userId: null, at: new Date() });
      expect(await users.purge(other)).toBe(true);
      expect(told).toEqual([`Keeper ${binned} per-user rows`, `Keeper ${other} per-user rows`]);
    } finally {
      await t.close();
    }
  });
});

const METRICS_ON = { Service__Metrics__Enabled: 'true' };

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

  it('a recycle-bin type a built-in module declares, naming both', () =>
    refused(
      {
        modules: [defineModule({ name: 'Orders', recycleTypes: () => [memoryType('Position', new Set())] })],
      },
      /Recycle-bin type "position" is declared by module Admin and by module Orders/,
    ));

  it('a site feature a built-in module declares, naming both', () =>
    refused(
      {
        modules: [
          defineModule({ name: 'Keys', siteFeatures: () => [{ name: 'passkey', read: async () => true }] }),
        ],
      },
      /The site feature passkey is declared by module Passkey and by module Keys/,
    ));

  it('two modules claiming one recycle-bin type, naming both', () =>
    refused(
      {
        modules: [
          shopModule,
          defineModule({ name: 'Orders', recycleTypes: () => [memoryType('shop-item', new Set())] }),
        ],
      },
      /Recycle-bin type "shop-item" is declared by module Shop and by module Orders/,
    ));

  it('a recycle-bin type that is not a path segment, naming its module', () =>
    refused(
      { modules: [defineModule({ name: 'Orders', recycleTypes: () => [memoryType('a/b', new Set())] })] },
      /Module Orders: Recycle-bin type "a\/b" is not a path segment/,
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

  const gauge = (name: string) => ({ name, help: 'A gauge.', read: () => 1 });

  it("a metric of the service's own, naming it", () =>
    refused(
      { modules: [defineModule({ name: 'Thief', metrics: () => [gauge('svc_cache_up')] })], env: METRICS_ON },
      /Metric svc_cache_up of module Thief is one of the service's own/,
    ));

  it('two modules declaring one metric, naming both', () =>
    refused(
      {
        modules: [
          defineModule({ name: 'First', metrics: () => [gauge('shop_widgets')] }),
          defineModule({ name: 'Second', metrics: () => [gauge('shop_widgets')] }),
        ],
        env: METRICS_ON,
      },
      /Metric shop_widgets is declared by module First and by module Second/,
    ));
});

describe('module metrics', () => {
  it("are read at scrape time from the module's services, a built-in's among them, and not asked while metrics are off", async () => {
    let asked = 0;
    let broken = false;
    const widgets = defineModule({
      name: 'Widgets',
      services: () => ({ count: 3 }),
      metrics: (services) => {
        asked += 1;
        return [
          {
            name: 'widgets_total',
            help: 'Widgets made.',
            kind: 'counter',
            read: () => {
              if (broken) throw new Error('the widget table is away');
              return services.count;
            },
          },
          {
            name: 'widgets_by_colour',
            help: 'Widgets by colour.',
            label: 'colour',
            read: () => ({ red: 2, blue: 1 }),
          },
        ];
      },
    });
    const off = await startTestServer({ modules: [widgets] });
    await off.close();
    expect(asked).toBe(0);
    const t = await startTestServer({
      modules: [widgets],
      env: { ...METRICS_ON, Service__Realtime__Enabled: 'true' },
    });
    try {
      const render = () => (t.server.metrics as NonNullable<typeof t.server.metrics>).render();
      const text = await render();
      expect(text).toContain('# TYPE widgets_total counter');
      expect(text).toMatch(/^widgets_total 3$/m);
      expect(text).toMatch(/^widgets_by_colour\{colour="red"\} 2$/m);
      expect(text).toMatch(/^svc_realtime_connections 0$/m);
      expect(asked).toBe(1);
      // A read that fails is not known at that scrape (a counter keeps its last total), never fails the whole
      // answer; logged once.
      broken = true;
      for (const _ of [1, 2]) {
        const during = await render();
        expect(during).toMatch(/^widgets_total 3$/m);
        expect(during).toMatch(/^widgets_by_colour\{colour="red"\} 2$/m);
        expect(during).toMatch(/^svc_cache_up\{/m);
      }
      expect(
        t.logs.filter((l) => l.includes('Metric widgets_total of module Widgets could not be read')),
      ).toHaveLength(1);
      broken = false;
      expect(await render()).toMatch(/^widgets_total 3$/m);
      broken = true;
      expect(t.logs.filter((l) => l.includes('could not be read'))).toHaveLength(1);
      await render();
      expect(
        t.logs.filter((l) => l.includes('could not be read')),
        'again after a good read',
      ).toHaveLength(2);
    } finally {
      await t.close();
    }
  });
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

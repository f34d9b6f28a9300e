/**
 * The shop module over HTTP, written once and run on SQLite, PostgreSQL and MariaDB by the `shop.*.int.test.ts`
 * runners. One database per file: the service starts first with `Shop` in `Service:Api:DisabledModules` (no
 * route, no menu, no table), then again on the same database with the module on (its migrations applied under
 * its own journal, its menus added by the menu upgrade), and every test after that shares that service.
 * Written as an outside team would: `@svc/server` and its subpaths only.
 */
import type { DbType } from '@svc/server/kernel';
import { REALTIME_CHANNEL, type RealtimeEvent } from '@svc/server/modules';
import {
  grantPermissions,
  setRuntimeConfig,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '@svc/server/testing';
import { eq, gte } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PRODUCT_CHANGED,
  PRODUCT_RECYCLE_TYPE,
  SHOP_MENU_IDS,
  type ShopTables,
  SOLD_OUT_JOB,
  shopModule,
  shopTables,
} from './index.js';

const SHOP = '/api/v1/shop';
const code = (method: string, path: string) => `${method}:${SHOP}${path}`;
const PRODUCT = {
  list: code('GET', '/product/page'),
  detail: code('GET', '/product/{id}'),
  add: code('POST', '/product'),
  edit: code('PUT', '/product/{id}'),
  remove: code('DELETE', '/product/{id}'),
  export: code('GET', '/product/export'),
};
const RECYCLE = '/api/v1/sys/recycle';
const BIN = {
  page: 'GET:/api/v1/sys/recycle/{type}/page',
  restore: 'POST:/api/v1/sys/recycle/{type}/{id}/restore',
  purge: 'DELETE:/api/v1/sys/recycle/{type}/{id}',
};
const SHOP_TABLES = ['shop_category', 'shop_product'];
const JOURNAL = 'sys_schema_version_shop';

interface Envelope {
  code: number;
  msgKey: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
  data: any;
  args?: Record<string, unknown>;
}

export function defineShopContract(dbType: DbType): void {
  describe(`module Shop on ${dbType}`, () => {
    let t: TestServer;
    let admin: string;
    let orgA: number;
    let orgB: number;
    /** What the first start, with the module off, showed. */
    const off = {
      pageStatus: 0,
      menus: [] as number[],
      tables: [] as string[],
      errorCodes: [] as number[],
      health: [] as string[],
      jobHandlers: [] as string[],
      recycleCode: 0,
    };

    const call = async (token: string, method: string, path: string, json?: unknown) => {
      const res = await t.request(`${SHOP}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
        ...(json === undefined ? {} : { json }),
      });
      return { status: res.status, body: (await res.json()) as Envelope };
    };
    const login = async (account: string, password: string) => {
      const res = await t.request('/api/v1/auth/login', { json: { account, password } });
      const body = (await res.json()) as Envelope;
      if (body.code !== 0) throw new Error(`login of ${account} failed: ${JSON.stringify(body)}`);
      return body.data.accessToken as string;
    };
    /** A call of the recycle bin's routes, under `/api/v1/sys/recycle`. */
    const bin = async (token: string, method: string, path: string) => {
      const res = await t.request(`${RECYCLE}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
      });
      return (await res.json()) as Envelope;
    };
    const binIds = async (token: string) =>
      (
        (await bin(token, 'GET', `/${PRODUCT_RECYCLE_TYPE}/page?size=100`)).data.items as { id: number }[]
      ).map((i) => i.id);
    const tables = async () => {
      const { adapter, db } = t.server.database.database;
      return (await adapter.listTables(db)).map((name) => name.toLowerCase());
    };
    const shopMenuRows = async () => {
      const { db, tables: k } = t.server.database.database;
      return db
        .select({ id: k.sysMenu.id, type: k.sysMenu.type, permission: k.sysMenu.permission })
        .from(k.sysMenu)
        .where(gte(k.sysMenu.id, SHOP_MENU_IDS.catalog));
    };
    const jobHandlers = async () => {
      const res = await t.request('/api/v1/sys/job/handlers', {
        headers: { authorization: `Bearer ${admin}` },
      });
      return (((await res.json()) as Envelope).data.handlers as { name: string }[]).map((h) => h.name);
    };
    const errorCodes = async () => {
      const res = await t.request('/api/v1/meta/error-codes');
      return ((await res.json()) as Envelope).data as { code: number; msgKey: string; source: string }[];
    };
    /** A user of `orgId` holding `permissions` through a role whose data scope is their own organisation. */
    const clerk = async (account: string, orgId: number, permissions: string[]) => {
      await grantPermissions(t, { account, permissions, orgId });
      const { db, tables: k } = t.server.database.database;
      await db
        .update(k.sysRole)
        .set({ dataScope: 2 })
        .where(eq(k.sysRole.code, `role_${account}`));
      return login(account, TEST_USER_PASSWORD);
    };
    const newCategory = async (name: string) =>
      (await call(admin, 'POST', '/category', { name, code: name.toLowerCase().replace(/\W+/g, '-') })).body
        .data.id as number;
    const newProduct = async (token: string, input: Record<string, unknown>) =>
      call(token, 'POST', '/product', { name: 'Widget', code: 'W-1', ...input });

    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        modules: [shopModule],
        env: { Service__Api__DisabledModules__0: 'Shop' },
      });
      admin = await login('superAdmin', TEST_ADMIN_PASSWORD);
      off.pageStatus = (await call(admin, 'GET', '/product/page')).status;
      off.menus = (await shopMenuRows()).map((m) => m.id);
      off.tables = (await tables()).filter((name) => name.startsWith('shop_') || name === JOURNAL);
      off.errorCodes = (await errorCodes()).filter((c) => c.source === 'ShopErrorCode').map((c) => c.code);
      off.health = t.server.modules.health().map((h) => h.name);
      off.jobHandlers = await jobHandlers();
      off.recycleCode = (await bin(admin, 'GET', `/${PRODUCT_RECYCLE_TYPE}/page`)).code;
      await t.stop();
      t = await startTestServer({
        dbType,
        modules: [shopModule],
        env: { Service__Shop__MaxStock: '500', Service__Realtime__Enabled: 'true' },
        reuse: { database: t.database, contentRoot: t.contentRoot },
      });
      admin = await login('superAdmin', TEST_ADMIN_PASSWORD);
      const org = async (name: string) => {
        const res = await t.request('/api/v1/sys/org', {
          headers: { authorization: `Bearer ${admin}` },
          json: { parentId: 1, name, code: name.toLowerCase().replace(/\W+/g, '-') },
        });
        return ((await res.json()) as Envelope).data.id as number;
      };
      orgA = await org('Shop A');
      orgB = await org('Shop B');
    });
    afterAll(() => t?.close());

    it('off: no route (404), no menu, no table, no error code, no readiness check of the module', () => {
      expect(off.pageStatus).toBe(404);
      expect(off.health).not.toContain('shop-tables');
      expect(off.jobHandlers.length).toBeGreaterThan(0);
      expect(off.jobHandlers).not.toContain(SOLD_OUT_JOB);
      expect(off.menus).toEqual([]);
      expect(off.tables).toEqual([]);
      expect(off.errorCodes).toEqual([]);
      // Nor a recycle-bin type: the bin does not know it (42022).
      expect(off.recycleCode).toBe(42022);
    });

    it('on: its tables are migrated under its own journal, its menus and buttons seeded with their codes', async () => {
      const present = await tables();
      expect(present).toEqual(expect.arrayContaining([...SHOP_TABLES, JOURNAL]));
      const menus = await shopMenuRows();
      const byId = new Map(menus.map((m) => [m.id, m]));
      expect(byId.get(SHOP_MENU_IDS.catalog)?.type).toBe('catalog');
      expect(byId.get(SHOP_MENU_IDS.products)?.type).toBe('menu');
      const buttons = menus.filter((m) => m.type === 'button').map((m) => m.permission);
      expect(buttons).toEqual(expect.arrayContaining(Object.values(PRODUCT)));
      expect(buttons).toContain(code('DELETE', '/category/{id}'));
      expect(buttons).toHaveLength(11);
    });

    it('adds a readiness check that reads its tables', async () => {
      const check = t.server.modules.health().find((h) => h.name === 'shop-tables');
      await expect(check?.check()).resolves.toBeUndefined();
      expect((await t.request('/health/ready')).status).toBe(200);
    });

    it('creates, reads, pages, updates and soft-deletes categories and products', async () => {
      const created = await call(admin, 'POST', '/category', { name: 'Tools', code: 'tools', sort: 2 });
      expect(created.body).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
      const categoryId = created.body.data.id as number;
      expect((await call(admin, 'GET', `/category/${categoryId}`)).body.data).toMatchObject({
        name: 'Tools',
        code: 'tools',
        sort: 2,
        remark: null,
        updateTime: null,
      });
      expect((await call(admin, 'PUT', `/category/${categoryId}`, { name: 'Hand tools' })).body.code).toBe(0);
      const categories = (await call(admin, 'GET', '/category/page?name=hand')).body.data;
      expect(categories.items.map((c: { name: string }) => c.name)).toEqual(['Hand tools']);

      const product = await newProduct(admin, { categoryId, orgId: orgA, priceCents: 1250, stock: 3 });
      expect(product.body.code).toBe(0);
      const productId = product.body.data.id as number;
      expect((await call(admin, 'GET', `/product/${productId}`)).body.data).toMatchObject({
        categoryId,
        orgId: orgA,
        name: 'Widget',
        priceCents: 1250,
        stock: 3,
        enabled: true,
      });
      expect(
        (await call(admin, 'PUT', `/product/${productId}`, { stock: 7, enabled: false })).body.code,
      ).toBe(0);
      const page = (await call(admin, 'GET', `/product/page?categoryId=${categoryId}&enabled=false`)).body
        .data;
      expect(page).toMatchObject({ total: 1, items: [{ id: productId, stock: 7, enabled: false }] });

      const inUse = await call(admin, 'DELETE', `/category/${categoryId}`);
      expect(inUse.body).toMatchObject({
        code: 61003,
        msgKey: 'error.shop.categoryInUse',
      });
      expect(inUse.body.args).toBeUndefined();
      expect((await call(admin, 'DELETE', `/product/${productId}`)).body.code).toBe(0);
      expect((await call(admin, 'GET', `/product/${productId}`)).body.code).toBe(61002);
      expect((await call(admin, 'DELETE', `/category/${categoryId}`)).body.code).toBe(0);
      expect((await call(admin, 'GET', `/category/${categoryId}`)).body).toMatchObject({
        code: 61001,
        msgKey: 'error.shop.categoryNotFound',
      });
      // Soft delete: the rows stay, flagged and stamped, for the recycle bin to restore.
      const { db } = t.server.database.database;
      const { shopProduct } = shopTables[dbType] as ShopTables;
      const [kept] = await db.select().from(shopProduct).where(eq(shopProduct.id, productId));
      expect(kept).toMatchObject({ isDelete: true, updateUserId: expect.any(Number) });
    });

    it('refuses a caller without the route permission with 403/41001, and lets the one with it through', async () => {
      const viewer = await clerk('shop-viewer', orgA, [PRODUCT.list]);
      const refused = await newProduct(viewer, { categoryId: await newCategory('Viewer cat'), orgId: orgA });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe(41001);
      expect((await call(viewer, 'GET', '/product/page')).body.code).toBe(0);
      expect((await call(viewer, 'GET', '/category/page')).status).toBe(403);
    });

    it('shows a caller only the products of the organisations in their data scope', async () => {
      const categoryId = await newCategory('Scoped');
      const theirs = (await newProduct(admin, { categoryId, orgId: orgB, code: 'B-1' })).body.data
        .id as number;
      const token = await clerk('shop-clerk-a', orgA, Object.values(PRODUCT));
      const mine = await newProduct(token, { categoryId, orgId: orgA, code: 'A-1' });
      expect(mine.body.code).toBe(0);

      const page = (await call(token, 'GET', `/product/page?categoryId=${categoryId}`)).body.data;
      expect(page.items.map((p: { id: number }) => p.id)).toEqual([mine.body.data.id]);
      // Another organisation's product answers as missing, for reads and writes alike, and stays unchanged.
      expect((await call(token, 'GET', `/product/${theirs}`)).body.code).toBe(61002);
      expect((await call(token, 'PUT', `/product/${theirs}`, { name: 'Taken' })).body.code).toBe(61002);
      expect((await call(token, 'DELETE', `/product/${theirs}`)).body.code).toBe(61002);
      expect((await call(admin, 'GET', `/product/${theirs}`)).body.data).toMatchObject({ name: 'Widget' });
      // Nor can a product be placed in (or moved to) an organisation outside the scope.
      expect((await newProduct(token, { categoryId, orgId: orgB })).body.code).toBe(41005);
      expect((await call(token, 'PUT', `/product/${mine.body.data.id}`, { orgId: orgB })).body.code).toBe(
        41005,
      );
      expect((await newProduct(token, { categoryId, orgId: 999_999 })).body.code).toBe(42003);
    });

    it('answers its own error codes, registered with their msgKeys', async () => {
      const categoryId = await newCategory('Stocked');
      const tooMuch = await newProduct(admin, { categoryId, orgId: orgA, stock: 501 });
      expect(tooMuch.status).toBe(200);
      expect(tooMuch.body).toMatchObject({
        code: 61004,
        msgKey: 'error.shop.stockAboveMaximum',
        args: { max: 500 },
      });
      expect((await newProduct(admin, { categoryId, orgId: orgA, stock: 500 })).body.code).toBe(0);
      expect((await newProduct(admin, { categoryId: 999_999, orgId: orgA })).body.code).toBe(61001);
      const shopCodes = (await errorCodes()).filter((c) => c.source === 'ShopErrorCode');
      expect(shopCodes.map((c) => [c.code, c.msgKey])).toEqual([
        [61001, 'error.shop.categoryNotFound'],
        [61002, 'error.shop.productNotFound'],
        [61003, 'error.shop.categoryInUse'],
        [61004, 'error.shop.stockAboveMaximum'],
      ]);
    });

    it('needs a recent re-authentication to delete while second factors are on (403/40024)', async () => {
      const categoryId = await newCategory('Reauth');
      const token = await clerk('shop-clerk-r', orgA, Object.values(PRODUCT));
      const id = (await newProduct(token, { categoryId, orgId: orgA })).body.data.id as number;
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      try {
        const refused = await call(token, 'DELETE', `/product/${id}`);
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: 40024, msgKey: 'error.auth.reauthRequired' });
        expect((await call(token, 'GET', `/product/${id}`)).body.code).toBe(0);
        // Editing is not marked: it goes through without re-authentication.
        expect((await call(token, 'PUT', `/product/${id}`, { stock: 1 })).body.code).toBe(0);

        const reauth = await t.request('/api/v1/auth/reauth', {
          headers: { authorization: `Bearer ${token}` },
          json: { method: 'password', password: TEST_USER_PASSWORD },
        });
        expect(((await reauth.json()) as Envelope).code).toBe(0);
        expect((await call(token, 'DELETE', `/product/${id}`)).body.code).toBe(0);
        expect((await call(token, 'GET', `/product/${id}`)).body.code).toBe(61002);
      } finally {
        await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
      }
    });

    it('tells connected consoles after each product write, with nothing of the product (its realtime message)', async () => {
      const seen: RealtimeEvent[] = [];
      const stop = await t.server.cache.subscribe<RealtimeEvent>(REALTIME_CHANNEL, (e) => void seen.push(e));
      try {
        const categoryId = await newCategory('Realtime');
        const id = (await newProduct(admin, { categoryId, orgId: orgA })).body.data.id as number;
        await call(admin, 'PUT', `/product/${id}`, { stock: 2 });
        await call(admin, 'PUT', `/product/${id}`, { stock: 501 }); // refused: no message
        await call(admin, 'DELETE', `/product/${id}`);
        const mine = () => seen.filter((e) => e.to === 'users' && e.kind === PRODUCT_CHANGED);
        await expect.poll(() => mine().length).toBe(3);
        expect(mine().map((e) => (e.to === 'users' ? [e.all, e.data] : []))).toEqual([
          [true, { action: 'created' }],
          [true, { action: 'updated' }],
          [true, { action: 'deleted' }],
        ]);
      } finally {
        await stop();
      }
    });

    it('brings a scheduled-job handler that disables sold-out products, run by module Job', async () => {
      expect(await jobHandlers()).toContain(SOLD_OUT_JOB);
      const categoryId = await newCategory('Sold out');
      const soldOut = (await newProduct(admin, { categoryId, orgId: orgA, stock: 0 })).body.data.id as number;
      const stocked = (await newProduct(admin, { categoryId, orgId: orgA, stock: 4 })).body.data.id as number;
      const job = await t.request('/api/v1/sys/job', {
        headers: { authorization: `Bearer ${admin}` },
        json: {
          name: 'Disable sold-out products',
          code: 'shop-sold-out',
          handlerKind: 1,
          handlerName: SOLD_OUT_JOB,
          triggerKind: 1,
          cronExpression: '0 0 0 1 1 ?',
        },
      });
      const jobId = ((await job.json()) as Envelope).data.id as number;
      const run = await t.request(`/api/v1/sys/job/${jobId}/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(((await run.json()) as Envelope).code).toBe(0);
      const lastRun = async () => {
        const res = await t.request(`/api/v1/sys/job/log/page?jobId=${jobId}`, {
          headers: { authorization: `Bearer ${admin}` },
        });
        return (
          ((await res.json()) as Envelope).data.items as { runStatus: string; messageText: string }[]
        )[0];
      };
      await expect.poll(async () => (await lastRun())?.runStatus, { timeout: 10_000 }).toBe('success');
      expect((await lastRun())?.messageText).toMatch(/^[1-9]\d* product\(s\) disabled$/);
      expect((await call(admin, 'GET', `/product/${soldOut}`)).body.data.enabled).toBe(false);
      expect((await call(admin, 'GET', `/product/${stocked}`)).body.data.enabled).toBe(true);
    });

    it("puts deleted products in the recycle bin: listed, restored, purged, within the caller's data scope", async () => {
      const types = (await bin(admin, 'GET', '/types')).data as { type: string; codes: string[] }[];
      expect(types.find((x) => x.type === PRODUCT_RECYCLE_TYPE)?.codes).toEqual([PRODUCT.remove]);
      const categoryId = await newCategory('Binned');
      const token = await clerk('shop-clerk-bin', orgA, [...Object.values(PRODUCT), ...Object.values(BIN)]);
      const mine = (await newProduct(token, { categoryId, orgId: orgA, name: 'Binned A' })).body.data
        .id as number;
      const theirs = (await newProduct(admin, { categoryId, orgId: orgB, name: 'Binned B' })).body.data
        .id as number;
      expect((await call(token, 'DELETE', `/product/${mine}`)).body.code).toBe(0);
      expect((await call(admin, 'DELETE', `/product/${theirs}`)).body.code).toBe(0);

      const page = (await bin(admin, 'GET', `/${PRODUCT_RECYCLE_TYPE}/page?size=100`)).data;
      expect(page.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: mine,
            title: 'Binned A',
            subtitle: 'W-1',
            deleteUserId: expect.any(Number),
          }),
          expect.objectContaining({ id: theirs, title: 'Binned B' }),
        ]),
      );
      // The clerk sees and acts on the deleted products of their own organisation only (42020 for another's).
      const seen = await binIds(token);
      expect(seen).toContain(mine);
      expect(seen).not.toContain(theirs);
      expect((await bin(token, 'POST', `/${PRODUCT_RECYCLE_TYPE}/${theirs}/restore`)).code).toBe(42020);
      expect((await bin(token, 'DELETE', `/${PRODUCT_RECYCLE_TYPE}/${theirs}`)).code).toBe(42020);
      expect((await call(admin, 'GET', `/product/${theirs}`)).body.code).toBe(61002);

      // Restored: live again, in the product page, out of the bin.
      expect((await bin(token, 'POST', `/${PRODUCT_RECYCLE_TYPE}/${mine}/restore`)).code).toBe(0);
      const live = (await call(token, 'GET', `/product/page?categoryId=${categoryId}`)).body.data;
      expect(live.items.map((p: { id: number }) => p.id)).toEqual([mine]);
      expect(await binIds(token)).not.toContain(mine);
      expect((await bin(token, 'POST', `/${PRODUCT_RECYCLE_TYPE}/${mine}/restore`)).code).toBe(42020);

      // Purged: gone for good, row and all.
      expect((await bin(admin, 'DELETE', `/${PRODUCT_RECYCLE_TYPE}/${theirs}`)).code).toBe(0);
      expect(await binIds(admin)).not.toContain(theirs);
      const { db } = t.server.database.database;
      const { shopProduct } = shopTables[dbType] as ShopTables;
      expect(await db.select().from(shopProduct).where(eq(shopProduct.id, theirs))).toEqual([]);
      expect((await bin(admin, 'DELETE', `/${PRODUCT_RECYCLE_TYPE}/${theirs}`)).code).toBe(42020);
    });

    it('refuses a bin restore without the product delete code (41001)', async () => {
      const categoryId = await newCategory('Bin codes');
      const id = (await newProduct(admin, { categoryId, orgId: orgA })).body.data.id as number;
      expect((await call(admin, 'DELETE', `/product/${id}`)).body.code).toBe(0);
      const token = await clerk('shop-bin-only', orgA, Object.values(BIN));
      expect(await binIds(token)).toContain(id);
      expect((await bin(token, 'POST', `/${PRODUCT_RECYCLE_TYPE}/${id}/restore`)).code).toBe(41001);
      expect((await call(admin, 'GET', `/product/${id}`)).body.code).toBe(61002);
    });

    it("exports the products of the caller's data scope as a workbook, written to the operation log", async () => {
      const categoryId = await newCategory('Exported');
      const a1 = (
        await newProduct(admin, {
          categoryId,
          orgId: orgA,
          name: 'Export A1',
          code: 'XA-1',
          priceCents: 990,
          stock: 4,
        })
      ).body.data.id as number;
      const a2 = (await newProduct(admin, { categoryId, orgId: orgA, name: 'Export A2', code: 'XA-2' })).body
        .data.id as number;
      await newProduct(admin, { categoryId, orgId: orgB, name: 'Export B', code: 'XB-1' });
      const gone = (await newProduct(admin, { categoryId, orgId: orgA, name: 'Export gone', code: 'XA-3' }))
        .body.data.id as number;
      expect((await call(admin, 'DELETE', `/product/${gone}`)).body.code).toBe(0);
      const token = await clerk('shop-exporter', orgA, [PRODUCT.export]);

      const res = await t.request(`${SHOP}/product/export?categoryId=${categoryId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('spreadsheetml');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      const rows: unknown[][] = [];
      sheet?.eachRow((row) => void rows.push((row.values as unknown[]).slice(1)));
      expect(rows[0]).toEqual([
        'ID',
        'Code',
        'Name',
        'Category ID',
        'Organisation ID',
        'Price (cents)',
        'Stock',
        'Enabled',
        'Remark',
      ]);
      // Oldest first, the other organisation's and the deleted product left out.
      expect(rows.slice(1).map((r) => [Number(r[0]), r[1], r[2]])).toEqual([
        [a1, 'XA-1', 'Export A1'],
        [a2, 'XA-2', 'Export A2'],
      ]);
      expect(rows[1]?.slice(4, 8).map(String)).toEqual([String(orgA), '990', '4', 'yes']);

      // Only the columns asked, in their order; an unknown one answers 46013.
      const picked = await t.request(`${SHOP}/product/export?categoryId=${categoryId}&columns=name,code`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const narrow = new ExcelJS.Workbook();
      await narrow.xlsx.load(Buffer.from(await picked.arrayBuffer()) as unknown as ArrayBuffer);
      expect(((narrow.worksheets[0]?.getRow(1).values ?? []) as unknown[]).slice(1)).toEqual([
        'Name',
        'Code',
      ]);
      const unknown = await t.request(`${SHOP}/product/export?columns=nope`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await unknown.json()) as Envelope).code).toBe(46013);
      // A caller without the export button is refused.
      const viewer = await login('shop-viewer', TEST_USER_PASSWORD);
      expect(
        (await t.request(`${SHOP}/product/export`, { headers: { authorization: `Bearer ${viewer}` } }))
          .status,
      ).toBe(403);

      await t.server.logWriters.opLog.drain(5000);
      const log = await t.request('/api/v1/sys/log/op/page?size=50', {
        headers: { authorization: `Bearer ${admin}` },
      });
      const logged = ((await log.json()) as Envelope).data.items as {
        title: string;
        httpMethod: string;
        path: string;
      }[];
      expect(logged).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            title: 'Export shop products',
            httpMethod: 'GET',
            path: `${SHOP}/product/export`,
          }),
        ]),
      );
    });

    it('records its writes in the operation log under the route summary', async () => {
      const categoryId = await newCategory('Logged');
      const created = await newProduct(admin, { categoryId, orgId: orgA, name: 'Logged widget' });
      expect(created.body.code).toBe(0);
      await t.server.logWriters.opLog.drain(5000);
      const res = await t.request('/api/v1/sys/log/op/page?size=50', {
        headers: { authorization: `Bearer ${admin}` },
      });
      const rows = ((await res.json()) as Envelope).data.items as {
        title: string;
        httpMethod: string;
        path: string;
        paramJson: string | null;
        resultCode: number;
      }[];
      const row = rows.find((r) => r.path === `${SHOP}/product` && r.paramJson?.includes('Logged widget'));
      expect(row).toMatchObject({ title: 'Create a shop product', httpMethod: 'POST', resultCode: 0 });
      // Masked as every write body is (a field named `code` is taken for a verification code).
      expect(row?.paramJson).toContain('"code":"***"');
    });
  });
}

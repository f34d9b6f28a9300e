/**
 * The multi-app portal over HTTP: module administration (42011–42013, 42023, live-code uniqueness), the
 * caller's modules (only those reachable through granted menus), one module's sidebar, the default module
 * (42014 when unreachable), grants taking effect at the next request, and the kill-switch. With Redis, two
 * instances share one cache: a `rebuild-portal` or a grant change on A is seen by B's next request.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD } from '../../testing/index.js';
import { type AdminHarness, startAdminServer, USER_PASSWORD } from '../admin/harness.contract.js';

const MODULE_CODES = [
  'GET:/api/v1/sys/module/list',
  'GET:/api/v1/sys/module/{id}',
  'POST:/api/v1/sys/module',
  'PUT:/api/v1/sys/module/{id}',
  'DELETE:/api/v1/sys/module/{id}',
];

// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field.
type Any = any;

async function moduleIds(h: AdminHarness): Promise<Record<string, number>> {
  const list = await h.ok('GET', '/api/v1/sys/module/list');
  return Object.fromEntries(list.map((m: Any) => [m.code, m.id]));
}

export function definePortalContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`portal modules on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
    });
    afterAll(() => h?.close());

    it('seeds system (protected) and business; module CRUD with 42011, 42012, 42013, 42023', async () => {
      const list = await h.ok('GET', '/api/v1/sys/module/list');
      expect(list.map((m: Any) => [m.code, m.apiPrefix, m.builtIn])).toEqual([
        ['system', 'sys', true],
        ['business', 'biz', false],
      ]);
      const ids = await moduleIds(h);
      // Every seeded top-level menu belongs to system.
      const tree = await h.ok('GET', '/api/v1/sys/menu/tree');
      const seededTop = tree.filter((n: Any) => n.id < 100);
      expect(seededTop.length).toBeGreaterThan(0);
      for (const n of seededTop) expect(n.moduleId).toBe(ids.system);

      const crm = (await h.ok('POST', '/api/v1/sys/module', { json: { code: 'crm', title: 'CRM', sort: 3 } }))
        .id;
      expect(await h.ok('GET', `/api/v1/sys/module/${crm}`)).toMatchObject({ code: 'crm', title: 'CRM' });
      const dup = await h.call('POST', '/api/v1/sys/module', { json: { code: 'CRM', title: 'x' } });
      expect(dup.body.code).toBe(42012);
      expect((await h.call('PUT', `/api/v1/sys/module/${crm}`, { json: { code: 'System' } })).body.code).toBe(
        42012,
      );
      expect(
        (await h.call('PUT', `/api/v1/sys/module/${ids.system}`, { json: { code: 'sys2' } })).body.code,
      ).toBe(42013);
      await h.ok('PUT', `/api/v1/sys/module/${ids.system}`, { json: { title: 'Platform' } });
      expect((await h.call('DELETE', `/api/v1/sys/module/${ids.system}`)).body.code).toBe(42013);
      expect((await h.call('GET', '/api/v1/sys/module/999999')).body.code).toBe(42011);
      expect((await h.call('PUT', '/api/v1/sys/module/999999', { json: { title: 'x' } })).body.code).toBe(
        42011,
      );
      expect(
        (await h.call('POST', '/api/v1/sys/module', { json: { code: 'x', title: 'x', tenant: 1 } })).body
          .code,
      ).toBe(48000);
      // A menu in an unknown module is refused; one in crm blocks the module's delete.
      const bad = await h.call('POST', '/api/v1/sys/menu', {
        json: { type: 'catalog', title: 'nowhere', moduleId: 999999 },
      });
      expect(bad.body.code).toBe(42011);
      const menu = (
        await h.ok('POST', '/api/v1/sys/menu', {
          json: { type: 'catalog', title: 'CRM home', moduleId: crm },
        })
      ).id;
      expect((await h.call('DELETE', `/api/v1/sys/module/${crm}`)).body.code).toBe(42023);
      await h.ok('DELETE', `/api/v1/sys/menu/${menu}`);
      await h.ok('DELETE', `/api/v1/sys/module/${crm}`);
      expect((await h.call('GET', `/api/v1/sys/module/${crm}`)).body.code).toBe(42011);
      // The code is free again among live rows; restoring the deleted one then clashes (42021).
      const again = (await h.ok('POST', '/api/v1/sys/module', { json: { code: 'crm', title: 'CRM 2' } })).id;
      const bin = await h.ok('GET', '/api/v1/sys/recycle/module/page');
      expect(bin.items.map((i: Any) => i.id)).toContain(crm);
      const clash = await h.call('POST', `/api/v1/sys/recycle/module/${crm}/restore`);
      expect(clash.body).toMatchObject({ code: 42021, args: { field: 'code', value: 'crm' } });
      await h.ok('DELETE', `/api/v1/sys/module/${again}`);
      await h.ok('POST', `/api/v1/sys/recycle/module/${crm}/restore`);
      expect(await h.ok('GET', `/api/v1/sys/module/${crm}`)).toMatchObject({ code: 'crm', title: 'CRM' });
      await h.ok('DELETE', `/api/v1/sys/module/${crm}`);
    });

    it('the database refuses a second live module with the same code (contract §10)', async () => {
      const { db, tables } = h.t.server.database.database;
      const stamp = { createTime: new Date() };
      await db.insert(tables.sysModule).values({ code: 'twin', title: 'a', ...stamp });
      await expect(
        db.insert(tables.sysModule).values({ code: 'TWIN', title: 'b', ...stamp }),
      ).rejects.toThrow();
      await db.insert(tables.sysModule).values({ code: 'twin', title: 'c', isDelete: true, ...stamp });
    });

    it('system cannot be disabled (42013), and a system disabled in the database still reaches the console', async () => {
      const ids = await moduleIds(h);
      const refused = await h.call('PUT', `/api/v1/sys/module/${ids.system}`, {
        json: { enabled: false, title: 'Off' },
      });
      expect([refused.body.code, refused.body.args?.reason]).toEqual([42013, 'disable']);
      const [system] = (await h.ok('GET', '/api/v1/sys/module/list')).filter((m: Any) => m.code === 'system');
      expect(system.enabled).toBe(true);
      expect(system.title).not.toBe('Off');
      // Enabling it, or sending `enabled: true` with other fields, stays allowed.
      await h.ok('PUT', `/api/v1/sys/module/${ids.system}`, { json: { enabled: true } });
      // A row disabled behind the API (an older version allowed it): the portal keeps offering system.
      const { modules } = h.t.server.database.repos;
      const stamp = { userId: null, at: new Date() };
      expect(await modules.update(ids.system as number, { enabled: false }, stamp)).toBe(true);
      await h.ok('POST', '/api/v1/sys/cache/rebuild-portal');
      try {
        // Its other fields stay editable as it is (only switching it off is refused), and enabling it mends it.
        await h.ok('PUT', `/api/v1/sys/module/${ids.system}`, { json: { title: 'System', enabled: false } });
        const mine = await h.ok('GET', '/api/v1/personal/modules');
        expect(mine.modules.map((m: Any) => m.code)).toContain('system');
        expect((await h.ok('GET', `/api/v1/personal/menu?moduleId=${ids.system}`)).length).toBeGreaterThan(0);
      } finally {
        await modules.update(ids.system as number, { enabled: true }, stamp);
        await h.ok('POST', '/api/v1/sys/cache/rebuild-portal');
      }
    });

    it('a user reaches only the modules of granted menus; sidebar per module; default module (42014)', async () => {
      const ids = await moduleIds(h);
      // Granted only the Users menu (under the seeded System catalog, module system).
      const roleId = (
        await h.ok('POST', '/api/v1/sys/role', { json: { name: 'portal-r', code: 'portal_r' } })
      ).id;
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [100] } });
      await h.user('portal-u', { roleIds: [roleId] });
      const token = await h.loginAs('portal-u');
      const mine = await h.ok('GET', '/api/v1/personal/modules', { token });
      expect(mine.modules.map((m: Any) => m.code)).toEqual(['system']);
      expect(mine.defaultModuleId).toBe(ids.system);
      const sidebar = await h.ok('GET', `/api/v1/personal/menu?moduleId=${ids.system}`, { token });
      expect(sidebar.map((n: Any) => n.id)).toEqual([1]);
      expect(sidebar[0].children.map((n: Any) => n.id)).toEqual([100]);
      const denied = await h.call('GET', `/api/v1/personal/menu?moduleId=${ids.business}`, { token });
      expect(denied.body.code).toBe(42014);
      expect((await h.call('GET', '/api/v1/personal/menu?moduleId=abc', { token })).body.code).toBe(48000);
      expect(
        (await h.call('PUT', '/api/v1/personal/default-module', { token, json: { moduleId: ids.business } }))
          .body.code,
      ).toBe(42014);
      expect(
        (await h.call('PUT', '/api/v1/personal/default-module', { token, json: { moduleId: 999999 } })).body
          .code,
      ).toBe(42014);

      // A grant in business takes effect at the next request (covered by the permission generations).
      const bizCatalog = (
        await h.ok('POST', '/api/v1/sys/menu', {
          json: { type: 'catalog', title: 'Orders', moduleId: ids.business },
        })
      ).id;
      const bizMenu = (
        await h.ok('POST', '/api/v1/sys/menu', {
          json: { parentId: bizCatalog, type: 'menu', title: 'Order list', path: '/biz/order' },
        })
      ).id;
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [100, bizMenu] } });
      const after = await h.ok('GET', '/api/v1/personal/modules', { token });
      expect(after.modules.map((m: Any) => m.code)).toEqual(['system', 'business']);
      const bizSidebar = await h.ok('GET', `/api/v1/personal/menu?moduleId=${ids.business}`, { token });
      expect(bizSidebar.map((n: Any) => n.id)).toEqual([bizCatalog]);
      await h.ok('PUT', '/api/v1/personal/default-module', { token, json: { moduleId: ids.business } });
      expect((await h.ok('GET', '/api/v1/personal/modules', { token })).defaultModuleId).toBe(ids.business);

      // A disabled module disappears (module writes bump the portal generation); the default falls back.
      await h.ok('PUT', `/api/v1/sys/module/${ids.business}`, { json: { enabled: false } });
      const disabled = await h.ok('GET', '/api/v1/personal/modules', { token });
      expect(disabled.modules.map((m: Any) => m.code)).toEqual(['system']);
      expect(disabled.defaultModuleId).toBe(ids.system);
      await h.ok('PUT', `/api/v1/sys/module/${ids.business}`, { json: { enabled: true } });

      // Revoking the grant removes the module again.
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [100] } });
      expect(
        (await h.ok('GET', '/api/v1/personal/modules', { token })).modules.map((m: Any) => m.code),
      ).toEqual(['system']);
      // The super admin reaches every enabled module and sees a new menu in the sidebar at once.
      const all = await h.ok('GET', '/api/v1/personal/modules');
      expect(all.modules.map((m: Any) => m.code)).toEqual(expect.arrayContaining(['system', 'business']));
      const adminSidebar = async () =>
        (await h.ok('GET', `/api/v1/personal/menu?moduleId=${ids.business}`)).map((n: Any) => n.id);
      expect(await adminSidebar()).toEqual([bizCatalog]);
      const fresh = (
        await h.ok('POST', '/api/v1/sys/menu', {
          json: { type: 'catalog', title: 'Fresh', moduleId: ids.business },
        })
      ).id;
      expect(await adminSidebar()).toEqual([bizCatalog, fresh]);
      // The module routes need their codes.
      expect((await h.call('GET', '/api/v1/sys/module/list', { token })).status).toBe(403);
      expect((await h.call('GET', '/api/v1/personal/modules', { token: '' })).status).toBe(401);
    });

    it('the kill-switch Module removes the module routes whole', async () => {
      const off = await startTestServer({
        dbType,
        cache,
        env: { Service__Api__DisabledModules__0: 'Module' },
      });
      try {
        const session = await login(off, 'superAdmin', TEST_ADMIN_PASSWORD);
        for (const path of ['/api/v1/sys/module/list', '/api/v1/personal/modules']) {
          expect((await off.request(path, { headers: bearer(session.accessToken) })).status).toBe(404);
        }
        const codes = off.server.routes.permissionRoutes().map((r) => r.permissionCode);
        for (const code of MODULE_CODES) expect(codes).not.toContain(code);
        // The personal menu itself stays (it is the Admin area's).
        expect(
          (await off.request('/api/v1/personal/menu', { headers: bearer(session.accessToken) })).status,
        ).toBe(200);
      } finally {
        await off.close();
      }
    });
  });
}

/** Two instances on one Redis: portal answers are shared and retired on every instance at once. */
export function definePortalScaleOutContract(dbType: DbType): void {
  describe(`portal cache across two instances on ${dbType} with Redis`, () => {
    const prefix = `svc-test-portal-${Math.random().toString(36).slice(2, 10)}:`;
    let a: AdminHarness;
    let b: Awaited<ReturnType<typeof startTestServer>>;
    beforeAll(async () => {
      a = await startAdminServer(dbType, 'Redis', { env: { Service__Cache__Redis__KeyPrefix: prefix } });
      b = await startTestServer({
        dbType,
        cache: 'Redis',
        reuse: { database: a.t.database, contentRoot: a.t.contentRoot },
        env: { Service__Cache__Redis__KeyPrefix: prefix, Service__Security__RateLimit__Enabled: 'false' },
      });
    });
    afterAll(async () => {
      await b?.stop();
      await a?.close();
    });

    it('rebuild-portal or a grant change on A takes effect on the next request on B', async () => {
      const ids = await moduleIds(a);
      const roleId = (await a.ok('POST', '/api/v1/sys/role', { json: { name: 'so', code: 'so' } })).id;
      await a.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [100] } });
      await a.user('so-user', { roleIds: [roleId] });
      const token = (await login(b, 'so-user', USER_PASSWORD)).accessToken;
      const onB = async (): Promise<Any> => {
        const res = await b.request('/api/v1/personal/modules', { headers: bearer(token) });
        return (await json(res)).data;
      };
      expect((await onB()).modules.map((m: Any) => m.title)).toEqual(['System']);
      // An edit behind the service's back (a migration script, a SQL console) is not seen until a rebuild...
      const renamed = await a.t.server.database.repos.modules.update(
        ids.system as number,
        { title: 'Renamed' },
        { userId: null, at: new Date() },
      );
      expect(renamed).toBe(true);
      expect((await onB()).modules.map((m: Any) => m.title)).toEqual(['System']);
      // ...and a rebuild on A retires B's cached answer at once.
      await a.ok('POST', '/api/v1/sys/cache/rebuild-portal');
      expect((await onB()).modules.map((m: Any) => m.title)).toEqual(['Renamed']);
      // A grant change on A: B's next answer includes business.
      const biz = (
        await a.ok('POST', '/api/v1/sys/menu', {
          json: { type: 'catalog', title: 'Biz', moduleId: ids.business },
        })
      ).id;
      await a.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [100, biz] } });
      expect((await onB()).modules.map((m: Any) => m.code)).toEqual(['system', 'business']);
    });
  });
}

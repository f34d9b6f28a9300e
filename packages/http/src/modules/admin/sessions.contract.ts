/**
 * Online sessions, forced logout, the personal centre and the recycle bin over HTTP: the online list and its
 * filter, forced logout (refresh token `Revoked`, next request 401), own profile, codes, menu tree and
 * sessions, the recycle bin's page, restore (42021 on a unique clash), purge, unknown types (42022), rows not
 * in the bin (42020), a consumer's own type, and the `RecycleBin` module switch.
 */
import { RefreshTokenStatus } from '@svc/data';
import { BusinessError, type DbType } from '@svc/kernel';
import { AdminErrorCode } from '@svc/security';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineModule } from '../../module/define.js';
import { login } from '../../testing/auth.js';
import { startTestServer } from '../../testing/index.js';
import { type AdminHarness, startAdminServer, USER_PASSWORD } from './harness.contract.js';

/** A consumer's soft-deletable type, kept in memory: declared by its module, as an app declares its own tables'. */
const ordersModule = defineModule({
  name: 'Orders',
  services: () => new Map<number, string>([[7, 'order #7']]),
  recycleTypes: (bin) => [
    {
      type: 'order',
      title: 'Orders',
      async page() {
        const items = [...bin].map(([id, title]) => ({
          id,
          title,
          subtitle: null,
          deleteTime: null,
          deleteUserId: null,
        }));
        return { current: 1, size: 20, total: items.length, pages: 1, items };
      },
      async restore(_actor, id) {
        if (!bin.delete(id)) throw new BusinessError(AdminErrorCode.RecycleNotFound);
      },
      async purge(_actor, id) {
        bin.delete(id);
      },
    },
  ],
});

export function defineSessionAdminContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`sessions, personal centre and recycle bin on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache, { modules: [ordersModule] });
    });
    afterAll(() => h?.close());

    it('lists online sessions with the contract’s row shape and a userId filter', async () => {
      const userId = await h.user('online-1');
      await h.loginAs('online-1');
      await h.loginAs('online-1');
      const page = await h.ok('GET', `/api/v1/sys/session/online?userId=${userId}`);
      expect(page.total).toBe(2);
      const row = page.items[0];
      expect(Object.keys(row).sort()).toEqual(
        [
          'account',
          'expiresAt',
          'ip',
          'lastActivityTime',
          'loginTime',
          'sessionId',
          'userAgent',
          'userId',
        ].sort(),
      );
      expect(row).toMatchObject({ userId, account: 'online-1' });
      expect(Date.parse(row.expiresAt)).toBeGreaterThan(Date.now());
      expect((await h.call('GET', '/api/v1/sys/session/online?size=201')).body.code).toBe(48001);
    });

    it('forced logout: the refresh token becomes Revoked, the next request answers 401, the session leaves the list', async () => {
      const userId = await h.user('kicked');
      const session = await login(h.t, 'kicked', USER_PASSWORD);
      const sid = (await h.ok('GET', `/api/v1/sys/session/online?userId=${userId}`)).items[0].sessionId;
      expect((await h.call('GET', '/api/v1/ping', { token: session.accessToken })).status).toBe(200);
      await h.ok('DELETE', `/api/v1/sys/session/${sid}`);
      expect((await h.call('GET', '/api/v1/ping', { token: session.accessToken })).status).toBe(401);
      const { db, tables } = h.t.server.database.database;
      const tokens = await db.select().from(tables.sysRefreshToken);
      expect(tokens.filter((t) => t.sessionId === sid).map((t) => t.status)).toEqual([
        RefreshTokenStatus.Revoked,
      ]);
      const refresh = await h.call('POST', '/api/v1/auth/refresh', {
        token: '',
        json: { refreshToken: session.refreshToken },
      });
      expect(refresh.body.code).toBe(40007);
      expect((await h.ok('GET', `/api/v1/sys/session/online?userId=${userId}`)).total).toBe(0);
      expect((await h.call('DELETE', `/api/v1/sys/session/${sid}`)).body.code).toBe(42024);
      expect((await h.call('DELETE', '/api/v1/sys/session/not-a-session')).body.code).toBe(48000);
    });

    it('personal centre: profile read and written (strict), codes, menu tree, own sessions and kicking one', async () => {
      const orgId = await h.org('personal-dept');
      const roleId = await h.role('personal', ['GET:/api/v1/sys/position/page']);
      const userId = await h.user('me', { orgId, roleIds: [roleId] });
      const first = await h.loginAs('me');
      const second = await h.loginAs('me');
      const profile = await h.ok('GET', '/api/v1/personal/profile', { token: first });
      expect(profile).toMatchObject({
        id: userId,
        account: 'me',
        orgId,
        orgName: 'personal-dept',
        roleIds: [roleId],
      });
      expect(profile.roles).toEqual([{ id: roleId, name: 'personal', code: 'personal' }]);
      await h.ok('PUT', '/api/v1/personal/profile', { token: first, json: { nickName: 'Me' } });
      expect(await h.ok('GET', '/api/v1/personal/profile', { token: first })).toMatchObject({
        nickName: 'Me',
      });
      // The phone is a second factor: only the phone routes change it (contract §10).
      const sneakies = [
        { isSuperAdmin: true },
        { orgId: 1 },
        { enabled: false },
        { account: 'x' },
        { phone: '123' },
      ];
      for (const sneaky of sneakies) {
        expect(
          (await h.call('PUT', '/api/v1/personal/profile', { token: first, json: sneaky })).body.code,
        ).toBe(48000);
      }
      expect(await h.ok('GET', '/api/v1/personal/permissions', { token: first })).toEqual([
        'GET:/api/v1/sys/position/page',
      ]);
      const adminCodes = await h.ok('GET', '/api/v1/personal/permissions');
      expect(adminCodes).toContain('DELETE:/api/v1/sys/user/{id}');

      // The role's button sits at the top level; grant the seed's Positions list button instead to see its menu.
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [501] } });
      const menu = await h.ok('GET', '/api/v1/personal/menu', { token: first });
      expect(menu).toHaveLength(1);
      expect(menu[0]).toMatchObject({ id: 1, type: 'catalog' });
      expect(menu[0].children.map((m: { id: number }) => m.id)).toEqual([500]);
      expect(menu[0].children[0].children).toEqual([]);
      await h.ok('PUT', '/api/v1/sys/menu/1', { json: { enabled: false } });
      expect(await h.ok('GET', '/api/v1/personal/menu', { token: first })).toEqual([]);
      await h.ok('PUT', '/api/v1/sys/menu/1', { json: { enabled: true } });
      const adminMenu = await h.ok('GET', '/api/v1/personal/menu');
      expect(adminMenu.map((m: { id: number }) => m.id)).toEqual(expect.arrayContaining([1, 2]));

      const sessions = await h.ok('GET', '/api/v1/personal/sessions', { token: first });
      expect(sessions).toHaveLength(2);
      const other = sessions.find((s: { current: boolean }) => !s.current);
      expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
      await h.ok('DELETE', `/api/v1/personal/sessions/${other.sessionId}`, { token: first });
      expect((await h.call('GET', '/api/v1/ping', { token: second })).status).toBe(401);
      expect((await h.call('GET', '/api/v1/ping', { token: first })).status).toBe(200);
      const adminSid = (await h.ok('GET', '/api/v1/personal/sessions')).find(
        (s: { current: boolean }) => s.current,
      ).sessionId;
      expect(
        (await h.call('DELETE', `/api/v1/personal/sessions/${adminSid}`, { token: first })).body.code,
      ).toBe(42024);
      expect((await h.call('GET', '/api/v1/ping')).status).toBe(200);
    });

    it('recycle bin: users and roles paged, restored (42021 on a unique clash) and purged; 42020 and 42022', async () => {
      const userId = await h.user('binned');
      await h.ok('DELETE', `/api/v1/sys/user/${userId}`);
      const page = await h.ok('GET', '/api/v1/sys/recycle/user/page');
      expect(page.items.find((i: { id: number }) => i.id === userId)).toMatchObject({
        title: 'binned',
        deleteUserId: h.adminId,
      });
      const usurper = await h.user('BINNED');
      expect((await h.call('POST', `/api/v1/sys/recycle/user/${userId}/restore`)).body).toMatchObject({
        code: 42021,
        args: { field: 'account' },
      });
      await h.ok('DELETE', `/api/v1/sys/user/${usurper}`);
      await h.ok('POST', `/api/v1/sys/recycle/USER/${userId}/restore`);
      expect((await h.ok('GET', `/api/v1/sys/user/${userId}`)).account).toBe('binned');
      await login(h.t, 'binned', USER_PASSWORD);
      expect((await h.call('POST', `/api/v1/sys/recycle/user/${userId}/restore`)).body.code).toBe(42020);
      expect((await h.call('DELETE', `/api/v1/sys/recycle/user/${userId}`)).body.code).toBe(42020);

      await h.ok('DELETE', `/api/v1/sys/recycle/user/${usurper}`);
      expect(
        await h.t.server.database.repos.users.findById(usurper, { includeDeleted: true }),
      ).toBeUndefined();

      const roleId = (await h.ok('POST', '/api/v1/sys/role', { json: { name: 'Temp', code: 'temp' } })).id;
      await h.ok('DELETE', `/api/v1/sys/role/${roleId}`);
      const clash = (await h.ok('POST', '/api/v1/sys/role', { json: { name: 'Temp 2', code: 'TEMP' } })).id;
      expect((await h.call('POST', `/api/v1/sys/recycle/role/${roleId}/restore`)).body).toMatchObject({
        code: 42021,
        args: { field: 'code' },
      });
      await h.ok('DELETE', `/api/v1/sys/role/${clash}`);
      await h.ok('POST', `/api/v1/sys/recycle/role/${roleId}/restore`);
      await h.ok('DELETE', `/api/v1/sys/recycle/role/${clash}`);
      expect(
        (await h.ok('GET', '/api/v1/sys/recycle/role/page')).items.map((i: { id: number }) => i.id),
      ).not.toContain(clash);

      expect((await h.call('GET', '/api/v1/sys/recycle/invoice/page')).body.code).toBe(42022);
      expect((await h.call('POST', '/api/v1/sys/recycle/user/abc/restore')).body.code).toBe(48000);
      expect((await h.call('GET', '/api/v1/sys/recycle/user/page?size=500')).body.code).toBe(48001);
    });

    it('recycle bin: a consumer’s own type is paged, restored and purged through the same routes', async () => {
      expect((await h.ok('GET', '/api/v1/sys/recycle/order/page')).items).toEqual([
        { id: 7, title: 'order #7', subtitle: null, deleteTime: null, deleteUserId: null },
      ]);
      await h.ok('POST', '/api/v1/sys/recycle/order/7/restore');
      expect((await h.ok('GET', '/api/v1/sys/recycle/order/page')).items).toEqual([]);
      expect((await h.call('POST', '/api/v1/sys/recycle/order/7/restore')).body.code).toBe(42020);
    });
  });

  describe(`recycle bin switched off on ${dbType} with ${cache}`, () => {
    it('Service:Api:DisabledModules RecycleBin removes its routes (404) and their contract entries', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        env: { Service__Api__DisabledModules__0: 'RecycleBin' },
      });
      try {
        const token = (await login(t, 'superAdmin', 'Admin#Pass2345')).accessToken;
        const res = await t.request('/api/v1/sys/recycle/user/page', {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(404);
        expect(t.server.routes.routes.some((r) => r.path.includes('/recycle/'))).toBe(false);
        const doc = (await (await t.request('/openapi/v1.json')).json()) as {
          paths: Record<string, unknown>;
        };
        expect(Object.keys(doc.paths).some((p) => p.includes('/recycle/'))).toBe(false);
        expect(Object.keys(doc.paths)).toContain('/api/v1/sys/user/page');
      } finally {
        await t.close();
      }
    });
  });
}

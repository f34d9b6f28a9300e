/**
 * Rank over HTTP: nobody acts above their own. A help-desk role holding the user page and the reset route (and
 * then the other user-action routes) cannot reset, enable/disable, edit, delete, clear the MFA of, force out,
 * or assign roles to a full administrator (41001, nothing changed), nor widen the administrator's role; it still
 * acts on a lesser user. A disabled administrator keeps their rank (cannot be enabled and taken over). Nor can it
 * narrow the administrator's role (rename, disable, strip its grants, narrow its scope, delete, purge) and then
 * take the administrator over, nor change a role held by someone outside its data scope.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../../testing/auth.js';
import { type AdminHarness, startAdminServer, USER_PASSWORD } from './harness.contract.js';

const PAGE = 'GET:/api/v1/sys/user/page';
const RESET = 'PUT:/api/v1/sys/user/{id}/password';
const ACTIONS = [
  PAGE,
  RESET,
  'PUT:/api/v1/sys/user/{id}/enabled',
  'PUT:/api/v1/sys/user/{id}',
  'DELETE:/api/v1/sys/user/{id}',
  'POST:/api/v1/sys/user/batch-delete',
  'POST:/api/v1/sys/mfa/clear',
  'GET:/api/v1/sys/session/online',
  'DELETE:/api/v1/sys/session/{sessionid}',
  'PUT:/api/v1/sys/role/{id}/users',
  'PUT:/api/v1/sys/role/{id}/menus',
  'PUT:/api/v1/sys/role/{id}/datascope',
  'PUT:/api/v1/sys/role/{id}',
  'DELETE:/api/v1/sys/role/{id}',
  'POST:/api/v1/sys/role/batch-delete',
  'DELETE:/api/v1/sys/recycle/{type}/{id}',
  'PUT:/api/v1/sys/menu/{id}',
  'DELETE:/api/v1/sys/menu/{id}',
];
/** What the full administrator holds beyond the help desk. */
const ABOVE = 'DELETE:/api/v1/sys/log/op';

export function defineRankContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`rank: nobody acts above their own on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    let fullRoleId: number;
    let lesserRoleId: number;
    let deskMenuId: number;
    let fullId: number;

    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
      fullRoleId = await h.role('full-admin', [...ACTIONS, ABOVE]);
      lesserRoleId = await h.role('lesser', [PAGE]);
      const deskRoleId = await h.role('desk', ACTIONS, { scopeType: 1 });
      deskMenuId = (await h.ok('GET', `/api/v1/sys/role/${deskRoleId}/menus`)).menuIds[0];
      fullId = await h.user('full-admin', { roleIds: [fullRoleId] });
      await h.user('desk', { roleIds: [deskRoleId] });
      await h.user('narrow-desk', {
        roleIds: [await h.role('narrow-desk', [PAGE, RESET], { scopeType: 1 })],
      });
    });
    afterAll(() => h?.close());

    const passwordStillWorks = async (account: string) =>
      expect((await login(h.t, account, USER_PASSWORD)).accessToken).toBeTruthy();

    it('a role with only the user page and the reset route cannot reset a full administrator, even in a burst', async () => {
      const desk = await h.loginAs('narrow-desk');
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          h.call('PUT', `/api/v1/sys/user/${fullId}/password`, { token: desk }),
        ),
      );
      for (const a of answers) {
        expect(a.status).toBe(403);
        expect(a.body).toMatchObject({ code: 41001 });
        expect(a.body.data?.password).toBeUndefined();
      }
      await passwordStillWorks('full-admin');
      const lesserId = await h.user('lesser-a', { roleIds: [lesserRoleId] });
      const reset = await h.ok('PUT', `/api/v1/sys/user/${lesserId}/password`, { token: desk });
      expect(typeof reset.password).toBe('string');
      expect((await login(h.t, 'lesser-a', reset.password)).accessToken).toBeTruthy();
    });

    it('refuses every action on the full administrator with 41001 and changes nothing', async () => {
      const desk = await h.loginAs('desk');
      const adminToken = await h.loginAs('full-admin');
      const adminSession = (await h.ok('GET', `/api/v1/sys/session/online?userId=${fullId}`)).items[0];
      const attempts: [string, string, unknown][] = [
        ['PUT', `/api/v1/sys/user/${fullId}/password`, undefined],
        ['PUT', `/api/v1/sys/user/${fullId}/enabled`, { enabled: false }],
        ['PUT', `/api/v1/sys/user/${fullId}`, { roleIds: [fullRoleId, lesserRoleId] }],
        ['PUT', `/api/v1/sys/user/${fullId}`, { realName: 'taken over' }],
        ['DELETE', `/api/v1/sys/user/${fullId}`, undefined],
        ['POST', '/api/v1/sys/user/batch-delete', { ids: [fullId] }],
        ['POST', '/api/v1/sys/mfa/clear', { userId: fullId }],
        ['DELETE', `/api/v1/sys/session/${adminSession.sessionId}`, undefined],
        ['PUT', `/api/v1/sys/role/${lesserRoleId}/users`, { userIds: [fullId] }],
        ['PUT', `/api/v1/sys/role/${fullRoleId}/menus`, { menuIds: [deskMenuId] }],
        ['PUT', `/api/v1/sys/role/${fullRoleId}/datascope`, { scopeType: 2 }],
      ];
      for (const [method, path, json] of attempts) {
        const res = await h.call(method, path, { token: desk, json });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.code, `${method} ${path}`).toBe(41001);
      }
      const detail = await h.ok('GET', `/api/v1/sys/user/${fullId}`);
      expect(detail).toMatchObject({ enabled: true, realName: 'full-admin', roleIds: [fullRoleId] });
      expect((await h.call('GET', '/api/v1/ping', { token: adminToken })).status).toBe(200);
      expect((await h.ok('GET', `/api/v1/sys/role/${fullRoleId}/menus`)).menuIds).toHaveLength(1);
      await passwordStillWorks('full-admin');
    });

    it('still acts on a lesser user: reset, disable/enable, edit, roles, MFA clear, forced logout, delete', async () => {
      const desk = await h.loginAs('desk');
      const id = await h.user('lesser-b', { roleIds: [lesserRoleId] });
      const token = await h.loginAs('lesser-b');
      const sid = (await h.ok('GET', `/api/v1/sys/session/online?userId=${id}`, { token: desk })).items[0];
      await h.ok('DELETE', `/api/v1/sys/session/${sid.sessionId}`, { token: desk });
      expect((await h.call('GET', '/api/v1/ping', { token })).status).toBe(401);
      await h.ok('POST', '/api/v1/sys/mfa/clear', { token: desk, json: { userId: id } });
      await h.ok('PUT', `/api/v1/sys/user/${id}/password`, { token: desk });
      await h.ok('PUT', `/api/v1/sys/user/${id}/enabled`, { token: desk, json: { enabled: false } });
      await h.ok('PUT', `/api/v1/sys/user/${id}/enabled`, { token: desk, json: { enabled: true } });
      await h.ok('PUT', `/api/v1/sys/user/${id}`, {
        token: desk,
        json: { realName: 'renamed', roleIds: [] },
      });
      await h.ok('PUT', `/api/v1/sys/role/${lesserRoleId}/users`, { token: desk, json: { userIds: [id] } });
      await h.ok('PUT', `/api/v1/sys/role/${lesserRoleId}/datascope`, {
        token: desk,
        json: { scopeType: 2 },
      });
      await h.ok('PUT', `/api/v1/sys/role/${lesserRoleId}/menus`, {
        token: desk,
        json: { menuIds: [deskMenuId] },
      });
      await h.ok('DELETE', `/api/v1/sys/user/${id}`, { token: desk });
    });

    it('cannot narrow, disable, strip or delete the administrator’s role to take them over (41001)', async () => {
      const desk = await h.loginAs('desk');
      const attempts: [string, string, unknown][] = [
        ['PUT', `/api/v1/sys/role/${fullRoleId}`, { enabled: false }],
        ['PUT', `/api/v1/sys/role/${fullRoleId}`, { name: 'renamed' }],
        ['PUT', `/api/v1/sys/role/${fullRoleId}/menus`, { menuIds: [] }],
        ['PUT', `/api/v1/sys/role/${fullRoleId}/datascope`, { scopeType: 4, customOrgIds: [] }],
        ['DELETE', `/api/v1/sys/role/${fullRoleId}`, undefined],
        ['POST', '/api/v1/sys/role/batch-delete', { ids: [lesserRoleId, fullRoleId] }],
      ];
      for (const [method, path, json] of attempts) {
        const res = await h.call(method, path, { token: desk, json });
        expect([res.status, res.body.code], `${method} ${path} ${JSON.stringify(json)}`).toEqual([
          403, 41001,
        ]);
      }
      // The role's menu is the role's grant: stripping or deleting it is narrowing the role.
      const fullMenuId = (await h.ok('GET', `/api/v1/sys/role/${fullRoleId}/menus`)).menuIds[0];
      for (const [method, json] of [
        ['PUT', { permission: ACTIONS.join(';') }],
        ['PUT', { enabled: false }],
        ['DELETE', undefined],
      ] as const) {
        const res = await h.call(method, `/api/v1/sys/menu/${fullMenuId}`, { token: desk, json });
        expect([res.status, res.body.code], `${method} menu ${JSON.stringify(json)}`).toEqual([403, 41001]);
      }
      const role = await h.ok('GET', `/api/v1/sys/role/${fullRoleId}`);
      expect(role).toMatchObject({ name: 'full-admin', enabled: true, dataScope: 4 });
      expect((await h.ok('GET', `/api/v1/sys/role/${fullRoleId}/menus`)).menuIds.length).toBeGreaterThan(0);
      expect((await h.ok('GET', `/api/v1/sys/role/${lesserRoleId}`)).id).toBe(lesserRoleId);
      // Still out of reach, so its password stays the administrator's.
      expect((await h.call('PUT', `/api/v1/sys/user/${fullId}/password`, { token: desk })).body.code).toBe(
        41001,
      );
      // Deleted by the super admin, the role in the bin cannot be purged by the help desk either.
      const binned = await h.role('binned-full', [...ACTIONS, ABOVE]);
      await h.user('binned-holder', { roleIds: [binned] });
      await h.ok('DELETE', `/api/v1/sys/role/${binned}`);
      expect((await h.call('DELETE', `/api/v1/sys/recycle/role/${binned}`, { token: desk })).body.code).toBe(
        41001,
      );
      await passwordStillWorks('full-admin');
    });

    it('a role held outside the caller’s data scope is not theirs to change (41005), even a lesser one', async () => {
      const unit = await h.org('rank-unit');
      const elsewhere = await h.org('rank-elsewhere');
      const unitDesk = await h.role('unit-desk', ACTIONS, { scopeType: 3 });
      await h.user('unit-desk', { orgId: unit, roleIds: [unitDesk] });
      const held = await h.role('held-elsewhere', [PAGE]);
      await h.user('far-user', { orgId: elsewhere, roleIds: [held] });
      const desk = await h.loginAs('unit-desk');
      const attempts: [string, string, unknown][] = [
        ['PUT', `/api/v1/sys/role/${held}/menus`, { menuIds: [deskMenuId] }],
        ['PUT', `/api/v1/sys/role/${held}`, { enabled: false }],
        ['PUT', `/api/v1/sys/role/${held}/datascope`, { scopeType: 4, customOrgIds: [] }],
        ['DELETE', `/api/v1/sys/role/${held}`, undefined],
      ];
      for (const [method, path, json] of attempts) {
        const res = await h.call(method, path, { token: desk, json });
        expect(res.body.code, `${method} ${path}`).toBe(41005);
      }
      expect(await h.ok('GET', `/api/v1/sys/role/${held}`)).toMatchObject({ enabled: true, dataScope: 4 });
      // The same role held only inside the unit is the unit administrator's to change.
      const inside = await h.role('held-inside', [PAGE]);
      await h.user('near-user', { orgId: unit, roleIds: [inside] });
      await h.ok('PUT', `/api/v1/sys/role/${inside}/menus`, { token: desk, json: { menuIds: [deskMenuId] } });
      await h.ok('PUT', `/api/v1/sys/role/${inside}`, { token: desk, json: { enabled: false } });
    });

    it('a role that sees beyond the caller is not theirs to change, members or not (41005)', async () => {
      const unit = await h.org('sees-unit');
      const far = await h.org('sees-far');
      const unitDesk = await h.role('sees-desk', ACTIONS, { scopeType: 3 });
      await h.user('sees-desk', { orgId: unit, roleIds: [unitDesk] });
      const desk = await h.loginAs('sees-desk');
      // Nobody holds these yet: the head office's role that sees all, and one listing a branch the desk does not see.
      const all = await h.role('sees-all', [PAGE], { scopeType: 1 });
      const listed = await h.role('sees-listed', [PAGE], { scopeType: 5, customOrgIds: [unit, far] });
      for (const role of [all, listed]) {
        const attempts: [string, string, unknown][] = [
          ['PUT', `/api/v1/sys/role/${role}`, { enabled: false }],
          ['PUT', `/api/v1/sys/role/${role}/datascope`, { scopeType: 4, customOrgIds: [] }],
          ['DELETE', `/api/v1/sys/role/${role}`, undefined],
        ];
        for (const [method, path, json] of attempts) {
          const res = await h.call(method, path, { token: desk, json });
          expect(res.body, `${method} ${path}`).toMatchObject({
            code: 41005,
            args: { reason: 'data-scope' },
          });
        }
        expect(await h.ok('GET', `/api/v1/sys/role/${role}`)).toMatchObject({ enabled: true });
      }
      expect(
        (await h.call('PUT', `/api/v1/sys/role/${listed}`, { token: desk, json: { enabled: false } })).body,
      ).toMatchObject({ args: { orgIds: [far] } });
      // A role that lists only the desk's own branch is the desk's to change.
      const own = await h.role('sees-own', [PAGE], { scopeType: 5, customOrgIds: [unit] });
      await h.ok('PUT', `/api/v1/sys/role/${own}`, { token: desk, json: { enabled: false } });
      await h.ok('DELETE', `/api/v1/sys/role/${own}`, { token: desk });
    });

    // Members inside the caller's scope, yet the widened scope reaches past it: Org-and-children follows each
    // member's subtree, which a caller seeing only the member's own organisation does not see whole.
    it('cannot widen a role beyond their scope through its members’ subtrees (41005 naming the organisations)', async () => {
      const unit = await h.org('widen-unit');
      const child = await h.org('widen-child', unit);
      const caller = await h.role('widen-caller', [PAGE, 'PUT:/api/v1/sys/role/{id}/datascope'], {
        scopeType: 5,
        customOrgIds: [unit],
      });
      await h.user('widen-caller', { orgId: unit, roleIds: [caller] });
      const target = await h.role('widen-target', [PAGE]);
      await h.user('widen-member', { orgId: unit, roleIds: [target] });
      const token = await h.loginAs('widen-caller');
      const path = `/api/v1/sys/role/${target}/datascope`;
      const wide = await h.call('PUT', path, { token, json: { scopeType: 3, customOrgIds: [] } });
      expect(wide.body).toMatchObject({ code: 41005, args: { reason: 'data-scope', orgIds: [child] } });
      expect((await h.ok('GET', path)).scopeType).toBe(4);
      // The member's own organisation is within it.
      await h.ok('PUT', path, { token, json: { scopeType: 2, customOrgIds: [] } });
    });

    it('an administrator cannot lift the second factor their superior required of them (42029)', async () => {
      const id = await h.user('forced-desk', {
        roleIds: [await h.role('forced-desk', ACTIONS, { scopeType: 1 })],
      });
      await h.ok('PUT', `/api/v1/sys/user/${id}`, { json: { realName: 'forced-desk', forceTotp: true } });
      const token = await h.loginAs('forced-desk');
      const lift = await h.call('PUT', `/api/v1/sys/user/${id}`, { token, json: { forceTotp: false } });
      expect(lift.body).toMatchObject({ code: 42029, args: { field: 'forceTotp' } });
      expect((await h.ok('GET', `/api/v1/sys/user/${id}`)).forceTotp).toBe(true);
      // Their other fields stay theirs to edit, the flag sent as it is included; so is requiring it of themselves.
      const own = await h.user('self-forcing', {
        roleIds: [await h.role('self-forcing', ACTIONS, { scopeType: 1 })],
      });
      const ownToken = await h.loginAs('self-forcing');
      await h.ok('PUT', `/api/v1/sys/user/${own}`, { token: ownToken, json: { forceTotp: true } });
      expect((await h.ok('GET', `/api/v1/sys/user/${own}`)).forceTotp).toBe(true);
      await h.ok('PUT', `/api/v1/sys/user/${id}`, { token, json: { realName: 'Desk', forceTotp: true } });
    });

    it('a disabled administrator keeps their rank: the help desk cannot enable them', async () => {
      const desk = await h.loginAs('desk');
      const id = await h.user('full-disabled', { roleIds: [fullRoleId] });
      await h.ok('PUT', `/api/v1/sys/user/${id}/enabled`, { json: { enabled: false } });
      const enable = await h.call('PUT', `/api/v1/sys/user/${id}/enabled`, {
        token: desk,
        json: { enabled: true },
      });
      expect(enable.body.code).toBe(41001);
      expect((await h.ok('GET', `/api/v1/sys/user/${id}`)).enabled).toBe(false);
    });
  });
}

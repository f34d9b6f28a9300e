/**
 * A role held by 70,000 users over HTTP on one dialect (past SQLite's 32,766 and PostgreSQL's 65,534 bound
 * parameters): its member list; switching it off and on and changing its data scope as the super admin (both
 * read every member's organisation); a notice with an acting POST action published to it by a deputy, whose rank
 * is checked against every receiver; a rename by a manager whose scope is an organisation tree (the rank check
 * covers every member); and emptying it. Each answered 500 on SQLite and PostgreSQL before id lists were read and
 * written in chunks.
 */

import { splitPermissionCodes } from '@svc/data';
import { insertUsersInBulk } from '@svc/data/testing';
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import {
  grantPermissions,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';

/** Members of the role: more than any tested dialect binds in one statement. */
const MEMBERS = 70_000;

export function defineLargeRoleContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`a role held by ${MEMBERS} users on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    let roleId: number;
    let members: number[];

    beforeAll(async () => {
      t = await startTestServer({ dbType, cache, env: { Service__Security__RateLimit__Enabled: 'false' } });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      const created = await json(
        await t.request('/api/v1/sys/role', { json: { name: 'Crowd', code: 'crowd' }, headers: admin }),
      );
      expect(created.code, JSON.stringify(created)).toBe(0);
      roleId = created.data.id;
      members = await insertUsersInBulk(t.server.database.database, {
        count: MEMBERS,
        prefix: 'crowd-',
        roleIds: [roleId],
      });
    });
    afterAll(() => t?.close());

    const put = async (path: string, body: unknown) =>
      json(await t.request(path, { method: 'PUT', json: body, headers: admin }));

    it('lists every member', async () => {
      const res = await json(await t.request(`/api/v1/sys/role/${roleId}/users`, { headers: admin }));
      expect(res.code, JSON.stringify(res).slice(0, 300)).toBe(0);
      expect(res.data.userIds).toEqual(members);
    });

    it('is switched off and on again and gets a narrower data scope', async () => {
      expect((await put(`/api/v1/sys/role/${roleId}`, { enabled: false })).code).toBe(0);
      // Switching it back on checks the scope every member would regain.
      expect((await put(`/api/v1/sys/role/${roleId}`, { enabled: true })).code).toBe(0);
      // A new scope is checked against every member's organisation.
      expect(
        (await put(`/api/v1/sys/role/${roleId}/datascope`, { scopeType: 2, customOrgIds: [] })).code,
      ).toBe(0);
      const scope = await json(await t.request(`/api/v1/sys/role/${roleId}/datascope`, { headers: admin }));
      expect(scope.data).toEqual({ scopeType: 2, customOrgIds: [] });
    });

    it('receives a notice with an acting action from a deputy who outranks every member', async () => {
      await grantPermissions(t, {
        account: 'crowd_deputy',
        permissions: ['POST:/api/v1/sys/notice', 'POST:/api/v1/sys/recycle/{type}/{id}/restore'],
      });
      const deputy = bearer((await login(t, 'crowd_deputy', TEST_USER_PASSWORD)).accessToken);
      const res = await json(
        await t.request('/api/v1/sys/notice', {
          json: {
            title: 'Restore this',
            type: 1,
            receiverType: 1,
            receiverIds: [roleId],
            actions: [{ label: 'Restore', method: 'POST', url: '/api/v1/sys/recycle/user/5/restore' }],
          },
          headers: deputy,
        }),
      );
      expect(res.code, JSON.stringify(res).slice(0, 300)).toBe(0);
      const receivers = await t.server.database.repos.notices.receiverIds(res.data.id);
      expect(receivers.sort((a, b) => a - b)).toEqual(members);
    });

    it('is renamed by a manager who sees the organisation tree and outranks every member', async () => {
      // The role follows each member's organisation and its children; the manager sees the root's tree but not
      // "all", so every member's reach is checked against theirs, one tree for all 70,000.
      expect(
        (await put(`/api/v1/sys/role/${roleId}/datascope`, { scopeType: 3, customOrgIds: [] })).code,
      ).toBe(0);
      const managerId = await grantPermissions(t, {
        account: 'crowd_manager',
        permissions: ['PUT:/api/v1/sys/role/{id}'],
      });
      const repos = t.server.database.repos;
      const [managerRole] = (await repos.users.roleIdsOf([managerId])).get(managerId) ?? [];
      await repos.roles.setDataScope(managerRole as number, 3, [], { userId: null, at: new Date() });
      const manager = bearer((await login(t, 'crowd_manager', TEST_USER_PASSWORD)).accessToken);
      const res = await json(
        await t.request(`/api/v1/sys/role/${roleId}`, {
          method: 'PUT',
          json: { name: 'Crowd renamed' },
          headers: manager,
        }),
      );
      expect(res.code, JSON.stringify(res).slice(0, 300)).toBe(0);
      expect((await repos.roles.findById(roleId))?.name).toBe('Crowd renamed');
    });

    it('is emptied by a member list that names nobody, and its former members lose its codes at once', async () => {
      // The role grants a menu; a member's codes are cached with it before the role is emptied.
      const menu = (await t.server.database.repos.menus.findByIds([1401]))[0];
      expect(menu?.permission).toBeTruthy();
      expect((await put(`/api/v1/sys/role/${roleId}/menus`, { menuIds: [1401] })).code).toBe(0);
      const permissions = t.server.deps.core.permissions;
      const member = members[members.length - 1] as number;
      const code = splitPermissionCodes(menu?.permission)[0] as string;
      expect((await permissions.codesOf(member)).has(code)).toBe(true);

      const oneByOne = vi.spyOn(permissions, 'invalidateUser');
      try {
        expect((await put(`/api/v1/sys/role/${roleId}/users`, { userIds: [] })).code).toBe(0);
        // One generation bump, not a cache round trip for each of the 70,000 (~10 s on Redis).
        expect(oneByOne.mock.calls.length).toBeLessThanOrEqual(200);
      } finally {
        oneByOne.mockRestore();
      }
      const res = await json(await t.request(`/api/v1/sys/role/${roleId}/users`, { headers: admin }));
      expect(res.data.userIds).toEqual([]);
      expect((await permissions.codesOf(member)).has(code)).toBe(false);
    });
  });
}

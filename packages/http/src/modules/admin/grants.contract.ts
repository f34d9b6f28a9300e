/**
 * Grants over HTTP: the permission matrix of the administration routes (a user holding every code but one is
 * refused exactly that route), grants taking effect on the very next request (menu grants, role state, role
 * membership, user roles, menu edits), and escalation attempts by an administrator who is not the super admin
 * (granting codes they lack, assigning roles that carry them, editing a granted menu, widening a data scope,
 * touching the super admin, deleting or disabling themselves).
 */
import { defaultSeedMenus, seedPermissionCodes } from '@svc/data';
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminHarness, ROOT_ORG_ID, startAdminServer } from './harness.contract.js';

/** The administration area's permission routes, as the live route table lists them. */
const ADMIN_AREA = /^\/api\/v1\/(sys\/(user|role|menu|org|position|session|recycle)(\/|$)|menu\/routes$)/i;

/** A request that reaches the route (values that pass the guards; the handler may still refuse them). */
function concrete(path: string): string {
  return path
    .replace('{id}', '999999')
    .replace('{sessionId}', '01890000-0000-7000-8000-000000000000')
    .replace('{type}', 'user');
}

export function defineGrantContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`grants and escalation on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
    });
    afterAll(() => h?.close());

    // ~40² requests: a minute is ample even on a busy machine with a server database.
    it('permission matrix: holding every code but one refuses exactly that route (41001, HTTP 403)', {
      timeout: 120_000,
    }, async () => {
      const routes = h.t.server.routes.permissionRoutes().filter((r) => ADMIN_AREA.test(r.path));
      // Every administration code of the seed is a permission route here (a route that lost its marker fails).
      const seeded = seedPermissionCodes(defaultSeedMenus).filter((code) =>
        ADMIN_AREA.test(code.slice(code.indexOf(':') + 1)),
      );
      expect(routes.map((r) => r.permissionCode).sort()).toEqual(seeded.sort());
      // One button per code, all granted to one role, so each code can be switched off on its own.
      const roleId = await h.role('matrix', []);
      const buttons = new Map<string, number>();
      for (const r of routes) {
        const code = r.permissionCode as string;
        const menu = await h.ok('POST', '/api/v1/sys/menu', {
          json: { parentId: 0, type: 'button', title: `m ${code}`, permission: code },
        });
        buttons.set(code, menu.id);
      }
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [...buttons.values()] } });
      await h.user('matrix-user', { roleIds: [roleId] });
      const token = await h.loginAs('matrix-user');
      const attempt = async (r: (typeof routes)[number]) => {
        const json = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
        return (await h.call(r.method, concrete(r.path), { token, json })).status;
      };

      for (const r of routes) expect(await attempt(r), `${r.method} ${r.path} with every code`).not.toBe(403);
      // Restoring or purging a user in the bin also asks the code of the user delete (the type's own delete).
      const binWrites = routes.filter((r) => /^\/api\/v1\/sys\/recycle\/\{type\}\/\{id\}/.test(r.path));
      expect(binWrites.map((r) => r.method).sort()).toEqual(['DELETE', 'POST']);
      const alsoRefused = (code: string) => (code === 'DELETE:/api/v1/sys/user/{id}' ? binWrites : []);
      for (const refused of routes) {
        const code = refused.permissionCode as string;
        await h.ok('PUT', `/api/v1/sys/menu/${buttons.get(code)}`, { json: { enabled: false } });
        const statuses = await Promise.all(routes.map(attempt));
        routes.forEach((r, i) => {
          if (r === refused) expect(statuses[i], `${r.method} ${r.path} without its code`).toBe(403);
          else if (alsoRefused(code).includes(r))
            expect(statuses[i], `${r.method} ${r.path} without the user delete`).toBe(403);
          else expect(statuses[i], `${r.method} ${r.path} while only ${code} is missing`).not.toBe(403);
        });
        await h.ok('PUT', `/api/v1/sys/menu/${buttons.get(code)}`, { json: { enabled: true } });
      }
      const denied = await h.call('GET', '/api/v1/sys/user/page', { token: await h.loginAs('matrix-user') });
      expect(denied.status).toBe(200);
    });

    it("answers a role's grants of live menus only, and keeps those of a menu in the recycle bin for its restore", async () => {
      const roleId = await h.role('grants-of-deleted', []);
      const menu = async (title: string) =>
        (await h.ok('POST', '/api/v1/sys/menu', { json: { parentId: 0, type: 'catalog', title } }))
          .id as number;
      const kept = await menu('grants-kept');
      const binned = await menu('grants-binned');
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [kept, binned] } });
      await h.ok('DELETE', `/api/v1/sys/menu/${binned}`);
      const shown = (await h.ok('GET', `/api/v1/sys/role/${roleId}/menus`)).menuIds;
      expect(shown).toEqual([kept]);
      // What the form was shown saves as it is.
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: shown } });
      await h.ok('POST', `/api/v1/sys/recycle/menu/${binned}/restore`);
      expect((await h.ok('GET', `/api/v1/sys/role/${roleId}/menus`)).menuIds.sort()).toEqual(
        [kept, binned].sort(),
      );
      // A grant of a menu that is gone altogether (purged before purges took grants along) is dropped by a save.
      const roles = h.t.server.database.repos.roles;
      await roles.setMenus(roleId, [kept, binned, 987_654_321]);
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [kept] } });
      expect(await roles.menuIdsOf(roleId)).toEqual([kept]);
    });

    it('grants apply on the next request: role menus, role enabled, role deleted and restored, membership, user roles, menu edits', async () => {
      const code = 'GET:/api/v1/sys/position/page';
      const roleId = await h.role('next-request', []);
      const menuId = (
        await h.ok('POST', '/api/v1/sys/menu', {
          json: { parentId: 0, type: 'button', title: 'pos', permission: code },
        })
      ).id;
      const userId = await h.user('next-user', { roleIds: [roleId] });
      const token = await h.loginAs('next-user');
      const status = async () => (await h.call('GET', '/api/v1/sys/position/page', { token })).status;

      expect(await status()).toBe(403);
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [menuId] } });
      expect(await status()).toBe(200);
      await h.ok('PUT', `/api/v1/sys/role/${roleId}`, { json: { enabled: false } });
      expect(await status()).toBe(403);
      await h.ok('PUT', `/api/v1/sys/role/${roleId}`, { json: { enabled: true } });
      expect(await status()).toBe(200);
      await h.ok('DELETE', `/api/v1/sys/role/${roleId}`);
      expect(await status()).toBe(403);
      await h.ok('POST', `/api/v1/sys/recycle/role/${roleId}/restore`);
      expect(await status()).toBe(200);
      await h.ok('PUT', `/api/v1/sys/user/${userId}`, { json: { roleIds: [] } });
      expect(await status()).toBe(403);
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/users`, { json: { userIds: [userId] } });
      expect(await status()).toBe(200);
      await h.ok('PUT', `/api/v1/sys/role/${roleId}/users`, { json: { userIds: [] } });
      expect(await status()).toBe(403);
      await h.ok('PUT', `/api/v1/sys/user/${userId}`, { json: { roleIds: [roleId] } });
      expect(await status()).toBe(200);
      // Codes are normalised on save: a lower-case method with an upper-case path still names the route.
      await h.ok('PUT', `/api/v1/sys/menu/${menuId}`, { json: { permission: ' get:/API/v1/sys/ORG/list ' } });
      expect(await status()).toBe(403);
      expect((await h.call('GET', '/api/v1/sys/org/list', { token })).status).toBe(200);
      await h.ok('PUT', `/api/v1/sys/menu/${menuId}`, { json: { permission: code } });
      expect(await status()).toBe(200);
      await h.ok('PUT', `/api/v1/sys/menu/${menuId}`, { json: { enabled: false } });
      expect(await status()).toBe(403);
      await h.ok('PUT', `/api/v1/sys/menu/${menuId}`, { json: { enabled: true } });
      expect(await status()).toBe(200);
      await h.ok('DELETE', `/api/v1/sys/menu/${menuId}`);
      expect(await status()).toBe(403);
    });

    describe('escalation by an administrator who is not the super admin', () => {
      const HELD = [
        'GET:/api/v1/sys/user/page',
        'GET:/api/v1/sys/user/{id}',
        'POST:/api/v1/sys/user',
        'PUT:/api/v1/sys/user/{id}',
        'DELETE:/api/v1/sys/user/{id}',
        'PUT:/api/v1/sys/user/{id}/password',
        'PUT:/api/v1/sys/user/{id}/enabled',
        'POST:/api/v1/sys/user/batch-delete',
        'GET:/api/v1/sys/role/page',
        'POST:/api/v1/sys/role',
        'PUT:/api/v1/sys/role/{id}',
        'PUT:/api/v1/sys/role/{id}/menus',
        'PUT:/api/v1/sys/role/{id}/users',
        'PUT:/api/v1/sys/role/{id}/datascope',
        'POST:/api/v1/sys/menu',
        'PUT:/api/v1/sys/menu/{id}',
        'GET:/api/v1/sys/session/online',
        'DELETE:/api/v1/sys/session/{sessionid}',
        'POST:/api/v1/sys/recycle/{type}/{id}/restore',
        // Restoring a role or a user undoes their delete: the bin asks for those codes too.
        'DELETE:/api/v1/sys/role/{id}',
        'DELETE:/api/v1/sys/user/{id}',
        'POST:/api/v1/sys/org',
        'PUT:/api/v1/sys/org/{id}',
        'POST:/api/v1/sys/org/{id}/copy',
        'DELETE:/api/v1/sys/org/{id}',
        'DELETE:/api/v1/sys/recycle/{type}/{id}',
      ];
      const LACKING = 'DELETE:/api/v1/sys/log/op';
      let sub: string;
      let subId: number;
      let subRoleId: number;
      let subMenuId: number;
      let strongRoleId: number;
      let strongMenuId: number;
      let plainRoleId: number;
      let plainMenuId: number;
      let targetId: number;

      beforeAll(async () => {
        const deptId = await h.org('escalation-dept');
        subRoleId = await h.role('sub-admin', HELD, { scopeType: 3 });
        subMenuId = (await h.ok('GET', `/api/v1/sys/role/${subRoleId}/menus`)).menuIds[0];
        subId = await h.user('sub-admin', { orgId: deptId, roleIds: [subRoleId] });
        sub = await h.loginAs('sub-admin');
        strongRoleId = await h.role('strong', [LACKING]);
        strongMenuId = (await h.ok('GET', `/api/v1/sys/role/${strongRoleId}/menus`)).menuIds[0];
        plainRoleId = await h.role('plain', ['GET:/api/v1/sys/user/page']);
        plainMenuId = (await h.ok('GET', `/api/v1/sys/role/${plainRoleId}/menus`)).menuIds[0];
        targetId = await h.user('esc-target', { orgId: deptId });
      });

      it('cannot grant a menu carrying a code they lack (41001 naming it), can grant one they hold', async () => {
        const refused = await h.call('PUT', `/api/v1/sys/role/${plainRoleId}/menus`, {
          token: sub,
          json: { menuIds: [plainMenuId, strongMenuId] },
        });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: 41001, args: { codes: [LACKING] } });
        expect(await h.ok('GET', `/api/v1/sys/role/${plainRoleId}/menus`)).toEqual({
          menuIds: [plainMenuId],
        });
        await h.ok('PUT', `/api/v1/sys/role/${plainRoleId}/menus`, {
          token: sub,
          json: { menuIds: [plainMenuId] },
        });
      });

      it('cannot assign a role carrying such a code: user create, user update, role members', async () => {
        const create = await h.call('POST', '/api/v1/sys/user', {
          token: sub,
          json: {
            account: 'esc-new',
            realName: 'x',
            orgId: (await h.ok('GET', `/api/v1/sys/user/${subId}`)).orgId,
            roleIds: [strongRoleId],
          },
        });
        expect(create.body.code).toBe(41001);
        const update = await h.call('PUT', `/api/v1/sys/user/${targetId}`, {
          token: sub,
          json: { roleIds: [strongRoleId] },
        });
        expect(update.body.code).toBe(41001);
        const own = await h.call('PUT', `/api/v1/sys/user/${subId}`, {
          token: sub,
          json: { roleIds: [subRoleId, strongRoleId] },
        });
        expect(own.body.code).toBe(41001);
        const members = await h.call('PUT', `/api/v1/sys/role/${strongRoleId}/users`, {
          token: sub,
          json: { userIds: [subId] },
        });
        expect(members.body.code).toBe(41001);
        expect((await h.ok('GET', `/api/v1/sys/user/${subId}`)).roleIds).toEqual([subRoleId]);
        await h.ok('PUT', `/api/v1/sys/user/${targetId}`, { token: sub, json: { roleIds: [plainRoleId] } });
      });

      it('cannot add a code they lack to a menu (their own grant), nor re-enable a role carrying one', async () => {
        const edit = await h.call('PUT', `/api/v1/sys/menu/${subMenuId}`, {
          token: sub,
          json: { permission: [...HELD, LACKING].join(';') },
        });
        expect(edit.body).toMatchObject({ code: 41001, args: { codes: [LACKING] } });
        expect((await h.call('DELETE', '/api/v1/sys/log/op', { token: sub })).status).toBe(403);
        await h.ok('PUT', `/api/v1/sys/role/${strongRoleId}`, { json: { enabled: false } });
        const enable = await h.call('PUT', `/api/v1/sys/role/${strongRoleId}`, {
          token: sub,
          json: { enabled: true },
        });
        expect(enable.body.code).toBe(41001);
        await h.ok('PUT', `/api/v1/sys/role/${strongRoleId}`, { json: { enabled: true } });
      });

      it('cannot widen a data scope beyond their own (41005)', async () => {
        const all = await h.call('PUT', `/api/v1/sys/role/${plainRoleId}/datascope`, {
          token: sub,
          json: { scopeType: 1 },
        });
        expect(all.body.code).toBe(41005);
        const outside = await h.call('PUT', `/api/v1/sys/role/${plainRoleId}/datascope`, {
          token: sub,
          json: { scopeType: 5, customOrgIds: [ROOT_ORG_ID] },
        });
        expect(outside.body.code).toBe(41005);
        await h.ok('PUT', `/api/v1/sys/role/${plainRoleId}/datascope`, {
          token: sub,
          json: { scopeType: 2 },
        });
      });

      // A role's data scope travels with it: handing one out (or widening one someone holds) must not let its
      // holder see organisations the caller does not, whatever its codes (codes alone once let this through).
      it('cannot hand out a role that sees beyond their own scope (41005): create, update, members, enabling, scope change, restore', async () => {
        const deptId = (await h.ok('GET', `/api/v1/sys/user/${subId}`)).orgId;
        const outsideOrg = await h.org('esc-outside');
        const view = ['GET:/api/v1/sys/user/page'];
        const wideRoleId = await h.role('esc-wide', view, { scopeType: 1 });
        const customRoleId = await h.role('esc-custom', view, { scopeType: 5, customOrgIds: [outsideOrg] });
        const refusedScope = { code: 41005, args: { reason: 'data-scope' } };
        for (const roleIds of [[wideRoleId], [plainRoleId, customRoleId]]) {
          const create = await h.call('POST', '/api/v1/sys/user', {
            token: sub,
            json: { account: `esc-mole-${roleIds.length}`, realName: 'x', orgId: deptId, roleIds },
          });
          expect(create.body, `create with ${roleIds}`).toMatchObject(refusedScope);
          const update = await h.call('PUT', `/api/v1/sys/user/${targetId}`, {
            token: sub,
            json: { roleIds },
          });
          expect(update.body, `update with ${roleIds}`).toMatchObject(refusedScope);
        }
        const members = await h.call('PUT', `/api/v1/sys/role/${wideRoleId}/users`, {
          token: sub,
          json: { userIds: [targetId] },
        });
        expect(members.body).toMatchObject(refusedScope);
        expect((await h.ok('GET', `/api/v1/sys/user/${targetId}`)).roleIds).toEqual([plainRoleId]);
        expect(
          (await h.ok('GET', '/api/v1/sys/user/page?pageSize=100')).items.some((u: { account: string }) =>
            u.account.startsWith('esc-mole'),
          ),
        ).toBe(false);

        // Enabling a role someone holds gives them its scope again; so does restoring it.
        const heldId = await h.user('esc-holder', { orgId: deptId, roleIds: [wideRoleId] });
        await h.ok('PUT', `/api/v1/sys/role/${wideRoleId}`, { json: { enabled: false } });
        const enable = await h.call('PUT', `/api/v1/sys/role/${wideRoleId}`, {
          token: sub,
          json: { enabled: true },
        });
        expect(enable.body).toMatchObject(refusedScope);
        await h.ok('PUT', `/api/v1/sys/role/${wideRoleId}`, { json: { enabled: true } });
        await h.ok('DELETE', `/api/v1/sys/role/${wideRoleId}`);
        const restore = await h.call('POST', `/api/v1/sys/recycle/role/${wideRoleId}/restore`, {
          token: sub,
        });
        expect(restore.body).toMatchObject(refusedScope);
        await h.ok('POST', `/api/v1/sys/recycle/role/${wideRoleId}/restore`);
        // Acting on someone who holds a wide role is acting as them: a password reset, an edit, a disable.
        for (const [method, path, json] of [
          ['PUT', `/api/v1/sys/user/${heldId}/password`, undefined],
          ['PUT', `/api/v1/sys/user/${heldId}`, { realName: 'taken over' }],
          ['PUT', `/api/v1/sys/user/${heldId}/enabled`, { enabled: false }],
        ] as const) {
          const res = await h.call(method, path, { token: sub, json });
          expect(res.body, `${method} ${path}`).toMatchObject(refusedScope);
        }
        expect((await h.ok('GET', `/api/v1/sys/user/${heldId}`)).realName).not.toBe('taken over');
        // A user deleted with a wide role comes back with it.
        await h.ok('DELETE', `/api/v1/sys/user/${heldId}`);
        const back = await h.call('POST', `/api/v1/sys/recycle/user/${heldId}/restore`, { token: sub });
        expect(back.body).toMatchObject(refusedScope);

        // Org scopes follow each member's organisation: a member outside makes the change reach outside, and a
        // role held outside the caller's scope is not theirs to change at all (the member is named).
        const orgRoleId = await h.role('esc-org', view, { scopeType: 4 });
        const outsiderId = await h.user('esc-outsider', { orgId: outsideOrg, roleIds: [orgRoleId] });
        const widen = await h.call('PUT', `/api/v1/sys/role/${orgRoleId}/datascope`, {
          token: sub,
          json: { scopeType: 2 },
        });
        expect(widen.body).toMatchObject({ ...refusedScope, args: { ids: [outsiderId] } });
        expect((await h.ok('GET', `/api/v1/sys/role/${orgRoleId}/datascope`)).scopeType).toBe(4);

        // Within the caller's scope the same paths work: an Org role given to a user of their own department.
        const inside = await h.role('esc-inside', view, { scopeType: 2 });
        await h.ok('PUT', `/api/v1/sys/user/${targetId}`, {
          token: sub,
          json: { roleIds: [plainRoleId, inside] },
        });
        await h.ok('PUT', `/api/v1/sys/user/${targetId}`, { token: sub, json: { roleIds: [plainRoleId] } });
      });

      it('writes only organisations in their scope: create under (41005), rename, disable, copy, delete (as missing, 42003), restore (41005)', async () => {
        const deptId = (await h.ok('GET', `/api/v1/sys/user/${subId}`)).orgId;
        const far = await h.org('org-far');
        const farChild = await h.org('org-far-child', far);
        const refused = { code: 41005, args: { reason: 'data-scope' } };
        // The organisation written is one the caller does not see: it answers as a missing one (contract §11).
        const missing = { code: 42003 };
        for (const [method, path, json, answer] of [
          ['POST', '/api/v1/sys/org', { parentId: far, name: 'planted', code: 'planted' }, refused],
          ['POST', '/api/v1/sys/org', { parentId: 0, name: 'top', code: 'top-planted' }, refused],
          ['PUT', `/api/v1/sys/org/${far}`, { name: 'renamed' }, missing],
          ['PUT', `/api/v1/sys/org/${farChild}`, { enabled: false }, missing],
          ['PUT', `/api/v1/sys/org/${ROOT_ORG_ID}`, { name: 'renamed root' }, missing],
          ['POST', `/api/v1/sys/org/${farChild}/copy`, {}, missing],
          ['DELETE', `/api/v1/sys/org/${farChild}`, undefined, missing],
        ] as const) {
          const res = await h.call(method, path, { token: sub, json });
          expect(res.body, `${method} ${path}`).toMatchObject(answer);
        }
        expect(await h.ok('GET', `/api/v1/sys/org/${far}`)).toMatchObject({ name: 'org-far' });
        expect(await h.ok('GET', `/api/v1/sys/org/${farChild}`)).toMatchObject({ enabled: true });
        // Deleted by the super admin, it comes back only by someone who sees its parent.
        await h.ok('DELETE', `/api/v1/sys/org/${farChild}`);
        const restore = `/api/v1/sys/recycle/org/${farChild}/restore`;
        expect((await h.call('POST', restore, { token: sub })).body).toMatchObject(refused);
        expect(
          (await h.call('DELETE', `/api/v1/sys/recycle/org/${farChild}`, { token: sub })).body,
        ).toMatchObject(refused);
        await h.ok('POST', restore);
        // Inside their own tree the same writes work.
        const mine = await h.ok('POST', '/api/v1/sys/org', {
          token: sub,
          json: { parentId: deptId, name: 'own-child', code: 'own-child' },
        });
        await h.ok('PUT', `/api/v1/sys/org/${mine.id}`, { token: sub, json: { name: 'own-renamed' } });
      });

      it('cannot move an organisation they do not see into their tree (as missing, 42003); moves within it work', async () => {
        const deptId = (await h.ok('GET', `/api/v1/sys/user/${subId}`)).orgId;
        const foreign = await h.org('esc-foreign');
        await h.user('esc-foreigner', { orgId: foreign });
        const pull = await h.call('PUT', `/api/v1/sys/org/${foreign}`, {
          token: sub,
          json: { parentId: deptId },
        });
        expect(pull.body).toMatchObject({ code: 42003 });
        expect((await h.ok('GET', `/api/v1/sys/org/${foreign}`)).parentId).not.toBe(deptId);
        const page = await h.call('GET', '/api/v1/sys/user/page?account=esc-foreigner', { token: sub });
        expect(page.body.data.total).toBe(0);
        // Within their own tree a move is theirs to make.
        const a = (
          await h.call('POST', '/api/v1/sys/org', {
            token: sub,
            json: { parentId: deptId, name: 'esc-a', code: 'esc-a' },
          })
        ).body.data.id;
        const b = (
          await h.call('POST', '/api/v1/sys/org', {
            token: sub,
            json: { parentId: deptId, name: 'esc-b', code: 'esc-b' },
          })
        ).body.data.id;
        await h.ok('PUT', `/api/v1/sys/org/${b}`, { token: sub, json: { parentId: a } });
      });

      it('cannot move a user whose Org-and-children role then reaches beyond a custom scope (41005)', async () => {
        // A second administrator who sees exactly two organisations: a leaf and a parent, not the parent's child.
        const leaf = await h.org('esc-leaf');
        const parent = await h.org('esc-parent');
        await h.org('esc-child', parent);
        const customAdminRole = await h.role('esc-custom-admin', HELD, {
          scopeType: 5,
          customOrgIds: [leaf, parent],
        });
        await h.user('esc-custom-admin', { orgId: leaf, roleIds: [customAdminRole] });
        const admin2 = await h.loginAs('esc-custom-admin');
        const treeRole = await h.role('esc-tree', ['GET:/api/v1/sys/user/page'], { scopeType: 3 });
        const movedId = await h.user('esc-moved', { orgId: leaf, roleIds: [treeRole] });
        const move = await h.call('PUT', `/api/v1/sys/user/${movedId}`, {
          token: admin2,
          json: { orgId: parent },
        });
        expect(move.body).toMatchObject({ code: 41005, args: { reason: 'data-scope' } });
        expect((await h.ok('GET', `/api/v1/sys/user/${movedId}`)).orgId).toBe(leaf);
        // Without the role the same move is within the scope.
        await h.ok('PUT', `/api/v1/sys/user/${movedId}`, { json: { roleIds: [] } });
        await h.ok('PUT', `/api/v1/sys/user/${movedId}`, { token: admin2, json: { orgId: parent } });
      });

      it('cannot touch the super admin (42007) even with an All scope, nor delete or disable themselves (42029)', async () => {
        await h.ok('PUT', `/api/v1/sys/role/${subRoleId}/datascope`, { json: { scopeType: 1 } });
        for (const [method, path, json] of [
          ['PUT', `/api/v1/sys/user/${h.adminId}`, { realName: 'pwned' }],
          ['PUT', `/api/v1/sys/user/${h.adminId}/password`, undefined],
          ['PUT', `/api/v1/sys/user/${h.adminId}/enabled`, { enabled: false }],
          ['DELETE', `/api/v1/sys/user/${h.adminId}`, undefined],
          ['POST', '/api/v1/sys/user/batch-delete', { ids: [targetId, h.adminId] }],
        ] as const) {
          const res = await h.call(method, path, { token: sub, json });
          expect(res.body.code, `${method} ${path}`).toBe(42007);
        }
        const adminSession = (await h.ok('GET', `/api/v1/sys/session/online?userId=${h.adminId}`)).items[0];
        const kick = await h.call('DELETE', `/api/v1/sys/session/${adminSession.sessionId}`, { token: sub });
        expect(kick.body.code).toBe(42007);
        expect((await h.call('GET', '/api/v1/ping')).status).toBe(200);
        expect((await h.ok('GET', `/api/v1/sys/user/${h.adminId}`)).realName).not.toBe('pwned');
        expect((await h.call('DELETE', `/api/v1/sys/user/${subId}`, { token: sub })).body.code).toBe(42029);
        expect(
          (await h.call('PUT', `/api/v1/sys/user/${subId}/enabled`, { token: sub, json: { enabled: false } }))
            .body.code,
        ).toBe(42029);
        expect(
          (
            await h.call('POST', '/api/v1/sys/user/batch-delete', {
              token: sub,
              json: { ids: [targetId, subId] },
            })
          ).body.code,
        ).toBe(42029);
        expect((await h.call('GET', '/api/v1/ping', { token: sub })).status).toBe(200);
        expect((await h.ok('GET', `/api/v1/sys/user/${targetId}`)).id).toBe(targetId);
        await h.ok('PUT', `/api/v1/sys/role/${subRoleId}/datascope`, { json: { scopeType: 3 } });
      });
    });
  });
}

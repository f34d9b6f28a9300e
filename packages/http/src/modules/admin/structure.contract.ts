/**
 * The structure an administrator builds: organisations (tree, no cycles, no delete with children or users),
 * positions, roles (unique code, data scope, members) and menus (catalog/menu/button tree, codes normalised on
 * save, a button under a button refused, no delete with children), with the resources' not-found codes.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminHarness, ROOT_ORG_ID, startAdminServer } from './harness.contract.js';

export function defineStructureContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`organisations, positions, roles and menus on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
    });
    afterAll(() => h?.close());

    it('organisations: create under a parent, list and detail, refuse cycles (42008), delete rules (42004, 42027)', async () => {
      const parent = await h.org('sales');
      const child = await h.org('sales-north', parent);
      const grandchild = await h.org('sales-north-x', child);
      const list = await h.ok('GET', '/api/v1/sys/org/list?NAME=sales-north');
      expect(list.map((o: { id: number }) => o.id).sort()).toEqual([child, grandchild].sort());
      expect(await h.ok('GET', `/api/v1/sys/org/${child}`)).toMatchObject({
        id: child,
        parentId: parent,
        code: 'sales-north',
      });
      expect((await h.call('GET', '/api/v1/sys/org/999999')).body.code).toBe(42003);
      for (const parentId of [child, grandchild, parent]) {
        const res = await h.call('PUT', `/api/v1/sys/org/${parent}`, { json: { parentId } });
        expect(res.body.code, `under ${parentId}`).toBe(42008);
      }
      expect(
        (await h.call('POST', '/api/v1/sys/org', { json: { parentId: 999999, name: 'x', code: 'x' } })).body
          .code,
      ).toBe(42008);
      await h.ok('PUT', `/api/v1/sys/org/${grandchild}`, { json: { parentId: parent, name: 'moved' } });
      expect(await h.ok('GET', `/api/v1/sys/org/${grandchild}`)).toMatchObject({
        parentId: parent,
        name: 'moved',
      });
      expect((await h.call('DELETE', `/api/v1/sys/org/${parent}`)).body.code).toBe(42004);
      const userId = await h.user('org-member', { orgId: child });
      expect((await h.call('DELETE', `/api/v1/sys/org/${child}`)).body.code).toBe(42027);
      await h.ok('PUT', `/api/v1/sys/user/${userId}`, { json: { orgId: ROOT_ORG_ID } });
      await h.ok('DELETE', `/api/v1/sys/org/${child}`);
      expect((await h.call('GET', `/api/v1/sys/org/${child}`)).body.code).toBe(42003);
      expect((await h.call('DELETE', `/api/v1/sys/org/${child}`)).body.code).toBe(42003);
      expect(
        (await h.call('POST', '/api/v1/sys/org', { json: { name: 'x', code: 'x', tenant: 1 } })).body.code,
      ).toBe(48000);
    });

    it('positions: page, detail, update, delete and 42005', async () => {
      const id = (
        await h.ok('POST', '/api/v1/sys/position', { json: { name: 'Engineer', code: 'eng', sort: 2 } })
      ).id;
      await h.ok('POST', '/api/v1/sys/position', { json: { name: 'Manager', code: 'mgr', sort: 1 } });
      const page = await h.ok('GET', '/api/v1/sys/position/page');
      expect(page.items.map((p: { code: string }) => p.code)).toEqual(['mgr', 'eng']);
      await h.ok('PUT', `/api/v1/sys/position/${id}`, { json: { name: 'Senior engineer' } });
      expect(await h.ok('GET', `/api/v1/sys/position/${id}`)).toMatchObject({
        name: 'Senior engineer',
        code: 'eng',
      });
      const userId = await h.user('engineer');
      await h.ok('PUT', `/api/v1/sys/user/${userId}`, { json: { positionId: id } });
      await h.ok('DELETE', `/api/v1/sys/position/${id}`);
      for (const [method, json] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
        expect((await h.call(method, `/api/v1/sys/position/${id}`, { json })).body.code, method).toBe(42005);
      }
      expect((await h.call('GET', '/api/v1/sys/position/page?size=1000')).body.code).toBe(48001);
    });

    it('roles: unique code in any case (42018), new roles scoped Self, data scope and members round-trip, 42002', async () => {
      const id = (await h.ok('POST', '/api/v1/sys/role', { json: { name: 'Auditor', code: 'auditor' } })).id;
      expect(
        (await h.call('POST', '/api/v1/sys/role', { json: { name: 'x', code: 'AUDITOR' } })).body.code,
      ).toBe(42018);
      const other = (await h.ok('POST', '/api/v1/sys/role', { json: { name: 'Other', code: 'other' } })).id;
      expect(
        (await h.call('PUT', `/api/v1/sys/role/${other}`, { json: { code: 'Auditor' } })).body.code,
      ).toBe(42018);
      // Lookalikes of a code are refused (48000 naming code) or fold onto it (full-width forms: 42018).
      for (const lookalike of ['auditor\u200b', '\u202eauditor', 'aud\u0456tor', 'auditor\u00a0x'])
        for (const [method, path] of [
          ['POST', '/api/v1/sys/role'],
          ['PUT', `/api/v1/sys/role/${other}`],
        ] as const) {
          const refused = await h.call(method, path, { json: { name: 'x', code: lookalike } });
          expect(refused.body.code, JSON.stringify(lookalike)).toBe(48000);
          expect(refused.body.args.errors[0]).toMatchObject({ path: 'code' });
        }
      expect(
        (
          await h.call('POST', '/api/v1/sys/role', {
            json: { name: 'x', code: '\uff41\uff55\uff44\uff49\uff54\uff4f\uff52' },
          })
        ).body.code,
      ).toBe(42018);
      // The role's own code saves unchanged.
      await h.ok('PUT', `/api/v1/sys/role/${other}`, { json: { code: 'other', name: 'Other' } });
      expect(await h.ok('GET', `/api/v1/sys/role/${id}`)).toMatchObject({
        code: 'auditor',
        dataScope: 4,
        enabled: true,
      });
      const orgId = await h.org('audit-dept');
      await h.ok('PUT', `/api/v1/sys/role/${id}/datascope`, {
        json: { scopeType: 5, customOrgIds: [orgId, orgId] },
      });
      expect(await h.ok('GET', `/api/v1/sys/role/${id}/datascope`)).toEqual({
        scopeType: 5,
        customOrgIds: [orgId],
      });
      expect(
        (
          await h.call('PUT', `/api/v1/sys/role/${id}/datascope`, {
            json: { scopeType: 5, customOrgIds: [999999] },
          })
        ).body.code,
      ).toBe(42003);
      expect(
        (await h.call('PUT', `/api/v1/sys/role/${id}/datascope`, { json: { scopeType: 6 } })).body.code,
      ).toBe(48000);
      await h.ok('PUT', `/api/v1/sys/role/${id}/datascope`, { json: { scopeType: 2 } });
      expect(await h.ok('GET', `/api/v1/sys/role/${id}/datascope`)).toEqual({
        scopeType: 2,
        customOrgIds: [],
      });
      const u1 = await h.user('auditor-1');
      const u2 = await h.user('auditor-2');
      await h.ok('PUT', `/api/v1/sys/role/${id}/users`, { json: { userIds: [u1, u2] } });
      expect(await h.ok('GET', `/api/v1/sys/role/${id}/users`)).toEqual({
        userIds: [u1, u2].sort((a, b) => a - b),
      });
      expect((await h.ok('GET', `/api/v1/sys/user/${u1}`)).roleIds).toEqual([id]);
      expect(
        (await h.call('PUT', `/api/v1/sys/role/${id}/users`, { json: { userIds: [999999] } })).body.code,
      ).toBe(42001);
      const page = await h.ok('GET', '/api/v1/sys/role/page?code=AUDIT');
      expect(page.items.map((r: { id: number }) => r.id)).toEqual([id]);
      for (const [method, path] of [
        ['GET', '/api/v1/sys/role/999999'],
        ['PUT', '/api/v1/sys/role/999999'],
        ['DELETE', '/api/v1/sys/role/999999'],
        ['GET', '/api/v1/sys/role/999999/menus'],
        ['PUT', '/api/v1/sys/role/999999/menus'],
        ['GET', '/api/v1/sys/role/999999/datascope'],
        ['GET', '/api/v1/sys/role/999999/users'],
      ] as const) {
        const json =
          method === 'PUT' ? (path.endsWith('menus') ? { menuIds: [] } : { name: 'x' }) : undefined;
        expect((await h.call(method, path, { json })).body.code, `${method} ${path}`).toBe(42002);
      }
      expect(
        (await h.call('PUT', `/api/v1/sys/role/${id}/menus`, { json: { menuIds: [999999] } })).body,
      ).toMatchObject({
        code: 42015,
        args: { ids: [999999] },
      });
    });

    it('menus: tree with several codes per button, codes normalised, bad codes refused naming the field, parent rules, delete rules', async () => {
      const catalog = (
        await h.ok('POST', '/api/v1/sys/menu', { json: { type: 'catalog', title: 'Shop', path: '/shop' } })
      ).id;
      const menu = (
        await h.ok('POST', '/api/v1/sys/menu', { json: { parentId: catalog, type: 'menu', title: 'Orders' } })
      ).id;
      const button = (
        await h.ok('POST', '/api/v1/sys/menu', {
          json: {
            parentId: menu,
            type: 'button',
            title: 'Edit',
            permission:
              ' put:/API/v1/Shop/Order/{ID} ; get:/api/v1/shop/order/{id};;PUT:/api/v1/shop/order/{id}',
          },
        })
      ).id;
      const tree = await h.ok('GET', '/api/v1/sys/menu/tree');
      const shop = tree.find((n: { id: number }) => n.id === catalog);
      expect(shop).toMatchObject({ type: 'catalog', title: 'Shop', parentId: 0 });
      expect(shop.children[0]).toMatchObject({ id: menu, type: 'menu' });
      expect(shop.children[0].children[0]).toMatchObject({
        id: button,
        type: 'button',
        permission: 'PUT:/api/v1/shop/order/{id};GET:/api/v1/shop/order/{id}',
        children: [],
      });
      expect(tree.find((n: { id: number }) => n.id === 1).children.length).toBeGreaterThan(5);
      const bad = await h.call('PUT', `/api/v1/sys/menu/${button}`, {
        json: { permission: 'GET:/ok;not a code' },
      });
      expect(bad.body).toMatchObject({ code: 48000, args: { errors: [{ path: 'permission' }] } });
      expect(
        (await h.call('POST', '/api/v1/sys/menu', { json: { parentId: button, type: 'button', title: 'x' } }))
          .body.code,
      ).toBe(42030);
      expect(
        (await h.call('POST', '/api/v1/sys/menu', { json: { parentId: 999999, type: 'menu', title: 'x' } }))
          .body.code,
      ).toBe(42030);
      expect(
        (await h.call('PUT', `/api/v1/sys/menu/${catalog}`, { json: { parentId: menu } })).body.code,
      ).toBe(42030);
      expect(
        (await h.call('PUT', `/api/v1/sys/menu/${catalog}`, { json: { parentId: catalog } })).body.code,
      ).toBe(42030);
      expect(
        (await h.call('POST', '/api/v1/sys/menu', { json: { type: 'page', title: 'x' } })).body.code,
      ).toBe(48000);
      expect((await h.call('DELETE', `/api/v1/sys/menu/${menu}`)).body.code).toBe(42016);
      await h.ok('DELETE', `/api/v1/sys/menu/${button}`);
      await h.ok('DELETE', `/api/v1/sys/menu/${menu}`);
      expect((await h.call('DELETE', `/api/v1/sys/menu/${menu}`)).body.code).toBe(42015);
      expect((await h.call('PUT', `/api/v1/sys/menu/${menu}`, { json: { title: 'x' } })).body.code).toBe(
        42015,
      );
    });
  });
}

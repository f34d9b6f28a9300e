/**
 * The recycle bin over every soft-deletable kernel type (organisations, positions, menus, dictionary types and
 * items, files; users, roles and modules have their own suites): page, restore, purge, live-row uniqueness at
 * restore (42021), parents (a child of a deleted parent is refused until the parent is back: 42008, 42030,
 * 43001), escalation through a restored menu (41001), files in the uploader's data scope (42020 outside it),
 * config rows (the key is unique among live rows only; a restore is read through the value route at once), the
 * type's own delete code that restore and purge ask besides the bin's (listed by `/sys/recycle/types` as the
 * service demands it; none for a consumer type registered without codes) and an unknown type (42022).
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../../app.js';
import { bearer, json } from '../../testing/auth.js';
import { type AdminHarness, startAdminServer } from '../admin/harness.contract.js';
import { recycleBinModule } from './index.js';

// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field.
type Any = any;

const BIN_CODES = [
  'GET:/api/v1/sys/recycle/{type}/page',
  'POST:/api/v1/sys/recycle/{type}/{id}/restore',
  'DELETE:/api/v1/sys/recycle/{type}/{id}',
];

/** A consumer's type registered without codes (through the bin's services): its restore and purge ask only the bin's. */
const CONSUMER = 'rb-order';
const consumerType: NonNullable<CreateAppOptions['configure']> = (_ctx, deps) => {
  deps.modules.servicesOf(recycleBinModule).recycleBin.register({
    type: CONSUMER,
    title: 'Orders',
    page: async () => ({ current: 1, size: 20, total: 0, pages: 0, items: [] }),
    restore: async () => {},
    purge: async () => {},
  });
};

export function defineRecycleContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`recycle bin of every kernel type on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache, { configure: consumerType });
    });
    afterAll(() => h?.close());

    const binIds = async (type: string, token?: string) =>
      (
        await h.ok('GET', `/api/v1/sys/recycle/${type}/page?size=100`, token ? { token } : undefined)
      ).items.map((i: Any) => i.id);
    const restore = (type: string, id: number, token?: string) =>
      h.call('POST', `/api/v1/sys/recycle/${type}/${id}/restore`, token ? { token } : {});

    it('organisations: a child comes back only under a live parent (42008); purge removes for good', async () => {
      const parent = await h.org('rb-parent');
      const child = await h.org('rb-child', parent);
      await h.ok('DELETE', `/api/v1/sys/org/${child}`);
      await h.ok('DELETE', `/api/v1/sys/org/${parent}`);
      const page = await h.ok('GET', '/api/v1/sys/recycle/org/page');
      expect(page.items.find((i: Any) => i.id === child)).toMatchObject({
        title: 'rb-child',
        subtitle: 'rb-child',
      });
      expect((await restore('org', child)).body.code).toBe(42008);
      await h.ok('POST', `/api/v1/sys/recycle/org/${parent}/restore`);
      await h.ok('POST', `/api/v1/sys/recycle/org/${child}/restore`);
      expect(await h.ok('GET', `/api/v1/sys/org/${child}`)).toMatchObject({ parentId: parent });
      expect((await restore('org', child)).body.code).toBe(42020);
      await h.ok('DELETE', `/api/v1/sys/org/${child}`);
      await h.ok('DELETE', `/api/v1/sys/recycle/org/${child}`);
      expect(await binIds('org')).not.toContain(child);
      expect((await restore('org', child)).body.code).toBe(42020);
      // A live row is not in the bin.
      expect((await h.call('DELETE', `/api/v1/sys/recycle/org/${parent}`)).body.code).toBe(42020);
    });

    it('positions: page, restore, purge', async () => {
      const id = (await h.ok('POST', '/api/v1/sys/position', { json: { name: 'RB', code: 'rb' } })).id;
      await h.ok('DELETE', `/api/v1/sys/position/${id}`);
      expect(await binIds('position')).toContain(id);
      await h.ok('POST', `/api/v1/sys/recycle/position/${id}/restore`);
      expect((await h.ok('GET', `/api/v1/sys/position/${id}`)).code).toBe('rb');
      await h.ok('DELETE', `/api/v1/sys/position/${id}`);
      await h.ok('DELETE', `/api/v1/sys/recycle/position/${id}`);
      expect(await binIds('position')).not.toContain(id);
    });

    it('menus: parents first (42030); restoring granted codes needs them (41001)', async () => {
      const catalog = (await h.ok('POST', '/api/v1/sys/menu', { json: { type: 'catalog', title: 'RB cat' } }))
        .id;
      const button = (
        await h.ok('POST', '/api/v1/sys/menu', {
          json: {
            parentId: catalog,
            type: 'button',
            title: 'RB btn',
            permission: 'GET:/api/v1/sys/user/page',
          },
        })
      ).id;
      await h.ok('DELETE', `/api/v1/sys/menu/${button}`);
      await h.ok('DELETE', `/api/v1/sys/menu/${catalog}`);
      expect((await restore('menu', button)).body.code).toBe(42030);
      await h.ok('POST', `/api/v1/sys/recycle/menu/${catalog}/restore`);
      // An administrator who may use the bin and delete menus but does not hold the button's code cannot bring it
      // back.
      const binRole = await h.role('rb_bin', [...BIN_CODES, 'DELETE:/api/v1/sys/menu/{id}'], {
        scopeType: 1,
      });
      await h.user('rb-binner', { roleIds: [binRole] });
      const binner = await h.loginAs('rb-binner');
      expect((await restore('menu', button, binner)).body).toMatchObject({
        code: 41001,
        args: { codes: ['GET:/api/v1/sys/user/page'] },
      });
      await h.ok('POST', `/api/v1/sys/recycle/menu/${button}/restore`);
      const tree = await h.ok('GET', '/api/v1/sys/menu/tree');
      const node = tree.find((n: Any) => n.id === catalog);
      expect(node.children.map((n: Any) => n.id)).toEqual([button]);
    });

    it('purging is deleting for good: the rank rule holds (41001), and a purged menu takes its grants along', async () => {
      const code = 'GET:/api/v1/sys/user/page';
      const strongRole = await h.role('rb_strong', [code], { scopeType: 1 });
      const deletes = ['DELETE:/api/v1/sys/user/{id}', 'DELETE:/api/v1/sys/menu/{id}'];
      await h.user('rb-purger', {
        roleIds: [await h.role('rb_purger', [...BIN_CODES, ...deletes], { scopeType: 1 })],
      });
      const purger = await h.loginAs('rb-purger');
      const purge = (type: string, id: number) =>
        h.call('DELETE', `/api/v1/sys/recycle/${type}/${id}`, { token: purger });
      // A user who holds a code the purger does not.
      const strong = await h.user('rb-strong-user', { roleIds: [strongRole] });
      await h.ok('DELETE', `/api/v1/sys/user/${strong}`);
      expect((await purge('user', strong)).body).toMatchObject({ code: 41001, args: { reason: 'rank' } });
      expect(await binIds('user')).toContain(strong);
      await h.ok('DELETE', `/api/v1/sys/recycle/user/${strong}`);
      // A menu that a role the purger may not change grants.
      const strongButton = (
        await h.ok('POST', '/api/v1/sys/menu', {
          json: { type: 'button', title: 'RB strong', permission: code },
        })
      ).id;
      await h.ok('PUT', `/api/v1/sys/role/${strongRole}/menus`, { json: { menuIds: [strongButton] } });
      await h.ok('DELETE', `/api/v1/sys/menu/${strongButton}`);
      expect((await purge('menu', strongButton)).body).toMatchObject({
        code: 41001,
        args: { codes: [code] },
      });
      const roles = h.t.server.database.repos.roles;
      expect(await roles.menuIdsOf(strongRole)).toContain(strongButton);
      await h.ok('DELETE', `/api/v1/sys/recycle/menu/${strongButton}`);
      expect(await roles.menuIdsOf(strongRole)).not.toContain(strongButton);
    });

    it('dictionaries: a type clashes with a live code (42021); an item needs its type back (43001)', async () => {
      const old = (await h.ok('POST', '/api/v1/sys/dict/type', { json: { code: 'rb_dict', name: 'Old' } }))
        .id;
      const item = (
        await h.ok('POST', '/api/v1/sys/dict/item', { json: { typeId: old, label: 'A', value: 'a' } })
      ).id;
      await h.ok('DELETE', `/api/v1/sys/dict/type/${old}`);
      expect(await binIds('dict-item')).toContain(item);
      expect((await restore('dict-item', item)).body.code).toBe(43001);
      const usurper = (
        await h.ok('POST', '/api/v1/sys/dict/type', { json: { code: 'rb_dict', name: 'New' } })
      ).id;
      expect((await restore('dict-type', old)).body).toMatchObject({
        code: 42021,
        args: { field: 'code', value: 'rb_dict' },
      });
      await h.ok('DELETE', `/api/v1/sys/dict/type/${usurper}`);
      await h.ok('POST', `/api/v1/sys/recycle/dict-type/${old}/restore`);
      // The type is back without its items; the item follows on its own and the cached options see it.
      expect(await h.ok('GET', '/api/v1/sys/dict/items/rb_dict')).toEqual([]);
      await h.ok('POST', `/api/v1/sys/recycle/dict-item/${item}/restore`);
      expect((await h.ok('GET', '/api/v1/sys/dict/items/rb_dict')).map((o: Any) => o.value)).toEqual(['a']);
    });

    it('files: only those of uploaders inside the scope (42020 otherwise); a restored file downloads again', async () => {
      const codes = [...BIN_CODES, 'POST:/api/v1/sys/file/upload', 'DELETE:/api/v1/sys/file/{id}'];
      const orgA = await h.org('rb-files');
      const own = await h.role('rb_files_own', codes, { scopeType: 2 });
      await h.user('rb-alice', { orgId: orgA, roleIds: [own] });
      const alice = await h.loginAs('rb-alice');
      const upload = async (token: string, name: string) => {
        const data = new FormData();
        data.append('file', new File(['hello'], name, { type: 'text/plain' }));
        const res = await h.t.request('/api/v1/sys/file/upload', {
          method: 'POST',
          headers: bearer(token),
          body: data,
        });
        return (await json(res)).data.id as number;
      };
      const mine = await upload(alice, 'mine.txt');
      const admins = await upload(h.admin, 'admins.txt');
      await h.ok('DELETE', `/api/v1/sys/file/${mine}`, { token: alice });
      await h.ok('DELETE', `/api/v1/sys/file/${admins}`);
      expect(await binIds('file', alice)).toEqual([mine]);
      expect(await binIds('file')).toEqual(expect.arrayContaining([mine, admins]));
      expect((await restore('file', admins, alice)).body.code).toBe(42020);
      expect((await h.call('DELETE', `/api/v1/sys/recycle/file/${admins}`, { token: alice })).body.code).toBe(
        42020,
      );
      await h.ok('POST', `/api/v1/sys/recycle/file/${mine}/restore`, { token: alice });
      const res = await h.t.request(`/api/v1/sys/file/${mine}/download`, { headers: bearer(h.admin) });
      expect(await res.text()).toBe('hello');
    });

    it('config rows: delete to the bin, the key free again, restore conflict (42021), value readable after restore', async () => {
      const key = 'app.rb.colour';
      const value = async () => (await h.call('GET', `/api/v1/sys/config/value/${key}`)).body;
      const first = (
        await h.ok('POST', '/api/v1/sys/config', { json: { key, value: 'blue', name: 'Colour' } })
      ).id;
      expect((await value()).data).toMatchObject({ value: 'blue' });
      await h.ok('DELETE', `/api/v1/sys/config/${first}`);
      // Gone from every reader (the cached value too), listed in the bin with its key.
      expect((await value()).code).toBe(43004);
      expect((await h.call('GET', `/api/v1/sys/config/${first}`)).body.code).toBe(43004);
      const page = await h.ok('GET', `/api/v1/sys/config/page?key=${key}`);
      expect(page.total).toBe(0);
      expect(
        (await h.ok('GET', '/api/v1/sys/recycle/config/page')).items.find((i: Any) => i.id === first),
      ).toMatchObject({ title: 'Colour', subtitle: key, deleteUserId: h.adminId });
      // The key is unique among live rows: a new row may take it while the old one is in the bin ...
      const second = (
        await h.ok('POST', '/api/v1/sys/config', { json: { key, value: 'green', name: 'Colour 2' } })
      ).id;
      expect((await value()).data).toMatchObject({ value: 'green' });
      // ... and then the old one cannot come back beside it (the database refuses; 42021 names the key).
      const clash = await restore('config', first);
      expect(clash.body).toMatchObject({ code: 42021 });
      expect(JSON.stringify(clash.body)).toContain(key);
      await h.ok('DELETE', `/api/v1/sys/config/${second}`);
      await h.ok('POST', `/api/v1/sys/recycle/config/${first}/restore`);
      expect((await value()).data).toMatchObject({ value: 'blue' });
      expect(await h.ok('GET', `/api/v1/sys/config/${first}`)).toMatchObject({ key, value: 'blue' });
      // A create of the live key answers 43005 again; the purged row is gone for good.
      expect(
        (await h.call('POST', '/api/v1/sys/config', { json: { key, value: 'x', name: 'x' } })).body.code,
      ).toBe(43005);
      await h.ok('DELETE', `/api/v1/sys/recycle/config/${second}`);
      expect(await binIds('config')).not.toContain(second);
      // Built-in keys still cannot be deleted, so they never reach the bin.
      const builtIn = (await h.ok('GET', '/api/v1/sys/config/page?key=sys.security.password.minLength'))
        .items[0];
      expect((await h.call('DELETE', `/api/v1/sys/config/${builtIn.id}`)).body.code).toBe(43006);
    });

    it('lists its types with their titles, every soft-deletable kernel type among them', async () => {
      const types = await h.ok('GET', '/api/v1/sys/recycle/types');
      expect(types.map((t: Any) => t.type)).toEqual(
        expect.arrayContaining([
          'user',
          'role',
          'org',
          'position',
          'menu',
          'dict-type',
          'dict-item',
          'config',
          'file',
          'job',
          'notice',
          'module',
        ]),
      );
      expect(types.find((t: Any) => t.type === 'config')).toEqual({
        type: 'config',
        title: 'Configuration',
        codes: ['DELETE:/api/v1/sys/config/{id}'],
      });
      // Each listed type answers its page.
      for (const { type } of types) await h.ok('GET', `/api/v1/sys/recycle/${type}/page?size=1`);
    });

    it("restoring and purging need the type's own delete code besides the bin's (41001 naming it)", async () => {
      // Every kernel type names the delete route of its own admin API, a route the service serves.
      const doc = await json(await h.t.request('/openapi/v1.json'));
      const served = new Set(
        Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
          Object.keys(methods).map((method) => `${method.toUpperCase()}:${path.toLowerCase()}`),
        ),
      );
      const bin = h.t.server.modules.servicesOf(recycleBinModule).recycleBin;
      // `/sys/recycle/types` lists each type with the codes its restore and purge demand (what a console shows
      // its buttons by); a consumer type registered without codes lists none.
      const listed = new Map<string, string[]>(
        (await h.ok('GET', '/api/v1/sys/recycle/types')).map((t: Any) => [t.type, t.codes]),
      );
      expect(listed.get(CONSUMER)).toEqual([]);
      expect(listed.get('user')).toEqual(['DELETE:/api/v1/sys/user/{id}']);
      for (const { type } of bin.list()) {
        if (type === CONSUMER) continue;
        const codes = bin.get(type).codes ?? [];
        expect(codes, type).toHaveLength(1);
        expect(served.has(codes[0] as string), `${type}: ${codes[0]}`).toBe(true);
        expect(listed.get(type), type).toEqual(codes);
      }
      // A position and a config row in the bin, and an administrator who holds the bin's codes only.
      const position = (
        await h.ok('POST', '/api/v1/sys/position', { json: { name: 'RB own', code: 'rb_own' } })
      ).id;
      await h.ok('DELETE', `/api/v1/sys/position/${position}`);
      const config = (
        await h.ok('POST', '/api/v1/sys/config', { json: { key: 'app.rb.own', value: 'x', name: 'Own' } })
      ).id;
      await h.ok('DELETE', `/api/v1/sys/config/${config}`);
      const binOnly = await h.role('rb_bin_only', BIN_CODES, { scopeType: 1 });
      await h.user('rb-bin-only', { roleIds: [binOnly] });
      const token = await h.loginAs('rb-bin-only');
      const refused = (code: string) => ({ code: 41001, args: { codes: [code] } });
      const positionDelete = 'DELETE:/api/v1/sys/position/{id}';
      expect(listed.get('position')).toEqual([positionDelete]);
      expect(listed.get('config')).toEqual(['DELETE:/api/v1/sys/config/{id}']);
      // The bin still lists them; bringing back or purging is the owner's write.
      expect(await binIds('position', token)).toContain(position);
      expect((await restore('position', position, token)).body).toMatchObject(refused(positionDelete));
      expect(
        (await h.call('DELETE', `/api/v1/sys/recycle/position/${position}`, { token })).body,
      ).toMatchObject(refused(positionDelete));
      expect((await h.call('DELETE', `/api/v1/sys/recycle/config/${config}`, { token })).body).toMatchObject(
        refused('DELETE:/api/v1/sys/config/{id}'),
      );
      expect(await binIds('position')).toContain(position);
      expect(await binIds('config')).toContain(config);
      // A type that lists no codes asks only the bin's.
      expect((await restore(CONSUMER, 7, token)).body.code).toBe(0);
      expect((await h.call('DELETE', `/api/v1/sys/recycle/${CONSUMER}/7`, { token })).body.code).toBe(0);
      // With the position's delete code, its restore goes through.
      const positionDeleter = await h.role('rb_pos_del', [positionDelete]);
      await h.user('rb-bin-pos', { roleIds: [binOnly, positionDeleter] });
      const granted = await h.loginAs('rb-bin-pos');
      await h.ok('POST', `/api/v1/sys/recycle/position/${position}/restore`, { token: granted });
      expect((await h.ok('GET', `/api/v1/sys/position/${position}`)).code).toBe('rb_own');
    });

    it('an unknown type is refused (42022)', async () => {
      expect((await h.call('GET', '/api/v1/sys/recycle/nothing/page')).body.code).toBe(42022);
    });
  });
}

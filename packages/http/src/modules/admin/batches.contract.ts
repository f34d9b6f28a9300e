/**
 * The small routes of existing areas over HTTP: role, dictionary-type, dictionary-item and file batch deletes
 * (all or nothing, as the user batch delete: one unknown or out-of-scope id refuses the batch and names it),
 * org copy (subtree cloned as a sibling, distinct codes, 42003), dictionary type by id (43001) and config
 * value by key (read through the snapshot, invalidated by a config-centre change, 43004).
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from '../../testing/auth.js';
import { type AdminHarness, startAdminServer } from './harness.contract.js';

// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field.
type Any = any;

export function defineBatchContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`batch deletes, org copy, dictionary type and config value on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
    });
    afterAll(() => h?.close());

    it('roles: batch delete is all or nothing (42002 names the unknown ids)', async () => {
      const r1 = (await h.ok('POST', '/api/v1/sys/role', { json: { name: 'b1', code: 'batch_1' } })).id;
      const r2 = (await h.ok('POST', '/api/v1/sys/role', { json: { name: 'b2', code: 'batch_2' } })).id;
      const refused = await h.call('POST', '/api/v1/sys/role/batch-delete', {
        json: { ids: [r1, r2, 999999] },
      });
      expect(refused.body).toMatchObject({ code: 42002, args: { ids: [999999] } });
      expect((await h.ok('GET', `/api/v1/sys/role/${r1}`)).id).toBe(r1);
      expect((await h.call('POST', '/api/v1/sys/role/batch-delete', { json: { ids: [] } })).body.code).toBe(
        48000,
      );
      expect(await h.ok('POST', '/api/v1/sys/role/batch-delete', { json: { ids: [r1, r2, r1] } })).toEqual({
        deleted: 2,
      });
      for (const id of [r1, r2])
        expect((await h.call('GET', `/api/v1/sys/role/${id}`)).body.code).toBe(42002);
      // Deleted, so a second batch naming them is refused whole.
      expect((await h.call('POST', '/api/v1/sys/role/batch-delete', { json: { ids: [r1] } })).body.code).toBe(
        42002,
      );
    });

    it('orgs: copy clones the subtree as a sibling with distinct codes; 42003 for an unknown source', async () => {
      const parent = await h.org('cp-parent');
      const source = await h.org('cp-src', parent);
      const child = await h.org('cp-child', source);
      await h.org('cp-leaf', child);
      const copy = (await h.ok('POST', `/api/v1/sys/org/${source}/copy`, { json: { name: 'Copied' } })).id;
      const list: Any[] = await h.ok('GET', '/api/v1/sys/org/list');
      const byId = new Map(list.map((o) => [o.id, o]));
      expect(byId.get(copy)).toMatchObject({ parentId: parent, name: 'Copied', code: 'cp-src-copy' });
      const copiedChild = list.find((o) => o.parentId === copy);
      expect(copiedChild).toMatchObject({ name: 'cp-child', code: 'cp-child-copy' });
      expect(list.find((o) => o.parentId === copiedChild.id)).toMatchObject({ code: 'cp-leaf-copy' });
      // The source is untouched; a second copy takes the next free codes and the default name.
      expect(list.filter((o) => o.parentId === source).map((o) => o.id)).toEqual([child]);
      const again = (await h.ok('POST', `/api/v1/sys/org/${source}/copy`)).id;
      expect(await h.ok('GET', `/api/v1/sys/org/${again}`)).toMatchObject({
        name: 'cp-src (copy)',
        code: 'cp-src-copy2',
        parentId: parent,
      });
      expect((await h.call('POST', '/api/v1/sys/org/999999/copy', { json: {} })).body.code).toBe(42003);
      expect(
        (await h.call('POST', `/api/v1/sys/org/${source}/copy`, { json: { code: 'x' } })).body.code,
      ).toBe(48000);
    });

    it('dictionaries: type by id (43001); type and item batch deletes are all or nothing', async () => {
      const t1 = (await h.ok('POST', '/api/v1/sys/dict/type', { json: { code: 'bd_one', name: 'One' } })).id;
      const t2 = (await h.ok('POST', '/api/v1/sys/dict/type', { json: { code: 'bd_two', name: 'Two' } })).id;
      expect(await h.ok('GET', `/api/v1/sys/dict/type/${t1}`)).toMatchObject({ id: t1, code: 'bd_one' });
      expect((await h.call('GET', '/api/v1/sys/dict/type/999999')).body.code).toBe(43001);
      const item = async (typeId: number, value: string) =>
        (await h.ok('POST', '/api/v1/sys/dict/item', { json: { typeId, label: value, value } })).id;
      const i1 = await item(t1, 'a');
      const i2 = await item(t1, 'b');
      await item(t2, 'c');
      const items = async (code: string) => await h.ok('GET', `/api/v1/sys/dict/items/${code}`);
      expect(await items('bd_one')).toHaveLength(2);

      const refusedItems = await h.call('POST', '/api/v1/sys/dict/item/batch-delete', {
        json: { ids: [i1, 999999] },
      });
      expect(refusedItems.body).toMatchObject({ code: 43003, args: { ids: [999999] } });
      expect(await items('bd_one')).toHaveLength(2);
      expect(await h.ok('POST', '/api/v1/sys/dict/item/batch-delete', { json: { ids: [i1] } })).toEqual({
        deleted: 1,
      });
      // The cached options of the type follow at once.
      expect((await items('bd_one')).map((o: Any) => o.value)).toEqual(['b']);
      void i2;

      const refusedTypes = await h.call('POST', '/api/v1/sys/dict/type/batch-delete', {
        json: { ids: [t1, t2, 999999] },
      });
      expect(refusedTypes.body).toMatchObject({ code: 43001, args: { ids: [999999] } });
      expect(await items('bd_two')).toHaveLength(1);
      expect(await h.ok('POST', '/api/v1/sys/dict/type/batch-delete', { json: { ids: [t1, t2] } })).toEqual({
        deleted: 2,
      });
      expect(await items('bd_one')).toEqual([]);
      expect(await items('bd_two')).toEqual([]);
      expect((await h.call('GET', `/api/v1/sys/dict/type/${t1}`)).body.code).toBe(43001);
      // Their items went with them.
      const page = await h.ok('GET', '/api/v1/sys/dict/item/page?typeCode=bd_two');
      expect(page.total).toBe(0);
    });

    it('config: value by key reads through the snapshot and follows config-centre changes (43004)', async () => {
      const id = (
        await h.ok('POST', '/api/v1/sys/config', {
          json: { key: 'demo.batch.key', value: 'one', name: 'Demo' },
        })
      ).id;
      const value = async () => (await h.ok('GET', '/api/v1/sys/config/value/demo.batch.key')).value;
      expect(await value()).toBe('one');
      await h.ok('PUT', `/api/v1/sys/config/${id}`, { json: { value: 'two' } });
      expect(await value()).toBe('two');
      // A write behind the config centre's back is not seen until the cache is flushed: the read is cached.
      expect(await h.t.server.database.repos.configs.updateValue('demo.batch.key', 'three')).toBe(true);
      expect(await value()).toBe('two');
      await h.ok('POST', '/api/v1/sys/cache/flush-config');
      expect(await value()).toBe('three');
      const missing = await h.call('GET', '/api/v1/sys/config/value/no.such.key');
      expect(missing.body).toMatchObject({ code: 43004, args: { key: 'no.such.key' } });
      await h.ok('DELETE', `/api/v1/sys/config/${id}`);
      expect((await h.call('GET', '/api/v1/sys/config/value/demo.batch.key')).body.code).toBe(43004);
    });

    it('files: batch delete applies the uploader data scope per id, all or nothing (44004)', async () => {
      const codes = [
        'POST:/api/v1/sys/file/upload',
        'POST:/api/v1/sys/file/batch-delete',
        'GET:/api/v1/sys/file/page',
      ];
      const orgA = await h.org('fb-a');
      const own = await h.role('fb_own', codes, { scopeType: 2 });
      await h.user('fb-alice', { orgId: orgA, roleIds: [own] });
      const alice = await h.loginAs('fb-alice');
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
      const mine2 = await upload(alice, 'mine2.txt');
      const admins = await upload(h.admin, 'admins.txt');
      const refused = await h.call('POST', '/api/v1/sys/file/batch-delete', {
        token: alice,
        json: { ids: [mine, admins] },
      });
      expect(refused.body).toMatchObject({ code: 44004, args: { ids: [admins] } });
      const ids = async (token: string) =>
        (await h.ok('GET', '/api/v1/sys/file/page?size=100', { token })).items.map((f: Any) => f.id);
      expect(await ids(alice)).toEqual(expect.arrayContaining([mine, mine2]));
      expect(
        await h.ok('POST', '/api/v1/sys/file/batch-delete', { token: alice, json: { ids: [mine, mine2] } }),
      ).toEqual({ deleted: 2 });
      expect(await ids(alice)).toEqual([]);
      expect(await ids(h.admin)).toContain(admins);
    });
  });
}

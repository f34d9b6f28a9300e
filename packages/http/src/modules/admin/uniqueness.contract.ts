/**
 * Names and uniqueness: account names are NFKC-normalised and refuse control, bidirectional and invisible
 * characters (48000 naming `account`); a name the database folds onto a live account answers 42006; and the
 * database itself keeps account, role code, dictionary type code, config key, organisation code (ignoring case)
 * and dictionary item value (within its type) unique among live rows, so a
 * burst of simultaneous creates ends with exactly one success and the check's business code for the rest
 * (never a 500), on every dialect. A deleted row frees its name; restoring it into a taken one answers 42021.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminHarness, ROOT_ORG_ID, startAdminServer } from './harness.contract.js';

const BURST = 8;

export function defineUniquenessContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`names and uniqueness among live rows on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
    });
    afterAll(() => h?.close());

    const createUser = (account: string) =>
      h.call('POST', '/api/v1/sys/user', { json: { account, realName: 'n', orgId: ROOT_ORG_ID } });

    /** Sends `BURST` creates at once; answers the envelope codes, sorted. */
    const burst = async (make: (i: number) => Promise<{ status: number; body: { code: number } }>) => {
      const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => make(i)));
      for (const a of answers) expect(a.status).toBeLessThan(500);
      return answers.map((a) => a.body.code).sort((x, y) => x - y);
    };
    const oneWinner = (code: number) => [0, ...Array.from({ length: BURST - 1 }, () => code)];

    it.each([
      ['a right-to-left override', 'adm\u202enim'],
      ['a zero-width space', 'ad\u200bmin'],
      ['a zero-width joiner', 'ad\u200dmin'],
      ['a bell control character', 'ad\u0007min'],
      ['a byte-order mark', 'ad\ufeffmin'],
      ['a left-to-right isolate', 'ad\u2066min'],
      ['a Hangul filler', 'ad\u3164min'],
      ['a Cyrillic letter among Latin ones', 'superAdm\u0456n'],
    ])('refuses an account with %s (48000 naming account), creating nothing', async (_, account) => {
      const total = async () => (await h.ok('GET', '/api/v1/sys/user/page?size=1')).total;
      const before = await total();
      const res = await createUser(account);
      expect(res.body.code).toBe(48000);
      expect(res.body.args.errors[0].path).toBe('account');
      expect(await total()).toBe(before);
    });

    it('stores the NFKC form and refuses look-alikes of a live account with 42006', async () => {
      const created = await h.ok('POST', '/api/v1/sys/user', {
        json: { account: 'ｆｏｌｄ－ｖｉｃｔｉｍ', realName: 'n', orgId: ROOT_ORG_ID },
      });
      expect((await h.ok('GET', `/api/v1/sys/user/${created.id}`)).account).toBe('fold-victim');
      for (const account of [
        'fold-victim',
        'FOLD-VICTIM',
        'Fold-Victim',
        'ＦＯＬＤ-victim',
        'fold\ufe63victim',
      ]) {
        expect((await createUser(account)).body.code, account).toBe(42006);
      }
    });

    it('a burst of creates of one account in different cases: one success, 42006 for the rest', async () => {
      const codes = await burst((i) => createUser(i % 2 === 0 ? 'race-user' : 'RACE-user'));
      expect(codes).toEqual(oneWinner(42006));
      expect((await h.ok('GET', '/api/v1/sys/user/page?account=race-user')).total).toBe(1);
    });

    it('a burst of role creates with one code: one success, 42018 for the rest', async () => {
      const codes = await burst((i) =>
        h.call('POST', '/api/v1/sys/role', {
          json: { name: `r${i}`, code: i % 2 ? 'RACE_ROLE' : 'race_role' },
        }),
      );
      expect(codes).toEqual(oneWinner(42018));
    });

    it('a burst of dictionary type creates with one code: one success, 43002 for the rest', async () => {
      const codes = await burst((i) =>
        h.call('POST', '/api/v1/sys/dict/type', { json: { code: 'race.type', name: `t${i}` } }),
      );
      expect(codes).toEqual(oneWinner(43002));
    });

    it('a burst of config creates with one key: one success, 43005 for the rest', async () => {
      const codes = await burst((i) =>
        h.call('POST', '/api/v1/sys/config', { json: { key: 'race.key', value: `v${i}`, name: 'n' } }),
      );
      expect(codes).toEqual(oneWinner(43005));
    });

    it('organisation codes: a live code (any case) answers 42031 on create and update; a deleted one frees it', async () => {
      const eng = await h.org('eng');
      const create = (code: string) => h.call('POST', '/api/v1/sys/org', { json: { name: 'n', code } });
      expect((await create('eng')).body.code).toBe(42031);
      expect((await create('ENG')).body.code).toBe(42031);
      const other = await h.org('ops');
      expect((await h.call('PUT', `/api/v1/sys/org/${other}`, { json: { code: 'Eng' } })).body.code).toBe(
        42031,
      );
      expect((await h.ok('GET', `/api/v1/sys/org/${other}`)).code).toBe('ops');
      // Its own code, in another case too, saves unchanged.
      await h.ok('PUT', `/api/v1/sys/org/${eng}`, { json: { code: 'ENG', name: 'Engineering' } });
      await h.ok('DELETE', `/api/v1/sys/org/${eng}`);
      const again = await h.org('eng');
      expect((await h.call('POST', `/api/v1/sys/recycle/org/${eng}/restore`)).body.code).toBe(42021);
      await h.ok('DELETE', `/api/v1/sys/org/${again}`);
      await h.ok('POST', `/api/v1/sys/recycle/org/${eng}/restore`);
      expect(
        (await h.ok('GET', '/api/v1/sys/org/list')).filter((o: { code: string }) => /^eng$/i.test(o.code)),
      ).toHaveLength(1);
    });

    it('organisations without a code never conflict', async () => {
      const orgs = h.t.server.database.repos.orgs;
      const at = new Date();
      for (let i = 0; i < 3; i++)
        await orgs.insert({ parentId: 0, name: `blank${i}`, code: '', createTime: at });
      expect((await h.ok('GET', '/api/v1/sys/org/list?name=blank')).length).toBe(3);
    });

    it('a burst of organisation creates with one code: one success, 42031 for the rest', async () => {
      const codes = await burst((i) =>
        h.call('POST', '/api/v1/sys/org', { json: { name: `o${i}`, code: i % 2 ? 'RACE-ORG' : 'race-org' } }),
      );
      expect(codes).toEqual(oneWinner(42031));
    });

    it('dictionary item values: unique within their type (43007), free in another type and once deleted', async () => {
      const type = (await h.ok('POST', '/api/v1/sys/dict/type', { json: { code: 'levels', name: 'Levels' } }))
        .id;
      const other = (await h.ok('POST', '/api/v1/sys/dict/type', { json: { code: 'grades', name: 'G' } })).id;
      const item = (typeId: number, value: string) =>
        h.call('POST', '/api/v1/sys/dict/item', { json: { typeId, label: value, value } });
      const high = (await item(type, 'high')).body.data.id;
      expect((await item(type, 'high')).body.code).toBe(43007);
      expect((await item(other, 'high')).body.code).toBe(0);
      const low = (await item(type, 'low')).body.data.id;
      expect(
        (await h.call('PUT', `/api/v1/sys/dict/item/${low}`, { json: { value: 'high' } })).body.code,
      ).toBe(43007);
      await h.ok('PUT', `/api/v1/sys/dict/item/${high}`, { json: { value: 'high', label: 'High' } });
      await h.ok('DELETE', `/api/v1/sys/dict/item/${high}`);
      const again = (await item(type, 'high')).body.data.id;
      expect((await h.call('POST', `/api/v1/sys/recycle/dict-item/${high}/restore`)).body.code).toBe(42021);
      await h.ok('DELETE', `/api/v1/sys/dict/item/${again}`);
      await h.ok('POST', `/api/v1/sys/recycle/dict-item/${high}/restore`);
      const codes = await burst(() => item(type, 'burst'));
      expect(codes).toEqual(oneWinner(43007));
    });

    it('a deleted row frees its name; restoring it into a taken one answers 42021, also against a burst', async () => {
      const first = (await h.ok('POST', '/api/v1/sys/user', { json: { account: 'reborn', realName: 'a' } }))
        .id;
      await h.ok('DELETE', `/api/v1/sys/user/${first}`);
      const second = (await h.ok('POST', '/api/v1/sys/user', { json: { account: 'REBORN', realName: 'b' } }))
        .id;
      const restore = await h.call('POST', `/api/v1/sys/recycle/user/${first}/restore`);
      expect(restore.body.code).toBe(42021);
      await h.ok('DELETE', `/api/v1/sys/user/${second}`);
      // The restore and a create race for the freed name: exactly one of them wins.
      const [restored, created] = await Promise.all([
        h.call('POST', `/api/v1/sys/recycle/user/${first}/restore`),
        createUser('reborn'),
      ]);
      expect([restored.body.code, created.body.code].filter((c) => c === 0)).toHaveLength(1);
      expect([42021, 0]).toContain(restored.body.code);
      expect([42006, 0]).toContain(created.body.code);
      expect((await h.ok('GET', '/api/v1/sys/user/page?account=reborn')).total).toBe(1);

      const role = (await h.ok('POST', '/api/v1/sys/role', { json: { name: 'x', code: 'reborn_role' } })).id;
      await h.ok('DELETE', `/api/v1/sys/role/${role}`);
      await h.ok('POST', '/api/v1/sys/role', { json: { name: 'y', code: 'REBORN_ROLE' } });
      expect((await h.call('POST', `/api/v1/sys/recycle/role/${role}/restore`)).body.code).toBe(42021);
    });
  });
}

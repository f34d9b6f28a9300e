/**
 * Contract: the repositories behind the second factors, written once and run on every dialect. A TOTP seed is
 * stored only while none is (also under concurrent binds), binding and clearing carry the recovery codes with
 * them (a clear for one seed leaves another alone), a recovery code is used exactly once under concurrency,
 * phone lookups see live users only, and the high-sensitivity list adds each code once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHighSensitivityRepository } from '../../repositories/high-sensitivity.js';
import { createRepositories, type Repositories } from '../../repositories/index.js';
import { createPhoneUserRepository } from '../../repositories/phone-users.js';
import { createTotpRepository, type TotpRepository } from '../../repositories/totp.js';
import type { DialectFixture } from '../fixtures.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

export function mfaRepositoriesContract(fixture: DialectFixture): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(
    `second-factor repositories (${fixture.dbType})`,
    () => {
      let t: OpenTestDatabase;
      let repos: Repositories;
      let totp: TotpRepository;
      let seq = 0;
      const newUser = (extra: { phone?: string; enabled?: boolean; isDelete?: boolean } = {}) =>
        repos.users.insert({ account: `m${++seq}`, realName: 'M', password: 'h', ...extra });

      beforeAll(async () => {
        t = await openTestDatabase(fixture.dbType);
        repos = createRepositories(t.database);
        totp = createTotpRepository(t.database);
      });
      afterAll(() => t?.cleanup());

      it('binds a seed once, with its recovery codes, even when binds race', async () => {
        const userId = await newUser();
        const results = await Promise.all(
          ['s1', 's2', 's3', 's4'].map((seed) => totp.bind(userId, seed, [`${seed}-a`, `${seed}-b`], at(0))),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const row = await repos.users.findById(userId);
        const winner = row?.totpSecret ?? '';
        expect(['s1', 's2', 's3', 's4']).toContain(winner);
        expect(row?.totpBoundTime?.toISOString()).toBe(at(0).toISOString());
        expect(await totp.countUnusedRecoveryCodes(userId)).toBe(2);
        // The losers' codes were never written: only the winner's work.
        expect(await totp.consumeRecoveryCode(userId, `${winner}-a`, at(1))).toBe(true);
        const loser = ['s1', 's2', 's3', 's4'].find((s) => s !== winner);
        expect(await totp.consumeRecoveryCode(userId, `${loser}-a`, at(1))).toBe(false);
        expect(await totp.bind(await newUser({ isDelete: true }), 'x', [], at(0))).toBe(false);
        expect(await totp.bind(999_999, 'x', [], at(0))).toBe(false);
      });

      it('uses a recovery code exactly once, also under concurrency, and only for its user', async () => {
        const userId = await newUser();
        const other = await newUser();
        await totp.bind(userId, 'seed', ['h1', 'h2', 'h3'], at(0));
        const racers = await Promise.all(
          Array.from({ length: 6 }, () => totp.consumeRecoveryCode(userId, 'h1', at(5))),
        );
        expect(racers.filter(Boolean)).toHaveLength(1);
        expect(await totp.consumeRecoveryCode(userId, 'h1', at(6))).toBe(false);
        expect(await totp.consumeRecoveryCode(other, 'h2', at(6))).toBe(false);
        expect(await totp.countUnusedRecoveryCodes(userId)).toBe(2);
      });

      it('rewraps stored recovery codes once each, also when two passes run at once, and leaves k… values alone', async () => {
        const a = await newUser();
        const b = await newUser();
        const plain = Array.from({ length: 7 }, (_, i) => `${'0'.repeat(63)}${i}`);
        await totp.bind(a, 'sa', [...plain.slice(0, 4), 'k1:kept'], at(0));
        await totp.bind(b, 'sb', plain.slice(4), at(0));
        const mine = new Set(plain);
        // Each pass wraps differently, so a row wrapped by both (or twice) would show it.
        const pass = (name: string) =>
          totp.rewrapRecoveryCodes((v) => (mine.has(v) ? `k0:${v}:${name}` : undefined));
        const changed = await Promise.all([pass('p1'), pass('p2')]);
        expect(changed[0] + changed[1]).toBe(plain.length);
        expect(await pass('p3')).toBe(0);
        expect(await totp.countUnusedRecoveryCodes(a)).toBe(5);
        expect(await totp.consumeRecoveryCode(a, 'k1:kept', at(1))).toBe(true);
        for (const [i, value] of plain.entries()) {
          const owner = i < 4 ? a : b;
          expect(await totp.consumeRecoveryCode(owner, value, at(1))).toBe(false);
          const once = await Promise.all(
            ['p1', 'p2'].map((name) => totp.consumeRecoveryCode(owner, `k0:${value}:${name}`, at(1))),
          );
          expect(once.filter(Boolean)).toHaveLength(1);
        }
      });

      it('clears the seed and every code, stamping who did it, and can bind again afterwards', async () => {
        const userId = await newUser();
        await totp.bind(userId, 'old', ['c1', 'c2'], at(0));
        expect(await totp.clear(userId, { userId: 1, at: at(10) })).toBe(true);
        const row = await repos.users.findById(userId);
        expect(row).toMatchObject({ totpSecret: null, totpBoundTime: null, updateUserId: 1 });
        expect(row?.updateTime?.toISOString()).toBe(at(10).toISOString());
        expect(await totp.countUnusedRecoveryCodes(userId)).toBe(0);
        expect(await totp.consumeRecoveryCode(userId, 'c2', at(11))).toBe(false);
        expect(await totp.bind(userId, 'new', ['n1'], at(12))).toBe(true);
        expect(await totp.clear(999_999, { userId: null, at: at(13) })).toBe(false);
      });

      it('clears only the given seed when asked to (a recovery never clears a newer binding)', async () => {
        const userId = await newUser();
        await totp.bind(userId, 'old', ['c1'], at(0));
        await totp.clear(userId, { userId: 1, at: at(1) });
        await totp.bind(userId, 'new', ['n1', 'n2'], at(2));
        expect(await totp.clear(userId, { userId: null, at: at(3) }, { sealedSecret: 'old' })).toBe(false);
        expect((await repos.users.findById(userId))?.totpSecret).toBe('new');
        expect(await totp.countUnusedRecoveryCodes(userId)).toBe(2);
        expect(await totp.clear(userId, { userId: null, at: at(4) }, { sealedSecret: 'new' })).toBe(true);
        expect(await repos.users.findById(userId)).toMatchObject({ totpSecret: null, updateUserId: null });
        expect(await totp.countUnusedRecoveryCodes(userId)).toBe(0);
        expect(await totp.clear(userId, { userId: null, at: at(5) }, { sealedSecret: 'new' })).toBe(false);
      });

      it('finds live users by exact phone, several when the number is shared', async () => {
        const phones = createPhoneUserRepository(t.database);
        const solo = await newUser({ phone: '13900000001' });
        const a = await newUser({ phone: '13900000002' });
        const b = await newUser({ phone: '13900000002', enabled: false });
        await newUser({ phone: '13900000003', isDelete: true });
        expect((await phones.findLiveByPhone('13900000001', 2)).map((u) => u.id)).toEqual([solo]);
        expect((await phones.findLiveByPhone('13900000002', 5)).map((u) => u.id)).toEqual([a, b]);
        expect(await phones.findLiveByPhone('13900000002', 1)).toHaveLength(1);
        const c = await newUser({ phone: '13900000002' });
        expect(
          (await phones.findLiveByPhone('13900000002', 5, { enabledOnly: true })).map((u) => u.id),
        ).toEqual([a, c]);
        expect(await phones.findLiveByPhone('13900000003', 2)).toEqual([]);
        expect(await phones.findLiveByPhone('1390000000', 2)).toEqual([]);
        expect(await phones.findLiveByPhone('', 2)).toEqual([]);
      });

      it('adds a high-sensitivity code once, lists and deletes it', async () => {
        const list = createHighSensitivityRepository(t.database);
        const first = await list.add({
          permissionCode: 'POST:/api/v1/x',
          remark: 'r'.repeat(600),
          createTime: at(0),
        });
        expect(first.created).toBe(true);
        const again = await list.add({ permissionCode: 'POST:/api/v1/x', createTime: at(1) });
        expect(again).toEqual({ id: first.id, created: false });
        const second = await list.add({
          permissionCode: 'DELETE:/api/v1/y/{id}',
          createUserId: 1,
          createTime: at(2),
        });
        const rows = await list.list();
        expect(rows.map((r) => r.permissionCode)).toEqual(['POST:/api/v1/x', 'DELETE:/api/v1/y/{id}']);
        expect(rows[0]?.remark).toHaveLength(500);
        expect((await list.findById(second.id))?.createUserId).toBe(1);
        expect(await list.delete(first.id)).toBe(true);
        expect(await list.delete(first.id)).toBe(false);
        expect(await list.findById(first.id)).toBeUndefined();
      });
    },
  );
}

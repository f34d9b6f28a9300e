/**
 * Contract: the repositories behind login and sessions, written once and run on every dialect. Sessions are
 * revoked once and trimmed to the newest N (also under concurrent trims); refresh-token rotation has exactly
 * one winner under concurrency; login logs keep the raw account within the column; password history is
 * trimmed to N; permission codes are the union over enabled grants of a live user.
 */
import { guidV7, isGuidV7 } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositories, type Repositories } from '../../repositories/index.js';
import { RefreshTokenStatus } from '../../rows.js';
import type { DialectFixture } from '../fixtures.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

export function authRepositoriesContract(fixture: DialectFixture): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(`auth repositories (${fixture.dbType})`, () => {
    let t: OpenTestDatabase;
    let repos: Repositories;
    let accountSeq = 0;
    const newUser = (extra: { enabled?: boolean; isDelete?: boolean } = {}) =>
      repos.users.insert({ account: `u${++accountSeq}`, realName: 'U', password: 'h', ...extra });

    beforeAll(async () => {
      t = await openTestDatabase(fixture.dbType);
      repos = createRepositories(t.database);
    });
    afterAll(() => t?.cleanup());

    describe('sessions', () => {
      it('inserts with a GUID v7, finds, touches while live and revokes exactly once', async () => {
        const userId = await newUser();
        const id = await repos.sessions.insert({
          userId,
          account: 'a'.repeat(80),
          ip: '203.0.113.9',
          userAgent: 'x'.repeat(600),
          createTime: at(0),
          absoluteExpiresAt: at(3600),
        });
        expect(isGuidV7(id)).toBe(true);
        const row = await repos.sessions.findById(id);
        expect(row).toMatchObject({ userId, isMfa: false, revokedAt: null, ip: '203.0.113.9' });
        expect(row?.account).toHaveLength(64);
        expect(row?.userAgent).toHaveLength(500);
        expect(row?.lastActivityTime.toISOString()).toBe(at(0).toISOString());
        expect(row?.absoluteExpiresAt?.toISOString()).toBe(at(3600).toISOString());

        expect(await repos.sessions.touch(id, at(30))).toBe(true);
        expect((await repos.sessions.findById(id))?.lastActivityTime.toISOString()).toBe(
          at(30).toISOString(),
        );
        // The same instant again still counts as live (MySQL counts matched rows, not changed ones).
        expect(await repos.sessions.touch(id, at(30))).toBe(true);

        expect(await repos.sessions.revoke(id, 'logout', at(40))).toBe(true);
        expect(await repos.sessions.revoke(id, 'again', at(50))).toBe(false);
        const revoked = await repos.sessions.findById(id);
        expect(revoked?.revokedAt?.toISOString()).toBe(at(40).toISOString());
        expect(revoked?.revokeReason).toBe('logout');
        expect(await repos.sessions.touch(id, at(60))).toBe(false);
        expect(await repos.sessions.findById(guidV7())).toBeUndefined();
      });

      it('finds many sessions by id, revoked ones too, missing ones left out', async () => {
        const userId = await newUser();
        const live = await repos.sessions.insert({ userId, account: 'm', createTime: at(0) });
        const revoked = await repos.sessions.insert({ userId, account: 'm', createTime: at(1) });
        await repos.sessions.revoke(revoked, 'forced', at(2));
        const rows = await repos.sessions.findByIds([live, guidV7(), revoked, live]);
        expect(rows.map((r) => r.id).sort()).toEqual([live, revoked].sort());
        expect(rows.find((r) => r.id === revoked)?.revokeReason).toBe('forced');
        expect(await repos.sessions.findByIds([])).toEqual([]);
      });

      it('revokes all of a user but one, and lists live sessions newest first', async () => {
        const userId = await newUser();
        const other = await newUser();
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          ids.push(await repos.sessions.insert({ userId, account: 'u', createTime: at(i) }));
        }
        const foreign = await repos.sessions.insert({ userId: other, account: 'o', createTime: at(0) });
        expect((await repos.sessions.listLive(userId)).map((s) => s.id)).toEqual([...ids].reverse());

        const revoked = await repos.sessions.revokeAllOfUser(userId, 'disabled', at(9), {
          exceptSessionId: ids[1],
        });
        expect(revoked.sort()).toEqual([ids[0], ids[2]].sort());
        expect((await repos.sessions.listLive(userId)).map((s) => s.id)).toEqual([ids[1]]);
        expect(await repos.sessions.revokeAllOfUser(userId, 'deleted', at(10))).toEqual([ids[1]]);
        expect(await repos.sessions.listLive(userId)).toEqual([]);
        expect((await repos.sessions.findById(foreign))?.revokedAt).toBeNull();
      });

      it('trims to the newest N by create time, then id', async () => {
        const userId = await newUser();
        const old = await repos.sessions.insert({ userId, account: 'u', createTime: at(0) });
        // Same create time: the later GUID v7 is the newer session.
        const sameA = await repos.sessions.insert({ userId, account: 'u', createTime: at(5) });
        const sameB = await repos.sessions.insert({ userId, account: 'u', createTime: at(5) });
        expect(sameB > sameA).toBe(true);
        expect(await repos.sessions.trimToNewest(userId, 2, 'max-concurrent', at(6))).toEqual([old]);
        expect(await repos.sessions.trimToNewest(userId, 1, 'single', at(7))).toEqual([sameA]);
        expect((await repos.sessions.listLive(userId)).map((s) => s.id)).toEqual([sameB]);
        expect(await repos.sessions.trimToNewest(userId, 0, 'all', at(8))).toEqual([sameB]);
        await expect(repos.sessions.trimToNewest(userId, -1, 'x', at(8))).rejects.toThrow(RangeError);
      });

      it('converges when logins insert and trim concurrently', async () => {
        const userId = await newUser();
        const inserted = await Promise.all(
          Array.from({ length: 6 }, async (_, i) => {
            const id = await repos.sessions.insert({ userId, account: 'u', createTime: at(100 + i) });
            await repos.sessions.trimToNewest(userId, 2, 'max-concurrent', at(200));
            return id;
          }),
        );
        // Whatever the interleaving, the trim that read last saw every row, and no earlier trim can have
        // revoked one of the two newest: they are what remains.
        const live = (await repos.sessions.listLive(userId)).map((s) => s.id);
        expect(live).toEqual([inserted[5], inserted[4]]);
      });
    });

    describe('refresh tokens', () => {
      const hash = (n: number) => n.toString(16).padStart(64, '0');

      it('stores Active, finds by hash and rotates once', async () => {
        const sessionId = guidV7();
        const id = await repos.refreshTokens.insert({
          sessionId,
          tokenHash: hash(1),
          expiresAt: at(600),
          createTime: at(0),
        });
        const row = await repos.refreshTokens.findByHash(hash(1));
        expect(row).toMatchObject({ id, sessionId, status: RefreshTokenStatus.Active, usedTime: null });
        expect(row?.expiresAt.toISOString()).toBe(at(600).toISOString());
        expect(await repos.refreshTokens.findByHash(hash(999))).toBeUndefined();

        expect(await repos.refreshTokens.markUsedIfActive(id, at(5))).toBe(true);
        expect(await repos.refreshTokens.markUsedIfActive(id, at(6))).toBe(false);
        const used = await repos.refreshTokens.findByHash(hash(1));
        expect(used?.status).toBe(RefreshTokenStatus.Used);
        expect(used?.usedTime?.toISOString()).toBe(at(5).toISOString());
      });

      it('lets exactly one of ten concurrent rotations win', async () => {
        const id = await repos.refreshTokens.insert({
          sessionId: guidV7(),
          tokenHash: hash(2),
          expiresAt: at(600),
          createTime: at(0),
        });
        const results = await Promise.all(
          Array.from({ length: 10 }, () => repos.refreshTokens.markUsedIfActive(id, at(1))),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('revokes only Active tokens, per session, per session list and per user', async () => {
        const userId = await newUser();
        const otherUser = await newUser();
        const s1 = await repos.sessions.insert({ userId, account: 'u', createTime: at(0) });
        const s2 = await repos.sessions.insert({ userId, account: 'u', createTime: at(1) });
        const s3 = await repos.sessions.insert({ userId: otherUser, account: 'o', createTime: at(1) });
        const add = (sessionId: string, n: number) =>
          repos.refreshTokens.insert({
            sessionId,
            tokenHash: hash(n),
            expiresAt: at(600),
            createTime: at(0),
          });
        const used = await add(s1, 10);
        await repos.refreshTokens.markUsedIfActive(used, at(2));
        await add(s1, 11);
        await add(s2, 12);
        await add(s3, 13);

        expect(await repos.refreshTokens.revokeAllOfSession(s1)).toBe(1);
        const statuses = async (sessionId: string) =>
          (await repos.refreshTokens.listBySession(sessionId)).map((r) => r.status);
        expect(await statuses(s1)).toEqual([RefreshTokenStatus.Used, RefreshTokenStatus.Revoked]);

        await add(s1, 14);
        expect(await repos.refreshTokens.revokeAllOfUser(userId)).toBe(2);
        expect(await statuses(s2)).toEqual([RefreshTokenStatus.Revoked]);
        expect(await statuses(s3)).toEqual([RefreshTokenStatus.Active]);
        expect(await repos.refreshTokens.revokeAllOfSessions([s3, guidV7()])).toBe(1);
        expect(await repos.refreshTokens.revokeAllOfSessions([])).toBe(0);
      });
    });

    describe('login logs', () => {
      it('keeps the raw account within the column, pages newest first and clears with a count', async () => {
        await repos.loginLogs.deleteAll();
        const userId = await newUser();
        await repos.loginLogs.insert({
          account: ` ${'Ａ'.repeat(200)} `,
          success: false,
          resultCode: 40001,
          ip: '198.51.100.7',
          userAgent: 'ua',
          createTime: at(0),
        });
        await repos.loginLogs.insert({
          account: 'u',
          success: true,
          resultCode: 0,
          userId,
          createTime: at(1),
        });
        const page = await repos.loginLogs.page({ current: 1, size: 10 });
        expect(page.total).toBe(2);
        expect(page.items[0]).toMatchObject({ account: 'u', success: true, resultCode: 0, userId, ip: null });
        expect(page.items[1]).toMatchObject({
          success: false,
          resultCode: 40001,
          userId: null,
          userAgent: 'ua',
        });
        expect(page.items[1]?.account).toBe(` ${'Ａ'.repeat(127)}`);
        expect(await repos.loginLogs.deleteAll()).toBe(2);
      });
    });

    describe('password history', () => {
      it('keeps the newest N hashes and deletes all at N = 0', async () => {
        const userId = await newUser();
        const other = await newUser();
        await repos.passwordHistory.add(other, 'other', 5, at(0));
        for (let i = 1; i <= 5; i++) await repos.passwordHistory.add(userId, `h${i}`, 3, at(i));
        expect(await repos.passwordHistory.listNewest(userId, 10)).toEqual(['h5', 'h4', 'h3']);
        expect(await repos.passwordHistory.listNewest(userId, 2)).toEqual(['h5', 'h4']);
        expect(await repos.passwordHistory.listNewest(userId, 0)).toEqual([]);
        // Equal timestamps: the later row is the newer one.
        await repos.passwordHistory.add(userId, 'h6', 3, at(5));
        expect(await repos.passwordHistory.listNewest(userId, 10)).toEqual(['h6', 'h5', 'h4']);
        expect(await repos.passwordHistory.trim(userId, 1)).toBe(2);
        expect(await repos.passwordHistory.listNewest(userId, 10)).toEqual(['h6']);
        await repos.passwordHistory.add(userId, 'h7', 0, at(9));
        expect(await repos.passwordHistory.listNewest(userId, 10)).toEqual([]);
        expect(await repos.passwordHistory.listNewest(other, 10)).toEqual(['other']);
      });
    });

    describe('permissions', () => {
      it('unions the codes of enabled menus over enabled roles of a live user', async () => {
        const { adapter, db, tables } = t.database;
        const menu = (permission: string | null, extra: { enabled?: boolean; isDelete?: boolean } = {}) =>
          adapter.insertReturningId(db, tables.sysMenu, { type: 'button', title: 'b', permission, ...extra });
        const role = (code: string, extra: { enabled?: boolean; isDelete?: boolean } = {}) =>
          adapter.insertReturningId(db, tables.sysRole, { name: code, code, ...extra });
        const grant = (roleId: number, menuIds: number[]) =>
          db.insert(tables.sysRoleMenu).values(menuIds.map((menuId) => ({ roleId, menuId })));
        const assign = (userId: number, roleIds: number[]) =>
          db.insert(tables.sysUserRole).values(roleIds.map((roleId) => ({ userId, roleId })));

        const m1 = await menu(' GET:/a ;POST:/a;; ');
        const m2 = await menu('GET:/b');
        const m3 = await menu('GET:/disabled', { enabled: false });
        const m4 = await menu('GET:/deleted', { isDelete: true });
        const m5 = await menu(null);
        const m6 = await menu('GET:/via-disabled-role');
        const m7 = await menu('GET:/via-deleted-role');
        const live = await role('perm_live');
        const second = await role('perm_second');
        const disabledRole = await role('perm_disabled', { enabled: false });
        const deletedRole = await role('perm_deleted', { isDelete: true });
        await grant(live, [m1, m3, m4, m5]);
        await grant(second, [m1, m2]);
        await grant(disabledRole, [m6]);
        await grant(deletedRole, [m7]);

        const user = await newUser();
        await assign(user, [live, second, disabledRole, deletedRole]);
        expect(await repos.permissions.codesOfUser(user)).toEqual(['GET:/a', 'GET:/b', 'POST:/a']);

        const disabledUser = await newUser({ enabled: false });
        const deletedUser = await newUser({ isDelete: true });
        await assign(disabledUser, [live]);
        await assign(deletedUser, [live]);
        expect(await repos.permissions.codesOfUser(disabledUser)).toEqual([]);
        expect(await repos.permissions.codesOfUser(deletedUser)).toEqual([]);
        expect(await repos.permissions.codesOfUser(await newUser())).toEqual([]);
        expect(await repos.permissions.codesOfUser(987_654)).toEqual([]);
      });
    });

    describe('users: login bookkeeping', () => {
      it('records the login, sets the flag, fills a null anchor once and rehashes only the expected hash', async () => {
        const id = await newUser();
        expect(await repos.users.recordLogin(id, { at: at(1), ip: '192.0.2.1' })).toBe(true);
        expect(await repos.users.setMustChangePassword(id, true)).toBe(true);
        expect(await repos.users.fillPasswordChangeTime(id, at(2))).toBe(true);
        expect(await repos.users.fillPasswordChangeTime(id, at(3))).toBe(false);
        expect(await repos.users.replacePasswordHash(id, 'not-the-hash', 'x')).toBe(false);
        expect(await repos.users.replacePasswordHash(id, 'h', 'h2')).toBe(true);
        const row = await repos.users.findById(id);
        expect(row).toMatchObject({ lastLoginIp: '192.0.2.1', mustChangePassword: true, password: 'h2' });
        expect(row?.lastLoginTime?.toISOString()).toBe(at(1).toISOString());
        expect(row?.lastPasswordChangeTime?.toISOString()).toBe(at(2).toISOString());
        expect(await repos.users.recordLogin(987_654, { at: at(1), ip: null })).toBe(false);
      });
    });
  });
}

/**
 * The dashboard summary over HTTP, with a pinned clock: two callers of different data scopes (All, and own
 * organisation) see different user counts, online sessions and login trends; the trend covers the last seven
 * UTC days, today last; failed logins and logins older than the window do not count; the kill-switch removes it.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD } from '../../testing/index.js';
import { type AdminHarness, startAdminServer } from '../admin/harness.contract.js';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const day = (offset: number, hour = 9) => new Date(Date.UTC(2026, 2, 10 + offset, hour));

export function defineDashboardContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`dashboard summary on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    const ids = {} as Record<'wide' | 'narrow' | 'inB' | 'inA', number>;
    let orgB: number;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache, { now: () => NOW });
      const orgA = await h.org('dash-a');
      orgB = await h.org('dash-b');
      const all = await h.role('dash_all', [], { scopeType: 1 });
      const own = await h.role('dash_own', [], { scopeType: 2 });
      ids.wide = await h.user('dash-wide', { orgId: orgA, roleIds: [all] });
      ids.narrow = await h.user('dash-narrow', { orgId: orgB, roleIds: [own] });
      ids.inB = await h.user('dash-b-user', { orgId: orgB });
      ids.inA = await h.user('dash-a-user', { orgId: orgA });
      const logs = h.t.server.database.repos.loginLogs;
      const log = (userId: number, createTime: Date, success = true) =>
        logs.insert({ account: `u${userId}`, success, resultCode: success ? 0 : 40001, userId, createTime });
      // Six days ago: two logins of the B user (one user), one of the A user.
      await log(ids.inB, day(-6));
      await log(ids.inB, day(-6, 15));
      await log(ids.inA, day(-6));
      // Yesterday: one A login, one failed B login (not counted); eight days ago: outside the window.
      await log(ids.inA, day(-1));
      await log(ids.inB, day(-1), false);
      await log(ids.inB, day(-8));
    });
    afterAll(() => h?.close());

    it("answers counts and a 7-day trend within each caller's data scope", async () => {
      // Logging in writes today's rows (one each) and opens one online session each.
      const wide = await h.loginAs('dash-wide');
      const narrow = await h.loginAs('dash-narrow');
      const get = async (token: string) => (await h.call('GET', '/api/v1/dashboard/summary', { token })).body;
      const w = await get(wide);
      expect(w.code).toBe(0);
      expect(w.data.trendDays).toEqual(['03-04', '03-05', '03-06', '03-07', '03-08', '03-09', '03-10']);
      // All scope: every live user (the seed's admin plus four), both sessions, all logins.
      expect(w.data.users).toBe(5);
      expect(w.data.onlineSessions).toBeGreaterThanOrEqual(3); // the harness admin, wide, narrow
      expect(w.data.trendLogins).toEqual([3, 0, 0, 0, 0, 1, 2 + 1]);
      expect(w.data.trendActiveUsers).toEqual([2, 0, 0, 0, 0, 1, 3]);
      expect(w.data.roles).toBeGreaterThanOrEqual(8);
      expect(w.data.perms).toBeGreaterThan(50);

      // Own organisation (B): the two B users only, their session and logins.
      const n = (await get(narrow)).data;
      expect(n.users).toBe(2);
      expect(n.onlineSessions).toBe(1);
      expect(n.trendLogins).toEqual([2, 0, 0, 0, 0, 0, 1]);
      expect(n.trendActiveUsers).toEqual([1, 0, 0, 0, 0, 0, 1]);
      expect(n.roles).toBe(w.data.roles);
      // Moving the A user into B widens what the narrow caller sees at once.
      await h.ok('PUT', `/api/v1/sys/user/${ids.inA}`, { json: { orgId: orgB } });
      const moved = (await get(narrow)).data;
      expect(moved.users).toBe(3);
      expect(moved.trendLogins).toEqual([3, 0, 0, 0, 0, 1, 1]);
      expect((await h.call('GET', '/api/v1/dashboard/summary', { token: '' })).status).toBe(401);
    });

    it('the kill-switch Dashboard removes the route', async () => {
      const off = await startTestServer({
        dbType,
        cache,
        env: { Service__Api__DisabledModules__0: 'Dashboard' },
      });
      try {
        const session = await login(off, 'superAdmin', TEST_ADMIN_PASSWORD);
        const res = await off.request('/api/v1/dashboard/summary', { headers: bearer(session.accessToken) });
        expect(res.status).toBe(404);
      } finally {
        await off.close();
      }
    });
  });
}

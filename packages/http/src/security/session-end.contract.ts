/**
 * Sessions that end when they should, and only then (issue 9), over HTTP on every dialect; with Redis the
 * revocation and refresh-race tests run on two instances sharing database and cache:
 * - a password change, an admin reset and an MFA clear end the other sessions on every instance;
 * - concurrent refreshes of one token, split over two instances, leave one winner and a live session; reuse
 *   after the interval revokes and is written to the login log with the request's trace id;
 * - cookie mode refuses cross-site writes and doubled session cookies (40023, written to the login log);
 * - rate-limit refusals are counted and logged once per client and window, never a row each.
 */
import type { SysLoginLogRow } from '@svc/data';
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login, loginRaw } from '../testing/auth.js';
import {
  grantPermissions,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../testing/index.js';

const ADMIN = 'superAdmin';

/** A clock both instances share; tests move it instead of sleeping. */
function sharedClock() {
  let at = Date.now();
  return {
    now: () => new Date(at),
    advanceSeconds(seconds: number) {
      at += seconds * 1000;
    },
  };
}

function cookiesOf(res: Response): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const [name, ...rest] = (pair ?? '').split('=');
    jar.set(name ?? '', rest.join('='));
  }
  return jar;
}

async function loginLogRows(t: TestServer): Promise<SysLoginLogRow[]> {
  return (await t.server.database.repos.loginLogs.page({ current: 1, size: 500 })).items;
}

export function defineSessionEndContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`sessions end when they should on ${dbType} with ${cache}`, () => {
    const clock = sharedClock();
    let a: TestServer;
    /** The second instance (Redis), or the first again (in-process cache: one instance only). */
    let b: TestServer;
    let admin: string;
    beforeAll(async () => {
      const env = {
        Service__Security__RateLimit__Enabled: 'false',
        Service__Security__LoginLock__MaxFailCount: '0',
        Service__Cache__Redis__KeyPrefix: `svc-test-${Math.random().toString(36).slice(2, 10)}:`,
      };
      a = await startTestServer({ dbType, cache, env, now: clock.now });
      b =
        cache === 'Redis'
          ? await startTestServer({
              dbType,
              cache,
              env,
              now: clock.now,
              reuse: { database: a.database, contentRoot: a.contentRoot },
            })
          : a;
      admin = (await login(a, ADMIN, TEST_ADMIN_PASSWORD)).accessToken;
    });
    afterAll(async () => {
      if (b && b !== a) await b.stop();
      await a?.close();
    });

    const ping = (t: TestServer, token: string) => t.request('/api/v1/ping', { headers: bearer(token) });
    const refresh = (t: TestServer, refreshToken: string, headers: Record<string, string> = {}) =>
      t.request('/api/v1/auth/refresh', { json: { refreshToken }, headers });
    async function expectEnded(token: string, refreshToken: string) {
      for (const t of [a, b]) {
        const res = await ping(t, token);
        expect(res.status).toBe(401);
        expect((await json(res)).code).toBe(40006);
      }
      expect((await json(await refresh(b, refreshToken))).code).toBe(40007);
    }
    async function expectAlive(token: string) {
      for (const t of [a, b]) expect((await ping(t, token)).status).toBe(200);
    }
    let seq = 0;
    async function newUser() {
      const account = `se${++seq}_${Math.random().toString(36).slice(2, 8)}`;
      const id = await grantPermissions(a, { account, permissions: [] });
      return { id, account };
    }

    it('a password change ends every other session on every instance; the caller keeps theirs', async () => {
      const user = await newUser();
      const own = await login(a, user.account, TEST_USER_PASSWORD);
      const other = await login(b, user.account, TEST_USER_PASSWORD);
      await expectAlive(other.accessToken); // warm copies and verified tokens on both instances
      const changed = await a.request('/api/v1/personal/password', {
        method: 'PUT',
        headers: bearer(own.accessToken),
        json: { oldPassword: TEST_USER_PASSWORD, newPassword: 'Fresh#Pass2468' },
      });
      expect((await json(changed)).code).toBe(0);
      await expectEnded(other.accessToken, other.refreshToken);
      await expectAlive(own.accessToken);
      expect((await json(await refresh(a, own.refreshToken))).code).toBe(0);
    });

    it('an admin password reset and an MFA clear end every session of the target on every instance', async () => {
      const user = await newUser();
      const first = await login(a, user.account, TEST_USER_PASSWORD);
      const second = await login(b, user.account, TEST_USER_PASSWORD);
      await expectAlive(second.accessToken);
      const reset = await a.request(`/api/v1/sys/user/${user.id}/password`, {
        method: 'PUT',
        headers: bearer(admin),
      });
      const resetBody = await json(reset);
      expect(resetBody.code).toBe(0);
      await expectEnded(first.accessToken, first.refreshToken);
      await expectEnded(second.accessToken, second.refreshToken);
      await expectAlive(admin);

      const again = await login(b, user.account, resetBody.data.password);
      await expectAlive(again.accessToken);
      const cleared = await a.request('/api/v1/sys/mfa/clear', {
        json: { userId: user.id },
        headers: bearer(admin),
      });
      expect((await json(cleared)).code).toBe(0);
      await expectEnded(again.accessToken, again.refreshToken);
      await expectAlive(admin);
    });

    it('clearing one’s own MFA keeps the calling session and ends the others', async () => {
      const mine = await login(b, ADMIN, TEST_ADMIN_PASSWORD);
      const cleared = await a.request('/api/v1/sys/mfa/clear', {
        json: { userId: 1 },
        headers: bearer(admin),
      });
      expect((await json(cleared)).code).toBe(0);
      await expectAlive(admin);
      await expectEnded(mine.accessToken, mine.refreshToken);
    });

    it('lets exactly one of concurrent refreshes over two instances win, 20 rounds, without ending the session', async () => {
      const user = await newUser();
      const issued = await login(a, user.account, TEST_USER_PASSWORD);
      let token = issued.refreshToken;
      let access = issued.accessToken;
      for (let round = 0; round < 20; round++) {
        const results = await Promise.all(
          Array.from({ length: 6 }, async (_, i) => json(await refresh(i % 2 ? b : a, token))),
        );
        const winners = results.filter((r) => r.code === 0);
        expect(winners).toHaveLength(1);
        expect(results.filter((r) => r.code === 40007)).toHaveLength(5);
        token = winners[0].data.refreshToken;
        access = winners[0].data.accessToken;
        await expectAlive(access);
        clock.advanceSeconds(60);
      }
      const rows = await loginLogRows(a);
      expect(rows.filter((r) => r.userId === user.id && r.resultCode === 40007)).toHaveLength(0);

      // Replay after the interval: the session ends and the event is in the login log with the trace id.
      const next = await json(await refresh(b, token));
      expect(next.code).toBe(0);
      clock.advanceSeconds(6);
      const replay = await refresh(a, token);
      expect((await json(replay)).code).toBe(40007);
      await expectEnded(next.data.accessToken, next.data.refreshToken);
      const events = (await loginLogRows(a)).filter((r) => r.userId === user.id && r.resultCode === 40007);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ account: user.account, success: false });
      expect(events[0]?.traceId).toBe(replay.headers.get('x-trace-id'));
    });

    it('writes the request trace id on every login-log row and shows it on the login-log page', async () => {
      const ok = await loginRaw(b, ADMIN, TEST_ADMIN_PASSWORD);
      const bad = await loginRaw(a, 'no-such-account', 'Wrong#Pass123');
      expect(bad.body.code).toBe(40001);
      const rows = await loginLogRows(a);
      for (const res of [ok.res, bad.res]) {
        const traceId = res.headers.get('x-trace-id');
        expect(traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(rows.filter((r) => r.traceId === traceId)).toHaveLength(1);
      }
      const page = await json(
        await a.request('/api/v1/sys/log/login/page?current=1&size=5', { headers: bearer(admin) }),
      );
      expect(page.code).toBe(0);
      expect(page.data.items.map((r: { traceId: string }) => r.traceId)).toContain(
        bad.res.headers.get('x-trace-id'),
      );
    });
  });

  describe(`cookie mode refuses cross-site writes and doubled cookies on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        cache,
        env: {
          Service__Security__Session__CookieMode: 'true',
          Service__Security__Session__AllowedOrigins__0: 'https://console.example.test',
          Service__Security__RateLimit__Enabled: 'false',
          Service__Security__LoginLock__MaxFailCount: '0',
        },
      });
    });
    afterAll(() => t?.close());

    async function cookieSession() {
      const { res, body } = await loginRaw(t, ADMIN, TEST_ADMIN_PASSWORD);
      const jar = cookiesOf(res);
      const csrf = jar.get('app_csrf') ?? '';
      const rt = jar.get('app_rt') ?? '';
      return { access: body.data?.accessToken ?? '', csrf, rt, cookie: `app_rt=${rt}; app_csrf=${csrf}` };
    }
    /** A harmless write: a wrong old password answers 40001 once the CSRF checks pass (the lock is off). */
    const write = (s: Awaited<ReturnType<typeof cookieSession>>, headers: Record<string, string>) =>
      t.request('/api/v1/personal/password', {
        method: 'PUT',
        headers: { ...bearer(s.access), cookie: s.cookie, 'x-app-csrf': s.csrf, ...headers },
        json: { oldPassword: 'not-it', newPassword: 'Whatever#123' },
      });

    it('accepts same-origin, same-site, allowed and Origin-less writes', async () => {
      const s = await cookieSession();
      const cases: Record<string, string>[] = [
        {},
        { origin: 'http://localhost' },
        { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'https://console.example.test', 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of cases) {
        expect((await json(await write(s, headers))).code).toBe(40001);
      }
    });

    it('refuses cross-site writes and refreshes with 403/40023 and writes each to the login log', async () => {
      const s = await cookieSession();
      const before = (await loginLogRows(t)).filter((r) => r.resultCode === 40023).length;
      const refused: Response[] = [];
      const cases: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'http://localhost.evil.example' },
        { origin: 'http://localhost:8080' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'http://localhost', 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of cases) {
        const res = await write(s, headers);
        expect(res.status).toBe(403);
        expect((await json(res)).code).toBe(40023);
        refused.push(res);
      }
      const crossRefresh = await t.request('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { cookie: s.cookie, 'x-app-csrf': s.csrf, origin: 'https://evil.example' },
      });
      expect(crossRefresh.status).toBe(403);
      expect((await json(crossRefresh)).code).toBe(40023);

      const rows = (await loginLogRows(t)).filter((r) => r.resultCode === 40023);
      expect(rows).toHaveLength(before + refused.length + 1);
      for (const res of refused) {
        const row = rows.find((r) => r.traceId === res.headers.get('x-trace-id'));
        expect(row).toMatchObject({ account: ADMIN, userId: 1, success: false });
      }
      const refreshRow = rows.find((r) => r.traceId === crossRefresh.headers.get('x-trace-id'));
      expect(refreshRow).toMatchObject({ account: ADMIN, userId: 1, success: false });
      // The refused refresh changed nothing: the token still rotates from our own origin.
      const ok = await t.request('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { cookie: s.cookie, 'x-app-csrf': s.csrf, origin: 'http://localhost' },
      });
      expect((await json(ok)).code).toBe(0);
    });

    it('refuses a request carrying two session cookies of one name, whichever comes first', async () => {
      const s = await cookieSession();
      const other = await cookieSession();
      for (const cookie of [
        `app_rt=${s.rt}; app_csrf=${s.csrf}; app_csrf=${other.csrf}`,
        `app_csrf=${other.csrf}; app_rt=${s.rt}; app_csrf=${s.csrf}`,
        `app_csrf=${s.csrf}; app_csrf=${s.csrf}`,
      ]) {
        const res = await write(s, { cookie });
        expect(res.status).toBe(403);
        expect((await json(res)).code).toBe(40023);
      }
      const doubledRefresh = await t.request('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { cookie: `app_rt=${other.rt}; app_rt=${s.rt}; app_csrf=${s.csrf}`, 'x-app-csrf': s.csrf },
      });
      expect(doubledRefresh.status).toBe(403);
      expect((await json(doubledRefresh)).code).toBe(40023);
      // Single cookies still work.
      expect((await json(await write(s, {}))).code).toBe(40001);
    });
  });

  describe(`rate-limit refusals on ${dbType} with ${cache}`, () => {
    it('are counted and logged as one warning per client and window, never a login-log row each', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        env: { Service__Security__RateLimit__PermitPerWindow: '3' },
      });
      try {
        const rowsBefore = (await loginLogRows(t)).length;
        const statuses = await Promise.all(
          Array.from({ length: 15 }, async () => (await t.request('/api/v1/meta/error-codes')).status),
        );
        expect(statuses.filter((s) => s === 429)).toHaveLength(12);
        const warnings = () => t.logs.filter((l) => l.includes('Rate limit reached'));
        expect(warnings()).toHaveLength(1);
        expect(t.server.deps.security.rateLimiter.stats().refused).toBe(12);
        expect(await t.request('/api/v1/meta/error-codes').then((r) => r.status)).toBe(429);
        expect(warnings()).toHaveLength(1);
        expect(t.server.deps.security.rateLimiter.stats().refused).toBe(13);
        expect((await loginLogRows(t)).length).toBe(rowsBefore);
      } finally {
        await t.close();
      }
    });
  });
}

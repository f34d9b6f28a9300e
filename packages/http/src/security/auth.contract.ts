/**
 * Login, tokens and sessions over HTTP (spec "Authentication", "States and transitions"), run on every dialect
 * and cache provider by `security.<dialect>.int.test.ts`.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, decodeJwt, json, login, loginRaw, signJwt } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';

const ADMIN = 'superAdmin';

export function defineAuthContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`authentication on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    // The service clock: moved past the refresh reuse interval instead of sleeping.
    let offsetMs = 0;
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        cache,
        now: () => new Date(Date.now() + offsetMs),
        env: {
          Service__Security__LoginLock__MaxFailCount: '3',
          Service__Security__RateLimit__Enabled: 'false',
        },
      });
    });
    afterAll(() => t?.close());

    const ping = (token: string) => t.request('/api/v1/ping', { headers: bearer(token) });

    it('logs in and answers the login output and ping', async () => {
      const { res, body } = await loginRaw(t, ADMIN, TEST_ADMIN_PASSWORD);
      expect(res.status).toBe(200);
      expect(body.code).toBe(0);
      const data = body.data!;
      expect(data).toMatchObject({
        account: ADMIN,
        isSuperAdmin: true,
        mustChangePassword: false,
        sessionMode: 'token',
        csrfRequired: false,
      });
      expect(data.refreshToken.length).toBeGreaterThan(30);
      expect(Date.parse(data.expiresAt)).toBeGreaterThan(Date.now());
      const claims = decodeJwt(data.accessToken);
      expect(claims).toMatchObject({
        sub: String(data.userId),
        sadm: true,
        unique_name: ADMIN,
        iss: 'Service',
      });
      expect(claims.sid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
      const pong = await ping(data.accessToken);
      expect(pong.status).toBe(200);
      expect((await json(pong)).data).toMatchObject({ pong: true, account: ADMIN });
    });

    it('answers 401 with 40006 without, with a malformed or with a foreign token', async () => {
      for (const headers of [
        {},
        { authorization: 'Bearer' },
        { authorization: 'Basic abc' },
        bearer('a.b.c'),
      ]) {
        const res = await t.request('/api/v1/ping', { headers });
        expect(res.status).toBe(401);
        expect(await json(res)).toMatchObject({
          code: 40006,
          msgKey: 'error.auth.tokenInvalid',
          data: null,
        });
      }
    });

    it('refuses forged tokens: alg none, other HMAC algorithms, edited payload, wrong issuer, expired beyond skew', async () => {
      const good = await login(t, ADMIN, TEST_ADMIN_PASSWORD);
      const claims = decodeJwt(good.accessToken);
      const key = t.server.jwtKey.key;
      const now = Math.floor(Date.now() / 1000);
      const [h, , s] = good.accessToken.split('.');
      const edited = `${h}.${Buffer.from(JSON.stringify({ ...claims, unique_name: 'mallory' })).toString('base64url')}.${s}`;
      const forgeries = [
        `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${good.accessToken.split('.')[1]}.`,
        signJwt({ alg: 'HS512', typ: 'JWT' }, claims, key, 'sha512'),
        signJwt({ alg: 'HS384', typ: 'JWT' }, claims, key, 'sha384'),
        edited,
        signJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iss: 'Other' }, key),
        signJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 7200, exp: now - 31 }, key),
        signJwt({ alg: 'HS256', typ: 'JWT' }, claims, Buffer.alloc(64, 1)),
      ];
      for (const token of forgeries) expect((await ping(token)).status).toBe(401);
      // Within the 30 s skew an expired token still passes: the check is the spec's, not stricter.
      const withinSkew = signJwt(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, iat: now - 600, exp: now - 5 },
        key,
      );
      expect((await ping(withinSkew)).status).toBe(200);
    });

    it('rotates refresh tokens and revokes the whole session when a used one comes back', async () => {
      const first = await login(t, ADMIN, TEST_ADMIN_PASSWORD);
      const refreshed = await t.request('/api/v1/auth/refresh', {
        json: { refreshToken: first.refreshToken },
      });
      const second = (await json(refreshed)).data;
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect((await ping(second.accessToken)).status).toBe(200);
      // Past `RefreshReuseIntervalSeconds` (5): reuse is replay, not a racing tab (contract §10).
      offsetMs += 6_000;
      const replay = await json(
        await t.request('/api/v1/auth/refresh', { json: { refreshToken: first.refreshToken } }),
      );
      expect(replay.code).toBe(40007);
      expect((await ping(second.accessToken)).status).toBe(401);
      expect((await ping(first.accessToken)).status).toBe(401);
      const afterTheft = await json(
        await t.request('/api/v1/auth/refresh', { json: { refreshToken: second.refreshToken } }),
      );
      expect(afterTheft.code).toBe(40007);
    });

    it('lets exactly one of N concurrent refreshes of one token win, leaving one live refresh token', async () => {
      const session = await login(t, ADMIN, TEST_ADMIN_PASSWORD);
      const results = await Promise.all(
        Array.from({ length: 8 }, async () =>
          json(await t.request('/api/v1/auth/refresh', { json: { refreshToken: session.refreshToken } })),
        ),
      );
      const winners = results.filter((r) => r.code === 0);
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r.code !== 0).every((r) => r.code === 40007)).toBe(true);
      const next = await json(
        await t.request('/api/v1/auth/refresh', { json: { refreshToken: winners[0].data.refreshToken } }),
      );
      expect(next.code).toBe(0);
      expect((await ping(next.data.accessToken)).status).toBe(200);
    });

    it('logs out with immediate effect on the access token and the refresh token', async () => {
      const session = await login(t, ADMIN, TEST_ADMIN_PASSWORD);
      const out = await t.request('/api/v1/auth/logout', {
        method: 'POST',
        headers: bearer(session.accessToken),
      });
      expect((await json(out)).code).toBe(0);
      expect((await ping(session.accessToken)).status).toBe(401);
      const refresh = await json(
        await t.request('/api/v1/auth/refresh', { json: { refreshToken: session.refreshToken } }),
      );
      expect(refresh.code).toBe(40007);
    });

    it('gives a browser that asks for it a cookie session without CookieMode; API clients keep body tokens', async () => {
      // The console asks (`X-App-Session-Mode: cookie`): its refresh token must never be readable by page script.
      const jar = (res: Response) => {
        const out = new Map<string, string>();
        for (const line of res.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const eq = pair.indexOf('=');
          out.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        return out;
      };
      const plain = await loginRaw(t, ADMIN, TEST_ADMIN_PASSWORD, { 'x-app-session-mode': 'token' });
      expect(plain.body.data).toMatchObject({ sessionMode: 'token', csrfRequired: false });
      expect(plain.body.data!.refreshToken.length).toBeGreaterThan(30);
      expect(plain.res.headers.getSetCookie()).toEqual([]);

      for (const asked of ['cookie', ' COOKIE ']) {
        const { res, body } = await loginRaw(t, ADMIN, TEST_ADMIN_PASSWORD, { 'x-app-session-mode': asked });
        expect(body.data).toMatchObject({ refreshToken: '', sessionMode: 'cookie', csrfRequired: true });
        const lines = res.headers.getSetCookie();
        expect(lines.find((l) => l.startsWith('app_rt='))).toMatch(/HttpOnly/i);
        expect(lines.find((l) => l.startsWith('app_rt='))).toMatch(/Path=\/api\/v1\/auth/);
        expect(lines.find((l) => l.startsWith('app_csrf='))).not.toMatch(/HttpOnly/i);
      }

      const { res, body } = await loginRaw(t, ADMIN, TEST_ADMIN_PASSWORD, { 'x-app-session-mode': 'cookie' });
      const first = jar(res);
      const rt = first.get('app_rt') ?? '';
      const csrf = first.get('app_csrf') ?? '';
      expect(rt.length).toBeGreaterThan(30);
      const cookie = `app_rt=${rt}; app_csrf=${csrf}`;
      const refresh = (headers: Record<string, string>) =>
        t.request('/api/v1/auth/refresh', { method: 'POST', headers });
      // The cookie authorises the refresh, so the refresh must prove it comes from our page: the CSRF echo bound
      // to the session, a same-site origin, single cookies. Each refusal leaves the token unspent.
      const refusals: Record<string, string>[] = [
        { cookie },
        { cookie, 'x-app-csrf': `${csrf}x` },
        { cookie, 'x-app-csrf': csrf, origin: 'https://evil.example' },
        { cookie, 'x-app-csrf': csrf, 'sec-fetch-site': 'cross-site' },
        { cookie: `${cookie}; app_rt=planted`, 'x-app-csrf': csrf },
        { cookie, 'x-app-csrf': csrf, origin: 'null' },
        { cookie, 'x-app-csrf': csrf, origin: 'https://sibling.localhost', 'sec-fetch-site': 'same-site' },
      ];
      for (const headers of refusals) {
        expect((await json(await refresh(headers))).code, JSON.stringify(headers)).toBe(40023);
      }
      // The cookie authorises a refresh and nothing else: with the CSRF echo but no bearer, a read and a write
      // are 401 (the realtime hub and downloads read the bearer or `access_token` only).
      expect((await t.request('/api/v1/ping', { headers: { cookie, 'x-app-csrf': csrf } })).status).toBe(401);
      const cookieOnlyOut = await t.request('/api/v1/auth/logout', {
        method: 'POST',
        headers: { cookie, 'x-app-csrf': csrf },
      });
      expect(cookieOnlyOut.status).toBe(401);
      // The right one rotates, and the new token goes back into the cookie (never the body), asked or not.
      const rotated = await refresh({ cookie, 'x-app-csrf': csrf });
      const rotatedBody = await json(rotated);
      expect(rotatedBody.code).toBe(0);
      expect(rotatedBody.data).toMatchObject({
        refreshToken: '',
        sessionMode: 'cookie',
        userId: body.data!.userId,
      });
      const second = jar(rotated);
      expect(second.get('app_rt')).not.toBe(rt);
      expect((await ping(rotatedBody.data.accessToken)).status).toBe(200);
      // A second tab that sent the old cookie at the same moment loses within the reuse interval: 40007, nothing
      // revoked, the winner's cookie goes on working.
      expect((await json(await refresh({ cookie, 'x-app-csrf': csrf }))).code).toBe(40007);
      const cookie2 = `app_rt=${second.get('app_rt')}; app_csrf=${second.get('app_csrf')}`;
      const again = await refresh({ cookie: cookie2, 'x-app-csrf': second.get('app_csrf') ?? '' });
      expect((await json(again)).code).toBe(0);
      const third = jar(again);

      // Logout ends the session and expires both cookies, though the host is not in cookie mode.
      const out = await t.request('/api/v1/auth/logout', {
        method: 'POST',
        headers: {
          ...bearer(rotatedBody.data.accessToken),
          cookie: `app_rt=${third.get('app_rt')}; app_csrf=${third.get('app_csrf')}`,
        },
      });
      expect((await json(out)).code).toBe(0);
      const cleared = out.headers.getSetCookie();
      expect(cleared.some((l) => l.startsWith('app_rt=;') && /Max-Age=0/i.test(l))).toBe(true);
      expect(cleared.some((l) => l.startsWith('app_csrf=;') && /Max-Age=0/i.test(l))).toBe(true);
      const afterOut = await refresh({
        cookie: `app_rt=${third.get('app_rt')}; app_csrf=${third.get('app_csrf')}`,
        'x-app-csrf': third.get('app_csrf') ?? '',
      });
      expect((await json(afterOut)).code).toBe(40007);
      // A token-mode logout sets no cookies.
      const plainOut = await t.request('/api/v1/auth/logout', {
        method: 'POST',
        headers: bearer(plain.body.data!.accessToken),
      });
      expect(plainOut.headers.getSetCookie()).toEqual([]);
    });

    it('answers 40001 for unknown accounts and wrong passwords alike, and logs every attempt without passwords', async () => {
      const unknown = await loginRaw(t, 'nobody-here', 'Whatever123');
      const wrong = await loginRaw(t, ADMIN, 'Wrong-password-1');
      expect(unknown.body.code).toBe(40001);
      expect(wrong.body.code).toBe(40001);
      expect(unknown.res.status).toBe(200);
      await login(t, ADMIN, TEST_ADMIN_PASSWORD);
      const page = await t.server.database.repos.loginLogs.page({ current: 1, size: 50 });
      const rows = page.items;
      expect(rows.find((r) => r.account === 'nobody-here')).toMatchObject({
        success: false,
        resultCode: 40001,
        userId: null,
      });
      expect(
        rows.some((r) => r.account === ADMIN && r.success && r.resultCode === 0 && r.userId !== null),
      ).toBe(true);
      expect(JSON.stringify(rows)).not.toContain('Wrong-password-1');
      expect(JSON.stringify(rows)).not.toContain(TEST_ADMIN_PASSWORD);
    });

    it('locks after MaxFailCount wrong passwords, refuses the right one while locked, and shares the counter across variants', async () => {
      const account = 'superadmin';
      expect((await loginRaw(t, account, 'bad-1')).body.code).toBe(40001);
      expect((await loginRaw(t, 'SUPERADMIN ', 'bad-2')).body.code).toBe(40001);
      expect((await loginRaw(t, ' superAdmin', 'bad-3')).body.code).toBe(40004);
      // A full-width spelling meets the lock whether or not the dialect's collation resolves it to the account:
      // the submitted text's counter is locked too, as it would be for an unknown account (no existence oracle).
      expect((await loginRaw(t, 'ｓｕｐｅｒＡｄｍｉｎ', TEST_ADMIN_PASSWORD)).body.code).toBe(40004);
      const locked = await loginRaw(t, ADMIN, TEST_ADMIN_PASSWORD);
      expect(locked.body.code).toBe(40004);
      expect(locked.body.args).toMatchObject({ lockMinutes: 10 });
      await t.server.cache.deleteByPrefix('sec:lock:');
      expect((await loginRaw(t, ADMIN, TEST_ADMIN_PASSWORD)).body.code).toBe(0);
    });
  });
}

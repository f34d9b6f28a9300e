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

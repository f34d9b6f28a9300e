/**
 * Abuse protection and cookie mode over HTTP: rate-limit buckets (per IP, stricter on /auth, per API key,
 * not escapable through X-Forwarded-For), demo mode over every write route, and the cookie session mode with
 * its CSRF rule.
 */
import type { DbType } from '@svc/kernel';
import { silentLogger } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { listen } from '../host/listen.js';
import { bearer, json, login, loginRaw } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';

const API_KEY = 'k'.repeat(40);

async function withServer(
  options: Parameters<typeof startTestServer>[0],
  work: (t: TestServer) => Promise<void>,
) {
  const t = await startTestServer(options);
  try {
    await work(t);
  } finally {
    await t.close();
  }
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

export function defineProtectionContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`rate limits, demo mode and cookie mode on ${dbType} with ${cache}`, () => {
    it('limits /auth/* per IP with 429, 40008, args.retryAfterSeconds and Retry-After; X-Forwarded-For does not escape', async () => {
      await withServer(
        {
          dbType,
          cache,
          env: {
            Service__Security__RateLimit__AuthPermitPerWindow: '3',
            Service__Security__RateLimit__PermitPerWindow: '100',
          },
        },
        async (t) => {
          const running = await listen(t.server, silentLogger, 'http://127.0.0.1:0');
          try {
            const attempt = (xff: string) =>
              fetch(`${running.url}/api/v1/auth/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
                body: JSON.stringify({ account: 'x', password: 'y' }),
              });
            const statuses = [];
            for (let i = 0; i < 5; i++) statuses.push((await attempt(`203.0.113.${i}`)).status);
            expect(statuses).toEqual([200, 200, 200, 429, 429]);
            const limited = await attempt('198.51.100.7');
            expect(limited.status).toBe(429);
            const body = await json(limited);
            expect(body).toMatchObject({ code: 40008, msgKey: 'error.auth.tooManyRequests' });
            expect(body.args.retryAfterSeconds).toBeGreaterThanOrEqual(1);
            expect(Number(limited.headers.get('retry-after'))).toBe(body.args.retryAfterSeconds);
            // The stricter auth bucket does not consume the general one.
            expect((await fetch(`${running.url}/api/v1/meta/error-codes`)).status).toBe(200);
          } finally {
            await running.shutdown();
          }
        },
      );
    });

    it('honours X-Forwarded-For only from a configured trusted proxy', async () => {
      await withServer(
        {
          dbType,
          cache,
          env: {
            Service__Security__RateLimit__AuthPermitPerWindow: '2',
            Service__Security__ForwardedHeaders__Enabled: 'true',
            Service__Security__ForwardedHeaders__KnownProxies__0: '127.0.0.1',
          },
        },
        async (t) => {
          const running = await listen(t.server, silentLogger, 'http://127.0.0.1:0');
          try {
            const attempt = (xff: string) =>
              fetch(`${running.url}/api/v1/auth/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
                body: JSON.stringify({ account: 'x', password: 'y' }),
              });
            for (let i = 0; i < 2; i++) expect((await attempt('203.0.113.1')).status).toBe(200);
            expect((await attempt('203.0.113.1')).status).toBe(429);
            expect((await attempt('203.0.113.2')).status).toBe(200);
          } finally {
            await running.shutdown();
          }
        },
      );
    });

    it('gives each valid API key its own bucket, separate from the IP bucket', async () => {
      await withServer(
        {
          dbType,
          cache,
          env: {
            Service__Security__RateLimit__PermitPerWindow: '2',
            Service__Security__RateLimit__KeyPermitPerWindow: '4',
            Service__Security__ApiKey__Keys__0__Name: 'job',
            Service__Security__ApiKey__Keys__0__Key: API_KEY,
          },
        },
        async (t) => {
          const keyed = () => t.request('/api/v1/meta/error-codes', { headers: { 'x-api-key': API_KEY } });
          const anonymous = () => t.request('/api/v1/meta/error-codes');
          const forged = () =>
            t.request('/api/v1/meta/error-codes', { headers: { 'x-api-key': 'z'.repeat(40) } });
          expect([
            (await anonymous()).status,
            (await anonymous()).status,
            (await anonymous()).status,
          ]).toEqual([200, 200, 429]);
          expect((await forged()).status).toBe(429);
          const keyedStatuses = [];
          for (let i = 0; i < 5; i++) keyedStatuses.push((await keyed()).status);
          expect(keyedStatuses).toEqual([200, 200, 200, 200, 429]);
        },
      );
    });

    it('demo mode refuses every write outside /auth with 403 and 41002, super admin included', async () => {
      await withServer({ dbType, cache, env: { Service__DemoMode: 'true' } }, async (t) => {
        const admin = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
        const writes = t.server.routes.routes.filter(
          (r) => r.method !== 'GET' && !r.path.startsWith('/api/v1/auth/'),
        );
        expect(writes.length).toBeGreaterThan(0);
        for (const route of writes) {
          const path = route.path.replace(/\{[^}]+\}/g, '1');
          const res = await t.request(path, {
            method: route.method,
            headers: bearer(admin.accessToken),
            json: {},
          });
          expect(res.status, `${route.method} ${route.path}`).toBe(403);
          expect((await json(res)).code).toBe(41002);
        }
        const unknownWrite = await t.request('/api/v1/some/consumer/thing', { method: 'DELETE' });
        expect(unknownWrite.status).toBe(403);
        const out = await t.request('/api/v1/auth/logout', {
          method: 'POST',
          headers: bearer(admin.accessToken),
        });
        expect((await json(out)).code).toBe(0);
        expect((await t.request('/api/v1/meta/error-codes')).status).toBe(200);
      });
    });

    it('cookie mode: refresh token only in the HttpOnly cookie, CSRF header required on writes, cookies expire on logout', async () => {
      await withServer(
        { dbType, cache, env: { Service__Security__Session__CookieMode: 'true' } },
        async (t) => {
          const { res, body } = await loginRaw(t, 'superAdmin', TEST_ADMIN_PASSWORD);
          expect(body.data).toMatchObject({ refreshToken: '', sessionMode: 'cookie', csrfRequired: true });
          const setCookies = res.headers.getSetCookie();
          const rt = setCookies.find((c) => c.startsWith('app_rt='));
          const csrfLine = setCookies.find((c) => c.startsWith('app_csrf='));
          expect(rt).toMatch(/HttpOnly/i);
          expect(rt).toMatch(/Secure/i);
          expect(rt).toMatch(/SameSite=Strict/i);
          expect(rt).toMatch(/Path=\/api\/v1\/auth/);
          expect(csrfLine).not.toMatch(/HttpOnly/i);
          const jar = cookiesOf(res);
          const csrf = jar.get('app_csrf') ?? '';
          const cookieHeader = `app_rt=${jar.get('app_rt')}; app_csrf=${csrf}`;
          const access = body.data!.accessToken;

          const withoutHeader = await t.request('/api/v1/personal/password', {
            method: 'PUT',
            headers: { ...bearer(access), cookie: cookieHeader },
            json: { oldPassword: 'x', newPassword: 'y' },
          });
          expect(withoutHeader.status).toBe(403);
          expect((await json(withoutHeader)).code).toBe(40023);
          const wrongHeader = await t.request('/api/v1/personal/password', {
            method: 'PUT',
            headers: { ...bearer(access), cookie: cookieHeader, 'x-app-csrf': `${csrf}x` },
            json: { oldPassword: 'x', newPassword: 'y' },
          });
          expect(wrongHeader.status).toBe(403);
          // Reads need no CSRF header.
          expect((await t.request('/api/v1/ping', { headers: bearer(access) })).status).toBe(200);

          const refreshNoHeader = await t.request('/api/v1/auth/refresh', {
            method: 'POST',
            headers: { cookie: cookieHeader },
          });
          expect((await json(refreshNoHeader)).code).toBe(40023);
          const refreshed = await t.request('/api/v1/auth/refresh', {
            method: 'POST',
            headers: { cookie: cookieHeader, 'x-app-csrf': csrf },
          });
          const refreshedBody = await json(refreshed);
          expect(refreshedBody.code).toBe(0);
          expect(refreshedBody.data.refreshToken).toBe('');
          const next = cookiesOf(refreshed);
          expect(next.get('app_rt')).not.toBe(jar.get('app_rt'));

          const newCookies = `app_rt=${next.get('app_rt')}; app_csrf=${next.get('app_csrf')}`;
          const out = await t.request('/api/v1/auth/logout', {
            method: 'POST',
            headers: {
              ...bearer(refreshedBody.data.accessToken),
              cookie: newCookies,
              'x-app-csrf': next.get('app_csrf') ?? '',
            },
          });
          expect((await json(out)).code).toBe(0);
          const cleared = out.headers.getSetCookie();
          expect(cleared.some((c) => c.startsWith('app_rt=;') && /Max-Age=0/i.test(c))).toBe(true);
          expect(cleared.some((c) => c.startsWith('app_csrf=;') && /Max-Age=0/i.test(c))).toBe(true);
        },
      );
    });

    it('a CSRF value from one session does not pass for another', async () => {
      await withServer(
        { dbType, cache, env: { Service__Security__Session__CookieMode: 'true' } },
        async (t) => {
          const a = await loginRaw(t, 'superAdmin', TEST_ADMIN_PASSWORD);
          const b = await loginRaw(t, 'superAdmin', TEST_ADMIN_PASSWORD);
          const csrfA = cookiesOf(a.res).get('app_csrf') ?? '';
          const res = await t.request('/api/v1/auth/logout', {
            method: 'POST',
            headers: {
              ...bearer(b.body.data!.accessToken),
              cookie: `app_csrf=${csrfA}`,
              'x-app-csrf': csrfA,
            },
          });
          expect(res.status).toBe(403);
        },
      );
    });
  });
}

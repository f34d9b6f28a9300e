/**
 * `Session:Mode` Single and `MaxConcurrent` over HTTP, and self-service password change (policy, reuse,
 * history).
 */
import type { DbType } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { bearer, json, login } from '../testing/auth.js';
import { setRuntimeConfig, startTestServer, TEST_ADMIN_PASSWORD } from '../testing/index.js';

const ADMIN = 'superAdmin';

export function defineSessionModeContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`session modes and password change on ${dbType} with ${cache}`, () => {
    it('Single mode revokes the older session at the next login', async () => {
      const t = await startTestServer({ dbType, cache, env: { Service__Security__Session__Mode: 'Single' } });
      try {
        const a = await login(t, ADMIN, TEST_ADMIN_PASSWORD);
        const b = await login(t, ADMIN, TEST_ADMIN_PASSWORD);
        expect((await t.request('/api/v1/ping', { headers: bearer(a.accessToken) })).status).toBe(401);
        expect((await t.request('/api/v1/ping', { headers: bearer(b.accessToken) })).status).toBe(200);
      } finally {
        await t.close();
      }
    });

    it('MaxConcurrent keeps the newest N sessions, also under concurrent logins', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        env: { Service__Security__Session__MaxConcurrent: '2' },
      });
      try {
        const sessions = await Promise.all(
          Array.from({ length: 5 }, () => login(t, ADMIN, TEST_ADMIN_PASSWORD)),
        );
        const alive = await Promise.all(
          sessions.map(
            async (s) => (await t.request('/api/v1/ping', { headers: bearer(s.accessToken) })).status === 200,
          ),
        );
        expect(alive.filter(Boolean)).toHaveLength(2);
        const last = await login(t, ADMIN, TEST_ADMIN_PASSWORD);
        expect((await t.request('/api/v1/ping', { headers: bearer(last.accessToken) })).status).toBe(200);
      } finally {
        await t.close();
      }
    });

    it('changes the own password under the policy, refuses reuse, and keeps the session', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        env: { Service__Security__RateLimit__Enabled: 'false' },
      });
      try {
        await setRuntimeConfig(t, 'sys.security.password.historyCount', '2');
        const s = await login(t, ADMIN, TEST_ADMIN_PASSWORD);
        const change = async (oldPassword: string, newPassword: string) =>
          json(
            await t.request('/api/v1/personal/password', {
              method: 'PUT',
              headers: bearer(s.accessToken),
              json: { oldPassword, newPassword },
            }),
          );
        expect((await change('not-the-password', 'Another#Pass1')).code).toBe(40001);
        const weak = await change(TEST_ADMIN_PASSWORD, 'short');
        expect(weak.code).toBe(42019);
        expect(weak.args).toMatchObject({ minLength: 8 });
        expect((await change(TEST_ADMIN_PASSWORD, TEST_ADMIN_PASSWORD)).code).toBe(42025);
        expect((await change(TEST_ADMIN_PASSWORD, 'Second#Pass22')).code).toBe(0);
        expect((await change('Second#Pass22', 'Third#Pass333')).code).toBe(0);
        expect((await change('Third#Pass333', 'Second#Pass22')).code).toBe(42025);
        expect((await t.request('/api/v1/ping', { headers: bearer(s.accessToken) })).status).toBe(200);
        await login(t, ADMIN, 'Third#Pass333');
      } finally {
        await t.close();
      }
    });
  });
}

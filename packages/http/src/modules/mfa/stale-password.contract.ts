/**
 * Steps started with a password die with it (spec "TOTP (authenticator)", "SMS second factor"): a TOTP bind, the
 * TOTP login step and the SMS login step begun with a password that has since been changed or reset answer as a
 * stale challenge does (40021, 40028, 40011) and bind or open nothing, also when the reset lands while the
 * completion is opening its session. Before, a leaked password was enough to finish binding an attacker's
 * authenticator after the owner rotated it away.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import {
  setRuntimeConfig,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import { addUser, lastSmsCode, post, startMfaServer, testClock } from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

export function defineStalePasswordContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`steps started with a password that changed, on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;
    let admin: Record<string, string>;
    const repos = () => t.server.database.repos;

    /** The administrator's reset (PUT /sys/user/{id}/password); answers the new password. */
    async function reset(userId: number): Promise<string> {
      const res = await t.request(`/api/v1/sys/user/${userId}/password`, { method: 'PUT', headers: admin });
      const body = await json(res);
      expect(body.code).toBe(0);
      return body.data.password;
    }

    /** The owner's own change, from a session of theirs. */
    async function change(account: string, from: string, to: string): Promise<void> {
      const own = bearer((await login(t, account, from)).accessToken);
      const res = await t.request('/api/v1/personal/password', {
        method: 'PUT',
        headers: { ...own, 'content-type': 'application/json' },
        body: JSON.stringify({ oldPassword: from, newPassword: to }),
      });
      expect((await json(res)).code).toBe(0);
    }

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      expect(
        (await post(t, '/api/v1/auth/reauth', { method: 'password', password: TEST_ADMIN_PASSWORD }, admin))
          .body.code,
      ).toBe(0);
    });
    afterAll(() => t?.close());

    it('refuses (40021) a bind started before the owner changed the password or an admin reset it', async () => {
      for (const rotation of ['change', 'reset'] as const) {
        const account = `sp-bind-${rotation}`;
        const userId = await addUser(t, { account });
        const start = await post(t, '/api/v1/auth/mfa/bind/start', {
          account,
          currentPassword: TEST_USER_PASSWORD,
        });
        const { bindChallengeId, seed } = start.body.data;
        let current = 'Fresh#Pass4567';
        if (rotation === 'change') await change(account, TEST_USER_PASSWORD, current);
        else current = await reset(userId);

        const done = await post(t, '/api/v1/auth/mfa/bind/complete', {
          bindChallengeId,
          totpCode: totpCode(seed, clock.now()),
        });
        expect(done.body).toMatchObject({ code: 40021, data: null });
        expect((await repos().users.findById(userId))?.totpSecret).toBeNull();
        // The owner, with the password of now, binds as usual.
        await bindTotp(t, clock, account, current);
      }
    });

    it('refuses (40028) a TOTP login step begun before a reset, also when the reset lands as the session opens', async () => {
      const userId = await addUser(t, { account: 'sp-totp' });
      const { seed } = await bindTotp(t, clock, 'sp-totp');
      const step = async (password: string) => {
        const answer = await post(t, '/api/v1/auth/login', { account: 'sp-totp', password });
        expect(answer.body.code).toBe(40018);
        return answer.body.args.challengeId as string;
      };

      const before = await step(TEST_USER_PASSWORD);
      const password = await reset(userId);
      const late = await post(t, '/api/v1/auth/login/totp', {
        challengeId: before,
        code: totpCode(seed, clock.now()),
      });
      expect(late.body).toMatchObject({ code: 40028, data: null });

      // The step is current when its code is checked; the reset runs while the session row is being written.
      clock.advance(30);
      const during = await step(password);
      const sessions = repos().sessions;
      const insert = sessions.insert.bind(sessions);
      const spy = vi.spyOn(sessions, 'insert').mockImplementationOnce(async (row) => {
        await reset(userId);
        return insert(row);
      });
      try {
        const racing = await post(t, '/api/v1/auth/login/totp', {
          challengeId: during,
          code: totpCode(seed, clock.now()),
        });
        expect(racing.body).toMatchObject({ code: 40028, data: null });
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
      expect(await sessions.listLive(userId)).toEqual([]);
    });

    it('refuses (40011) an SMS login step begun before a reset', async () => {
      const number = '13900000001';
      const userId = await addUser(t, { account: 'sp-sms', phone: number });
      await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true');
      try {
        const step = await post(t, '/api/v1/auth/login', { account: 'sp-sms', password: TEST_USER_PASSWORD });
        expect(step.body.code).toBe(40009);
        await reset(userId);
        const late = await post(t, '/api/v1/auth/login/sms', {
          challengeId: step.body.args.challengeId,
          code: lastSmsCode(t, 'mfa', number),
        });
        expect(late.body).toMatchObject({ code: 40011, data: null });
        expect(await repos().sessions.listLive(userId)).toEqual([]);
      } finally {
        await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'false');
      }
    });
  });
}

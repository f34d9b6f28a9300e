/**
 * SMS login meets the TOTP demand of the account, as the password login does (spec "TOTP (authenticator)"): the
 * code proves the phone, which stands in for the password only. A bound account answers 40018 and completes with
 * `/auth/login/totp`; one that must bind first (ForceTotp, requireForSuperAdmin) answers 40020; the SMS second
 * factor is not asked again. Before, `/auth/sms/login` opened a full session past both.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from '../../testing/auth.js';
import { setRuntimeConfig, type TestServer } from '../../testing/index.js';
import { addUser, lastSmsCode, nextUtcMorning, post, startMfaServer, testClock } from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

export function defineSmsLoginTotpContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`SMS login and the TOTP demand on ${dbType} with ${cache}`, () => {
    const clock = testClock(nextUtcMorning());
    let t: TestServer;
    let seq = 0;
    /** A fresh number per test: cooldowns never leak between tests. */
    const phone = () => `1370000${String(++seq).padStart(4, '0')}`;
    const smsLogin = async (number: string) => {
      expect((await post(t, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(0);
      return post(t, '/api/v1/auth/sms/login', { phone: number, code: lastSmsCode(t, 'login', number) });
    };
    const liveSessions = (userId: number) => t.server.database.repos.sessions.listLive(userId);

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'true');
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      // The SMS second factor is on too: SMS login must not ask for it again, but must ask for TOTP.
      await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true');
    });
    afterAll(() => t?.close());

    it('answers 40018 for a TOTP-bound account and opens the session only with the TOTP code', async () => {
      const number = phone();
      const userId = await addUser(t, { account: 'slt-bound', phone: number });
      const { seed } = await bindTotp(t, clock, 'slt-bound');
      const step = await smsLogin(number);
      expect(step.body).toMatchObject({ code: 40018, data: null, args: { expiresSeconds: 300 } });
      expect(await liveSessions(userId)).toHaveLength(0);
      const done = await post(t, '/api/v1/auth/login/totp', {
        challengeId: step.body.args.challengeId,
        code: totpCode(seed, clock.now()),
      });
      expect(done.body.code).toBe(0);
      expect(done.body.data.userId).toBe(userId);
      const sid = String(decodeJwt(done.body.data.accessToken).sid);
      expect((await t.server.database.repos.sessions.findById(sid))?.isMfa).toBe(true);
    });

    it('answers 40020 for an unbound account under ForceTotp or requireForSuperAdmin, with no session', async () => {
      const forcedPhone = phone();
      const forced = await addUser(t, { account: 'slt-forced', phone: forcedPhone, forceTotp: true });
      expect((await smsLogin(forcedPhone)).body).toMatchObject({ code: 40020, data: null });
      expect(await liveSessions(forced)).toHaveLength(0);

      const adminPhone = phone();
      const admin = await addUser(t, { account: 'slt-admin', phone: adminPhone, isSuperAdmin: true });
      await setRuntimeConfig(t, 'sys.security.totp.requireForSuperAdmin', 'true');
      try {
        expect((await smsLogin(adminPhone)).body).toMatchObject({ code: 40020, data: null });
        expect(await liveSessions(admin)).toHaveLength(0);
      } finally {
        await setRuntimeConfig(t, 'sys.security.totp.requireForSuperAdmin', 'false');
      }
    });

    it('opens the session of an account without a TOTP demand, without a second SMS step', async () => {
      const number = phone();
      const userId = await addUser(t, { account: 'slt-plain', phone: number });
      const done = await smsLogin(number);
      expect(done.body.code).toBe(0);
      expect(await liveSessions(userId)).toHaveLength(1);
    });
  });
}

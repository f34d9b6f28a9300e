/**
 * SMS steps die with the number their code went to (spec "SMS second factor and SMS login"): the SMS step of a
 * login and an SMS login code answer 40011 and open nothing once the account's number was changed or cleared, the
 * SMS second factor was switched off, or the account came to owe TOTP instead (bound or forced meanwhile), also
 * when the change lands while the completion is opening its session. A resend of a dead step sends nothing, least
 * of all to the old number. A code for a new number requested with a password that has since been changed sets
 * nothing. Races are staged with hooks, never with timing.
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
import {
  addUser,
  lastSmsCode,
  nextUtcMorning,
  post,
  smsLines,
  startMfaServer,
  testClock,
} from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

export function defineStalePhoneContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`SMS steps whose number or factor changed, on ${dbType} with ${cache}`, () => {
    // The daily SMS limit counts per UTC day (see nextUtcMorning).
    const clock = testClock(nextUtcMorning());
    let t: TestServer;
    let admin: Record<string, string>;
    let seq = 0;
    /** A fresh number per use, so cooldowns and daily counts never leak between tests. */
    const phone = () => `1370000${String(++seq).padStart(4, '0')}`;
    const repos = () => t.server.database.repos;

    /** The administrator's edit (PUT /sys/user/{id}), re-authenticating first (the window is 5 minutes). */
    async function adminEdit(userId: number, body: Record<string, unknown>): Promise<void> {
      const reauth = await post(
        t,
        '/api/v1/auth/reauth',
        { method: 'password', password: TEST_ADMIN_PASSWORD },
        admin,
      );
      expect(reauth.body.code).toBe(0);
      const res = await t.request(`/api/v1/sys/user/${userId}`, {
        method: 'PUT',
        json: body,
        headers: admin,
      });
      expect((await json(res)).code).toBe(0);
    }

    /** A password login answered with the SMS step: its challenge. */
    async function smsStep(account: string): Promise<string> {
      const answer = await post(t, '/api/v1/auth/login', { account, password: TEST_USER_PASSWORD });
      expect(answer.body.code).toBe(40009);
      return answer.body.args.challengeId as string;
    }
    const completeSms = (challengeId: string, code: string) =>
      post(t, '/api/v1/auth/login/sms', { challengeId, code });
    const resendSms = (challengeId: string) => post(t, '/api/v1/auth/login/sms/resend', { challengeId });
    const smsLogin = (number: string, code: string) =>
      post(t, '/api/v1/auth/sms/login', { phone: number, code });

    /** Runs `during` once, just before the next session row is written (after the code was accepted). */
    function whileTheSessionOpens(during: () => Promise<void>) {
      const sessions = repos().sessions;
      const insert = sessions.insert.bind(sessions);
      return vi.spyOn(sessions, 'insert').mockImplementationOnce(async (row) => {
        await during();
        return insert(row);
      });
    }

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true');
      await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'true');
      // The super admin has no phone: its password alone signs in.
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    describe('the SMS step of a login', () => {
      for (const change of ['changed', 'cleared'] as const) {
        it(`refuses (40011) a step whose number was ${change} since its code was sent, and resends nothing`, async () => {
          const [old, fresh] = [phone(), phone()];
          const account = `spn-${change}`;
          const userId = await addUser(t, { account, phone: old });
          const first = await smsStep(account);
          const code = lastSmsCode(t, 'mfa', old);
          const second = await smsStep(account); // inside the cooldown: waits for a resend
          clock.advance(61);
          await adminEdit(userId, { phone: change === 'changed' ? fresh : null });

          const sent = smsLines(t, 'mfa', old).length;
          expect((await resendSms(second)).body).toMatchObject({ code: 40011, data: null });
          expect(smsLines(t, 'mfa', old)).toHaveLength(sent);
          expect(smsLines(t, 'mfa', fresh)).toHaveLength(0);

          expect((await completeSms(first, code)).body).toMatchObject({ code: 40011, data: null });
          expect(await repos().sessions.listLive(userId)).toEqual([]);
          // The owner signs in as the account stands now.
          if (change === 'cleared') {
            const direct = await post(t, '/api/v1/auth/login', { account, password: TEST_USER_PASSWORD });
            expect(direct.body.code).toBe(0);
          } else {
            const now = await smsStep(account);
            expect((await completeSms(now, lastSmsCode(t, 'mfa', fresh))).body.code).toBe(0);
          }
        });
      }

      it('refuses (40011) a step whose owner removed the number with the phone route meanwhile', async () => {
        const number = phone();
        const userId = await addUser(t, { account: 'spn-self' });
        // The owner signs in before the number is theirs, then sets it with the code sent to it.
        const own = bearer((await login(t, 'spn-self', TEST_USER_PASSWORD)).accessToken);
        const body = { phone: number, currentPassword: TEST_USER_PASSWORD };
        expect((await post(t, '/api/v1/personal/phone/code', body, own)).body.code).toBe(0);
        const code = lastSmsCode(t, 'phone', number);
        const set = await t.request('/api/v1/personal/phone', {
          method: 'PUT',
          json: { phone: number, code },
          headers: own,
        });
        expect((await json(set)).code).toBe(0);
        clock.advance(61);

        const step = await smsStep('spn-self');
        const sent = lastSmsCode(t, 'mfa', number);
        const removed = await t.request('/api/v1/personal/phone', {
          method: 'DELETE',
          json: { currentPassword: TEST_USER_PASSWORD },
          headers: own,
        });
        expect((await json(removed)).code).toBe(0);
        expect((await completeSms(step, sent)).body).toMatchObject({ code: 40011, data: null });
        // Only the owner's own session, opened before the number was set.
        expect(await repos().sessions.listLive(userId)).toHaveLength(1);
      });

      it('refuses (40011) a step once the SMS second factor is switched off, and resends nothing', async () => {
        const number = phone();
        const userId = await addUser(t, { account: 'spn-off', phone: number });
        const first = await smsStep('spn-off');
        const code = lastSmsCode(t, 'mfa', number);
        const second = await smsStep('spn-off');
        clock.advance(61);
        await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'false');
        try {
          expect((await resendSms(second)).body.code).toBe(40011);
          expect(smsLines(t, 'mfa', number)).toHaveLength(1);
          expect((await completeSms(first, code)).body).toMatchObject({ code: 40011, data: null });
          expect(await repos().sessions.listLive(userId)).toEqual([]);
        } finally {
          await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true');
        }
      });

      it('refuses (40011) a step of an account that bound an authenticator or must use one since', async () => {
        const [bound, forced] = [phone(), phone()];
        const boundId = await addUser(t, { account: 'spn-bound', phone: bound });
        const forcedId = await addUser(t, { account: 'spn-forced', phone: forced });
        const [boundStep, forcedStep] = [await smsStep('spn-bound'), await smsStep('spn-forced')];
        const { seed } = await bindTotp(t, clock, 'spn-bound');
        await adminEdit(forcedId, { forceTotp: true });

        expect((await completeSms(boundStep, lastSmsCode(t, 'mfa', bound))).body.code).toBe(40011);
        expect((await completeSms(forcedStep, lastSmsCode(t, 'mfa', forced))).body.code).toBe(40011);
        expect(await repos().sessions.listLive(boundId)).toEqual([]);
        expect(await repos().sessions.listLive(forcedId)).toEqual([]);
        // The login now asks for the authenticator instead.
        const now = await post(t, '/api/v1/auth/login', {
          account: 'spn-bound',
          password: TEST_USER_PASSWORD,
        });
        expect(now.body.code).toBe(40018);
        const done = await post(t, '/api/v1/auth/login/totp', {
          challengeId: now.body.args.challengeId,
          code: totpCode(seed, clock.now()),
        });
        expect(done.body.code).toBe(0);
      });

      for (const change of ['changed', 'cleared'] as const) {
        it(`refuses (40011) a step whose number is ${change} while its session opens, and revokes that session`, async () => {
          const number = phone();
          const account = `spn-race-${change}`;
          const userId = await addUser(t, { account, phone: number });
          const step = await smsStep(account);
          const spy = whileTheSessionOpens(() =>
            adminEdit(userId, { phone: change === 'changed' ? phone() : null }),
          );
          try {
            const racing = await completeSms(step, lastSmsCode(t, 'mfa', number));
            expect(spy).toHaveBeenCalledTimes(1);
            expect(racing.body).toMatchObject({ code: 40011, data: null });
          } finally {
            spy.mockRestore();
          }
          expect(await repos().sessions.listLive(userId)).toEqual([]);
        });
      }
    });

    describe('SMS login', () => {
      it('refuses (40011) a code for a number its account no longer has, moved or shared meanwhile', async () => {
        for (const change of ['changed', 'cleared', 'moved', 'shared'] as const) {
          const number = phone();
          const account = `spl-${change}`;
          const userId = await addUser(t, { account, phone: number });
          const other = await addUser(t, { account: `spl-${change}-other` });
          expect((await post(t, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(0);
          const code = lastSmsCode(t, 'login', number);
          if (change === 'changed') await adminEdit(userId, { phone: phone() });
          if (change === 'cleared' || change === 'moved') await adminEdit(userId, { phone: null });
          if (change === 'moved' || change === 'shared') await adminEdit(other, { phone: number });

          const answer = await smsLogin(number, code);
          expect({ change, answer: answer.body }).toMatchObject({
            change,
            answer: { code: 40011, data: null },
          });
          expect(await repos().sessions.listLive(userId)).toEqual([]);
          expect(await repos().sessions.listLive(other)).toEqual([]);
        }
      });

      it('refuses (40011) a code whose number changes while its session opens, and revokes that session', async () => {
        const number = phone();
        const userId = await addUser(t, { account: 'spl-race' });
        await adminEdit(userId, { phone: number });
        expect((await post(t, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(0);
        const spy = whileTheSessionOpens(() => adminEdit(userId, { phone: phone() }));
        try {
          const racing = await smsLogin(number, lastSmsCode(t, 'login', number));
          expect(spy).toHaveBeenCalledTimes(1);
          expect(racing.body).toMatchObject({ code: 40011, data: null });
        } finally {
          spy.mockRestore();
        }
        expect(await repos().sessions.listLive(userId)).toEqual([]);
      });
    });

    describe('setting a new number', () => {
      it('refuses (40011) a code requested before the password was changed, from the same session', async () => {
        const number = phone();
        const userId = await addUser(t, { account: 'spn-phone-pw' });
        const own = bearer((await login(t, 'spn-phone-pw', TEST_USER_PASSWORD)).accessToken);
        const body = { phone: number, currentPassword: TEST_USER_PASSWORD };
        expect((await post(t, '/api/v1/personal/phone/code', body, own)).body.code).toBe(0);
        const code = lastSmsCode(t, 'phone', number);
        // The password changes; the session it is changed from stays (as anyone holding its token does).
        const changed = await t.request('/api/v1/personal/password', {
          method: 'PUT',
          json: { oldPassword: TEST_USER_PASSWORD, newPassword: 'Fresh#Pass4567' },
          headers: own,
        });
        expect((await json(changed)).code).toBe(0);
        const set = await t.request('/api/v1/personal/phone', {
          method: 'PUT',
          json: { phone: number, code },
          headers: own,
        });
        expect(await json(set)).toMatchObject({ code: 40011, data: null });
        expect((await repos().users.findById(userId))?.phone).toBeNull();
      });
    });
  });
}

/**
 * SMS second factor and SMS login over HTTP (spec "SMS second factor and SMS login"): the 40009 signal with its
 * args, codes read from the backend log as an operator would, attempts, expiry, cooldown shared by both
 * purposes, daily limit, identical answers for unusable numbers, and one session for two simultaneous
 * submissions of one code.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from '../../testing/auth.js';
import { setRuntimeConfig, TEST_USER_PASSWORD, type TestServer } from '../../testing/index.js';
import {
  addUser,
  lastSmsCode,
  nextUtcMorning,
  otherCode,
  post,
  refusingRestores,
  smsLines,
  startMfaServer,
  testClock,
} from './helpers.contract.js';

export function defineSmsContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`SMS second factor and SMS login on ${dbType} with ${cache}`, () => {
    // Starts on a fixed time of day: the daily limit counts per UTC day (see nextUtcMorning).
    const clock = testClock(nextUtcMorning());
    let t: TestServer;
    let seq = 0;
    /** A fresh number per test, so cooldowns and daily counts never leak between tests. */
    const phone = () => `1380000${String(++seq).padStart(4, '0')}`;
    const login = (account: string) =>
      post(t, '/api/v1/auth/login', { account, password: TEST_USER_PASSWORD });

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock, {
        Service__Security__LoginLock__MaxFailCount: '3',
        Service__Security__SmsOtp__DailySendLimitPerPhone: '3',
      });
    });
    afterAll(() => t?.close());

    describe('second factor', () => {
      beforeAll(() => setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true'));
      afterAll(() => setRuntimeConfig(t, 'sys.security.mfa.enabled', 'false'));

      it('answers 40009 with the challenge, sends the code, and opens an MFA session with its login-log row', async () => {
        const number = phone();
        const userId = await addUser(t, { account: 'sms-a', phone: number });
        const step = await login('sms-a');
        expect(step.body).toMatchObject({
          code: 40009,
          msgKey: 'error.auth.smsCodeRequired',
          data: null,
          args: { phoneMask: `138****${number.slice(-4)}`, countdown: 60, expiresSeconds: 300 },
        });
        const { challengeId } = step.body.args;
        expect(challengeId).toMatch(/^[0-9a-f-]{36}$/);
        const code = lastSmsCode(t, 'mfa', number);
        expect(code).toMatch(/^\d{6}$/);
        const done = await post(t, '/api/v1/auth/login/sms', { challengeId, code });
        expect(done.body.code).toBe(0);
        expect(done.body.data).toMatchObject({ userId, account: 'sms-a', sessionMode: 'token' });
        const sid = String(decodeJwt(done.body.data.accessToken).sid);
        expect((await t.server.database.repos.sessions.findById(sid))?.isMfa).toBe(true);
        const logs = (await t.server.database.repos.loginLogs.page({ current: 1, size: 100 })).items;
        const mine = logs.filter((r) => r.userId === userId);
        expect(mine.map((r) => r.resultCode).sort()).toEqual([0, 40009]);
        // The password asked for the step; the SMS code opened the session.
        expect(mine.map((r) => `${r.resultCode} ${r.method}`).sort()).toEqual(['0 sms', '40009 password']);
        // Used once: the same code again is dead.
        expect((await post(t, '/api/v1/auth/login/sms', { challengeId, code })).body.code).toBe(40011);
      });

      it('lets a user without a phone in with the password, and applies the runtime switch at once', async () => {
        await addUser(t, { account: 'sms-nophone' });
        expect((await login('sms-nophone')).body.code).toBe(0);
        await addUser(t, { account: 'sms-b', phone: phone() });
        expect((await login('sms-b')).body.code).toBe(40009);
        await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'false');
        expect((await login('sms-b')).body.code).toBe(0);
        await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true');
      });

      it('is a signal, not a lock failure, and keeps the per-number cooldown across logins', async () => {
        const number = phone();
        await addUser(t, { account: 'sms-c', phone: number });
        const answers = [];
        for (let i = 0; i < 5; i++) answers.push((await login('sms-c')).body);
        expect(answers.every((b) => b.code === 40009)).toBe(true);
        // One code sent; the logins inside the cooldown opened steps that wait for a resend.
        expect(smsLines(t, 'mfa', number)).toHaveLength(1);
        expect(answers[4].args.countdown).toBeGreaterThan(0);
        expect(answers[4].args.countdown).toBeLessThanOrEqual(60);
      });

      it('counts wrong codes down with args.attemptsLeft, then invalidates the code', async () => {
        // The account's second-factor lock (MaxFailCount, 3 here) would stop this before the code's own
        // MaxAttempts (5): raised for this test, which is about the code.
        const { maxFailCount } = await t.server.security.http.settings.loginLock();
        await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', '10');
        const number = phone();
        await addUser(t, { account: 'sms-d', phone: number });
        const { challengeId } = (await login('sms-d')).body.args;
        const code = lastSmsCode(t, 'mfa', number);
        const left = [];
        for (let i = 0; i < 5; i++) {
          const wrong = await post(t, '/api/v1/auth/login/sms', { challengeId, code: otherCode(code) });
          expect(wrong.body.code).toBe(40010);
          left.push(wrong.body.args.attemptsLeft);
        }
        expect(left).toEqual([4, 3, 2, 1, 0]);
        expect((await post(t, '/api/v1/auth/login/sms', { challengeId, code })).body.code).toBe(40011);
        await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', String(maxFailCount));
      });

      it('counts a wrong code whose challenge cannot go back to a failing cache', async () => {
        const { maxFailCount } = await t.server.security.http.settings.loginLock();
        await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', '2');
        const number = phone();
        await addUser(t, { account: 'sms-lost', phone: number });
        const first = (await login('sms-lost')).body.args.challengeId;
        const wrongCode = otherCode(lastSmsCode(t, 'mfa', number));
        // The cache fails as the wrong code's challenge goes back (after the code was compared).
        const refused = await refusingRestores(t, 'mfa:sms:ch:', async () => {
          const failed = await post(t, '/api/v1/auth/login/sms', { challengeId: first, code: wrongCode });
          expect(failed.body.code).not.toBe(0);
        });
        expect(refused).toBe(1);
        // That code counted: the next wrong one reaches the lock of two (it was given back before: 40010 again).
        clock.advance(61);
        const second = (await login('sms-lost')).body.args.challengeId;
        const next = await post(t, '/api/v1/auth/login/sms', {
          challengeId: second,
          code: otherCode(lastSmsCode(t, 'mfa', number)),
        });
        expect(next.body.code).toBe(40004);
        await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', String(maxFailCount));
      });

      it('resends only after the cooldown, replacing the code, and expires after TtlSeconds', async () => {
        const number = phone();
        await addUser(t, { account: 'sms-e', phone: number });
        const { challengeId } = (await login('sms-e')).body.args;
        const first = lastSmsCode(t, 'mfa', number);
        const early = await post(t, '/api/v1/auth/login/sms/resend', { challengeId });
        expect(early.body).toMatchObject({ code: 40008, args: { retryAfterSeconds: 60 } });
        clock.advance(60);
        const resent = await post(t, '/api/v1/auth/login/sms/resend', { challengeId });
        expect(resent.body).toMatchObject({ code: 0, data: { expiresSeconds: 300, resendSeconds: 60 } });
        expect(smsLines(t, 'mfa', number)).toHaveLength(2);
        const second = lastSmsCode(t, 'mfa', number);
        if (second !== first) {
          expect((await post(t, '/api/v1/auth/login/sms', { challengeId, code: first })).body.code).toBe(
            40010,
          );
        }
        clock.advance(301);
        expect((await post(t, '/api/v1/auth/login/sms', { challengeId, code: second })).body.code).toBe(
          40011,
        );
        expect((await post(t, '/api/v1/auth/login/sms/resend', { challengeId })).body.code).toBe(40011);
      });

      it('binds the challenge to its user: another user’s code does not complete it', async () => {
        const [pa, pb] = [phone(), phone()];
        const a = await addUser(t, { account: 'sms-f', phone: pa });
        await addUser(t, { account: 'sms-g', phone: pb });
        const stepA = (await login('sms-f')).body.args.challengeId;
        await login('sms-g');
        const codeB = lastSmsCode(t, 'mfa', pb);
        if (codeB !== lastSmsCode(t, 'mfa', pa)) {
          expect(
            (await post(t, '/api/v1/auth/login/sms', { challengeId: stepA, code: codeB })).body.code,
          ).toBe(40010);
        }
        const done = await post(t, '/api/v1/auth/login/sms', {
          challengeId: stepA,
          code: lastSmsCode(t, 'mfa', pa),
        });
        expect(done.body.data.userId).toBe(a);
      });

      it('opens exactly one session for two simultaneous submissions of one correct code', async () => {
        const number = phone();
        const userId = await addUser(t, { account: 'sms-h', phone: number });
        const { challengeId } = (await login('sms-h')).body.args;
        const code = lastSmsCode(t, 'mfa', number);
        const results = await Promise.all([
          post(t, '/api/v1/auth/login/sms', { challengeId, code }),
          post(t, '/api/v1/auth/login/sms', { challengeId, code }),
        ]);
        expect(results.map((r) => r.body.code).sort()).toEqual([0, 40011]);
        expect(await t.server.database.repos.sessions.listLive(userId)).toHaveLength(1);
      });

      it('refuses bodies with unknown properties or missing fields as 48000', async () => {
        const bad = await post(t, '/api/v1/auth/login/sms', { challengeId: 'x', code: '1', extra: true });
        expect(bad.body.code).toBe(48000);
        const missing = await post(t, '/api/v1/auth/login/sms', { challengeId: 'x' });
        expect(missing.body).toMatchObject({ code: 48000 });
        expect(missing.body.args.errors[0].path).toBe('code');
      });
    });

    describe('passwordless login', () => {
      beforeAll(() => setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'true'));

      it('answers 40012 while switched off, from the runtime key at once', async () => {
        await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'false');
        expect((await post(t, '/api/v1/auth/sms/send', { phone: phone() })).body.code).toBe(40012);
        expect((await post(t, '/api/v1/auth/sms/login', { phone: phone(), code: '123456' })).body.code).toBe(
          40012,
        );
        await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'true');
      });

      it('sends to a number of exactly one enabled user and logs in with the code', async () => {
        const number = phone();
        const userId = await addUser(t, { account: 'sl-a', phone: number });
        const sent = await post(t, '/api/v1/auth/sms/send', { phone: number });
        expect(sent.body).toEqual({
          code: 0,
          msgKey: 'common.success',
          data: { expiresSeconds: 300, resendSeconds: 60 },
        });
        const code = lastSmsCode(t, 'login', number);
        const done = await post(t, '/api/v1/auth/sms/login', { phone: number, code });
        expect(done.body.code).toBe(0);
        expect(done.body.data.userId).toBe(userId);
        const sid = String(decodeJwt(done.body.data.accessToken).sid);
        expect((await t.server.database.repos.sessions.findById(sid))?.isMfa).toBe(true);
        expect((await post(t, '/api/v1/auth/sms/login', { phone: number, code })).body.code).toBe(40011);
        // Both attempts are SMS logins in the log: the refused one under the submitted number.
        const logs = (await t.server.database.repos.loginLogs.page({ current: 1, size: 100, method: 'sms' }))
          .items;
        expect(logs.filter((r) => r.userId === userId).map((r) => r.resultCode)).toEqual([0]);
        expect(logs.filter((r) => r.account === number).map((r) => r.resultCode)).toEqual([40011]);
      });

      it('answers unknown, shared and disabled numbers exactly like a real one, but sends nothing', async () => {
        const real = phone();
        const unknown = phone();
        const shared = phone();
        const disabled = phone();
        await addUser(t, { account: 'sl-real', phone: real });
        await addUser(t, { account: 'sl-s1', phone: shared });
        await addUser(t, { account: 'sl-s2', phone: shared });
        await addUser(t, { account: 'sl-off', phone: disabled, enabled: false });
        const answers = [];
        for (const number of [real, unknown, shared, disabled]) {
          answers.push((await post(t, '/api/v1/auth/sms/send', { phone: number })).body);
        }
        for (const a of answers) expect(a).toEqual(answers[0]);
        expect(smsLines(t, 'login', real)).toHaveLength(1);
        for (const number of [unknown, shared, disabled])
          expect(smsLines(t, 'login', number)).toHaveLength(0);
        // The same cooldown for each.
        const again = [];
        for (const number of [real, unknown, shared, disabled]) {
          again.push((await post(t, '/api/v1/auth/sms/send', { phone: number })).body);
        }
        for (const a of again)
          expect(a).toEqual({
            code: 40008,
            msgKey: 'error.auth.tooManyRequests',
            data: null,
            args: { retryAfterSeconds: 60 },
          });
        // Wrong codes count down alike, then every dead code answers 40011.
        for (const number of [real, unknown, shared, disabled]) {
          const first = await post(t, '/api/v1/auth/sms/login', { phone: number, code: '000000' });
          if (number === real && lastSmsCode(t, 'login', real) === '000000') continue;
          expect(first.body).toMatchObject({ code: 40010, args: { attemptsLeft: 4 } });
        }
        const never = phone();
        expect((await post(t, '/api/v1/auth/sms/login', { phone: never, code: '123456' })).body.code).toBe(
          40011,
        );
      });

      it('shares the cooldown with the second factor and enforces the daily limit as a business error', async () => {
        const number = phone();
        await addUser(t, { account: 'sl-b', phone: number });
        await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true');
        try {
          expect((await login('sl-b')).body.code).toBe(40009);
        } finally {
          await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'false');
        }
        expect((await post(t, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(40008);
        for (let i = 0; i < 2; i++) {
          clock.advance(61);
          expect((await post(t, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(0);
        }
        clock.advance(61);
        const limited = await t.request('/api/v1/auth/sms/send', { json: { phone: number } });
        expect(limited.status).toBe(200);
        expect(await limited.json()).toMatchObject({ code: 40008, args: { limit: 3 } });
        clock.advance(24 * 3600);
        expect((await post(t, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(0);
      });

      it('opens exactly one session for two simultaneous submissions of one correct code', async () => {
        const number = phone();
        const userId = await addUser(t, { account: 'sl-c', phone: number });
        await post(t, '/api/v1/auth/sms/send', { phone: number });
        const code = lastSmsCode(t, 'login', number);
        const results = await Promise.all([
          post(t, '/api/v1/auth/sms/login', { phone: number, code }),
          post(t, '/api/v1/auth/sms/login', { phone: number, code }),
        ]);
        expect(results.map((r) => r.body.code).sort()).toEqual([0, 40011]);
        expect(await t.server.database.repos.sessions.listLive(userId)).toHaveLength(1);
      });

      it('refuses malformed numbers with 48000 naming the field', async () => {
        const bad = await post(t, '/api/v1/auth/sms/send', { phone: 'call me' });
        expect(bad.body).toMatchObject({ code: 48000 });
        expect(bad.body.args.errors[0].path).toBe('phone');
      });
    });
  });
}

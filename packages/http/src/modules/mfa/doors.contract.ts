/**
 * Every door that accepts a password has the same lock (issue 9, contract §10), over HTTP: login, TOTP bind
 * start and recovery, re-authentication, the self-service password change and the phone routes count on one
 * counter and refuse the right password while it is locked; captcha guards the anonymous ones while on. Second
 * factors count on their own per-account counter across challenges; SMS resend keeps the attempts used; the
 * phone number changes only with the current password and a code sent to the new number; SMS login answers
 * every unusable number exactly like a wrong code for a real one, to the end.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login as loginOk } from '../../testing/auth.js';
import { setRuntimeConfig, TEST_USER_PASSWORD, type TestServer } from '../../testing/index.js';
import {
  addUser,
  lastSmsCode,
  otherCode,
  post,
  smsLines,
  startMfaServer,
  testClock,
} from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

const WRONG = 'Wrong#Pass999';
const NEW_PASSWORD = 'Next#Pass4567';

export function defineDoorsContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`one lock for every password door and second factor on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;
    let seq = 0;
    const phone = () => `1390000${String(++seq).padStart(4, '0')}`;
    const account = (name: string) => `${name}-${++seq}`;

    /** Any method with a JSON body; answers status and envelope. */
    const call = async (method: string, path: string, body: unknown, token?: string) => {
      const res = await t.request(path, { method, json: body, headers: token ? bearer(token) : {} });
      return { status: res.status, body: await json(res) };
    };
    const maxFail = (n: number) => setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', String(n));

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
    });
    afterAll(() => t?.close());

    /** Each password door, tried with `password` by the user `name` (signed in as `token`). */
    const doors = (name: string, token: string) => ({
      login: (password: string) => post(t, '/api/v1/auth/login', { account: name, password }),
      bindStart: (password: string) =>
        post(t, '/api/v1/auth/mfa/bind/start', { account: name, currentPassword: password }),
      recovery: (password: string) =>
        post(t, '/api/v1/auth/mfa/recovery', {
          account: name,
          currentPassword: password,
          recoveryCode: 'AAAAA-BBBBB',
        }),
      reauth: (password: string) =>
        call('POST', '/api/v1/auth/reauth', { method: 'password', password }, token),
      passwordChange: (password: string) =>
        call('PUT', '/api/v1/personal/password', { oldPassword: password, newPassword: NEW_PASSWORD }, token),
      phoneCode: (password: string) =>
        call('POST', '/api/v1/personal/phone/code', { phone: phone(), currentPassword: password }, token),
      phoneDelete: (password: string) =>
        call('DELETE', '/api/v1/personal/phone', { currentPassword: password }, token),
    });

    it('counts a wrong password at every door on one counter, then refuses the right one at each', async () => {
      await maxFail(7);
      const name = account('door');
      const userId = await addUser(t, { account: name });
      const { accessToken } = await loginOk(t, name, TEST_USER_PASSWORD);
      const all = doors(name, accessToken);
      const answers = [];
      for (const door of Object.values(all)) answers.push((await door(WRONG)).body);
      expect(answers.map((a) => [a.code, a.args?.attemptsLeft])).toEqual([
        [40001, 6],
        [40001, 5],
        [40001, 4],
        [40001, 3],
        [40001, 2],
        [40001, 1],
        [40004, undefined],
      ]);
      for (const [name, door] of Object.entries(all)) {
        expect({ name, code: (await door(TEST_USER_PASSWORD)).body.code }).toEqual({ name, code: 40004 });
      }
      // Every refused attempt at every door is in the login log.
      const rows = (await t.server.database.repos.loginLogs.page({ current: 1, size: 200 })).items;
      const refused = rows.filter((r) => r.userId === userId && !r.success).map((r) => r.resultCode);
      expect(refused.filter((c) => c === 40001)).toHaveLength(6);
      expect(refused.filter((c) => c === 40004)).toHaveLength(8);
      // Each door's rows carry its method: the recovery door's password is part of the recovery.
      const methods = rows
        .filter((r) => r.userId === userId && !r.success)
        .sort((a, b) => a.id - b.id)
        .map((r) => r.method);
      const perDoor = ['password', 'password', 'recovery', 'password', 'password', 'password', 'password'];
      expect(methods).toEqual([...perDoor, ...perDoor]);
      await maxFail(5);
    });

    it('asks for the captcha at bind start, recovery and the phone code while captcha is on', async () => {
      const name = account('door-captcha');
      await addUser(t, { account: name });
      const { accessToken } = await loginOk(t, name, TEST_USER_PASSWORD);
      const all = doors(name, accessToken);
      await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'true');
      try {
        for (const door of [all.bindStart, all.recovery, all.phoneCode]) {
          expect((await door(TEST_USER_PASSWORD)).body.code).toBe(40002);
        }
        const issued = (await json(await t.request('/api/v1/auth/captcha'))).data;
        const answer =
          (await t.server.cache.get<{ answer: string }>(`mfa:captcha:${issued.captchaId}`))?.answer ?? '';
        const started = await post(t, '/api/v1/auth/mfa/bind/start', {
          account: name,
          currentPassword: TEST_USER_PASSWORD,
          captchaId: issued.captchaId,
          captchaCode: answer,
        });
        expect(started.body.code).toBe(0);
      } finally {
        await setRuntimeConfig(t, 'sys.security.captcha.enabled', 'false');
      }
    });

    it('changes the phone only with the password and a code sent to the new number', async () => {
      const name = account('door-phone');
      const old = phone();
      const userId = await addUser(t, { account: name, phone: old });
      const { accessToken } = await loginOk(t, name, TEST_USER_PASSWORD);
      const stolen = await call('PUT', '/api/v1/personal/profile', { phone: phone() }, accessToken);
      expect(stolen.body.code).toBe(48000);
      const next = phone();
      const sent = await call(
        'POST',
        '/api/v1/personal/phone/code',
        { phone: next, currentPassword: TEST_USER_PASSWORD },
        accessToken,
      );
      expect(sent.body).toMatchObject({ code: 0, data: { expiresSeconds: 300, resendSeconds: 60 } });
      expect(smsLines(t, 'phone', next)).toHaveLength(1);
      const code = lastSmsCode(t, 'phone', next);
      expect((await t.server.database.repos.users.findById(userId))?.phone).toBe(old);
      const wrong = await call(
        'PUT',
        '/api/v1/personal/phone',
        { phone: next, code: otherCode(code) },
        accessToken,
      );
      expect(wrong.body).toMatchObject({ code: 40010, args: { attemptsLeft: 4 } });
      // The code is bound to the number it was sent to.
      const elsewhere = await call('PUT', '/api/v1/personal/phone', { phone: phone(), code }, accessToken);
      expect(elsewhere.body).toMatchObject({ code: 40010, args: { attemptsLeft: 3 } });
      expect(
        (await call('PUT', '/api/v1/personal/phone', { phone: next, code }, accessToken)).body.code,
      ).toBe(0);
      expect((await t.server.database.repos.users.findById(userId))?.phone).toBe(next);
      expect(
        (await call('PUT', '/api/v1/personal/phone', { phone: next, code }, accessToken)).body.code,
      ).toBe(40011);
      const removed = await call(
        'DELETE',
        '/api/v1/personal/phone',
        { currentPassword: TEST_USER_PASSWORD },
        accessToken,
      );
      expect(removed.body.code).toBe(0);
      expect((await t.server.database.repos.users.findById(userId))?.phone).toBeNull();
      // Anonymous callers do not reach the phone routes.
      expect(
        (await call('DELETE', '/api/v1/personal/phone', { currentPassword: TEST_USER_PASSWORD })).status,
      ).toBe(401);
    });

    it('counts wrong TOTP and recovery codes across challenges on the second-factor counter', async () => {
      await maxFail(3);
      const name = account('door-totp');
      await addUser(t, { account: name });
      const { seed, recoveryCodes } = await bindTotp(t, clock, name);
      const recover = (recoveryCode: string) =>
        post(t, '/api/v1/auth/mfa/recovery', {
          account: name,
          currentPassword: TEST_USER_PASSWORD,
          recoveryCode,
        });
      const challenge = async () => {
        const step = await post(t, '/api/v1/auth/login', { account: name, password: TEST_USER_PASSWORD });
        expect(step.body.code).toBe(40018);
        return step.body.args.challengeId as string;
      };
      const right = () => totpCode(seed, clock.now());
      const wrongCode = () => (right() === '999999' ? '999998' : '999999');
      const reauth = (token: string, totpCode: string) =>
        call('POST', '/api/v1/auth/reauth', { method: 'totp', totpCode }, token);

      const opened = await post(t, '/api/v1/auth/login/totp', {
        challengeId: await challenge(),
        code: right(),
      });
      expect(opened.body.code).toBe(0);
      const token = opened.body.data.accessToken as string;
      clock.advance(30); // the code just used is spent

      expect((await recover('ZZZZZ-ZZZZZ')).body.code).toBe(40022);
      expect((await reauth(token, wrongCode())).body.code).toBe(40019);
      const first = await challenge();
      // The third wrong code of the account, on a fresh challenge: locked.
      expect(
        (await post(t, '/api/v1/auth/login/totp', { challengeId: first, code: wrongCode() })).body,
      ).toMatchObject({ code: 40004, args: { lockMinutes: expect.any(Number) } });
      // While locked, right codes are refused at every second-factor step, and so is the password login.
      expect(
        (await post(t, '/api/v1/auth/login/totp', { challengeId: first, code: right() })).body.code,
      ).toBe(40004);
      expect((await reauth(token, right())).body.code).toBe(40004);
      expect(
        (await post(t, '/api/v1/auth/login', { account: name, password: TEST_USER_PASSWORD })).body.code,
      ).toBe(40004);
      expect((await recover(recoveryCodes[0] as string)).body.code).toBe(40004);
      // Every refused second-factor code, at login, recovery and re-authentication, is a login-log row with
      // the account and trace id (a stolen token guessing re-auth codes leaves a trace).
      const rows = (await t.server.database.repos.loginLogs.page({ current: 1, size: 200 })).items;
      const refused = rows.filter((r) => r.account === name && !r.success);
      expect(refused.every((r) => typeof r.traceId === 'string' && r.traceId.length > 0)).toBe(true);
      const codes = refused.map((r) => r.resultCode);
      expect(codes.filter((c) => c === 40022)).toHaveLength(1);
      expect(codes.filter((c) => c === 40019)).toHaveLength(1);
      // login/totp twice, re-auth, password login, recovery.
      expect(codes.filter((c) => c === 40004)).toHaveLength(5);
      // Each row names the step it came from: the password login, the TOTP step or re-authentication, the recovery.
      expect(refused.map((r) => `${r.resultCode} ${r.method}`).sort()).toEqual([
        '40004 password',
        '40004 recovery',
        '40004 totp',
        '40004 totp',
        '40004 totp',
        '40018 password',
        '40018 password',
        '40019 totp',
        '40022 recovery',
      ]);
      expect(rows.filter((r) => r.account === name && r.success).map((r) => r.method)).toEqual(['totp']);
      await maxFail(5);
    });

    /**
     * Holds `n` checks of the user's second-factor codes in flight (another tab or instance checking a code), runs
     * `work`, then lets them end right.
     */
    const whileInFlight = async <T>(userId: number, n: number, work: () => Promise<T>): Promise<T> => {
      const lock = t.server.security.passwords.secondFactorLock;
      const held = [];
      for (let i = 0; i < n; i++) held.push(await lock.begin({ userId }));
      try {
        return await work();
      } finally {
        for (const attempt of held) await attempt.succeeded();
      }
    };

    it('keeps a TOTP step refused as busy (40008) alive: the retry it is told to make goes in', async () => {
      await maxFail(3);
      const name = account('door-totp-busy');
      const userId = await addUser(t, { account: name });
      const { seed } = await bindTotp(t, clock, name);
      const step = await post(t, '/api/v1/auth/login', { account: name, password: TEST_USER_PASSWORD });
      expect(step.body.code).toBe(40018);
      const challengeId = step.body.args.challengeId as string;
      const busy = await whileInFlight(userId, 3, () =>
        post(t, '/api/v1/auth/login/totp', { challengeId, code: totpCode(seed, clock.now()) }),
      );
      expect(busy.body).toMatchObject({ code: 40008, args: { retryAfterSeconds: 1 } });
      const retry = await post(t, '/api/v1/auth/login/totp', {
        challengeId,
        code: totpCode(seed, clock.now()),
      });
      expect(retry.body.code).toBe(0);
      await maxFail(5);
    });

    describe('SMS', () => {
      beforeAll(() => setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true'));
      afterAll(() => setRuntimeConfig(t, 'sys.security.mfa.enabled', 'false'));

      it('keeps an SMS step refused as busy (40008) alive: the retry it is told to make goes in', async () => {
        await maxFail(3);
        const number = phone();
        const name = account('door-sms-busy');
        const userId = await addUser(t, { account: name, phone: number });
        const step = await post(t, '/api/v1/auth/login', { account: name, password: TEST_USER_PASSWORD });
        expect(step.body.code).toBe(40009);
        const { challengeId } = step.body.args;
        const code = lastSmsCode(t, 'mfa', number);
        const busy = await whileInFlight(userId, 3, () =>
          post(t, '/api/v1/auth/login/sms', { challengeId, code }),
        );
        expect(busy.body).toMatchObject({ code: 40008, args: { retryAfterSeconds: 1 } });
        // The code was not compared: no attempt of the challenge is used, and the same code opens the session.
        expect((await post(t, '/api/v1/auth/login/sms', { challengeId, code })).body.code).toBe(0);
        await maxFail(5);
      });

      it('counts wrong SMS codes across challenges on the second-factor counter', async () => {
        await maxFail(3);
        const name = account('door-sms');
        await addUser(t, { account: name, phone: phone() });
        const codes = [];
        for (let i = 0; i < 3; i++) {
          const step = await post(t, '/api/v1/auth/login', { account: name, password: TEST_USER_PASSWORD });
          expect(step.body.code).toBe(40009);
          const { challengeId } = step.body.args;
          codes.push((await post(t, '/api/v1/auth/login/sms', { challengeId, code: '000000' })).body.code);
        }
        expect(codes).toEqual([40010, 40010, 40004]);
        expect(
          (await post(t, '/api/v1/auth/login', { account: name, password: TEST_USER_PASSWORD })).body.code,
        ).toBe(40004);
        await maxFail(5);
      });

      it('keeps the attempts already used when the code is resent', async () => {
        await maxFail(10);
        const number = phone();
        const name = account('door-resend');
        await addUser(t, { account: name, phone: number });
        const step = await post(t, '/api/v1/auth/login', { account: name, password: TEST_USER_PASSWORD });
        const { challengeId } = step.body.args;
        const first = lastSmsCode(t, 'mfa', number);
        for (const left of [4, 3]) {
          const wrong = await post(t, '/api/v1/auth/login/sms', { challengeId, code: otherCode(first) });
          expect(wrong.body).toMatchObject({ code: 40010, args: { attemptsLeft: left } });
        }
        clock.advance(60);
        expect((await post(t, '/api/v1/auth/login/sms/resend', { challengeId })).body.code).toBe(0);
        const second = lastSmsCode(t, 'mfa', number);
        const after = await post(t, '/api/v1/auth/login/sms', { challengeId, code: otherCode(second) });
        expect(after.body).toMatchObject({ code: 40010, args: { attemptsLeft: 2 } });
        await maxFail(5);
      });
    });

    it('answers SMS login for unknown, shared and disabled numbers like a wrong code for a real one, to the end', async () => {
      await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'true');
      try {
        const real = phone();
        const unknown = phone();
        const shared = phone();
        const disabled = phone();
        await addUser(t, { account: account('sl-real'), phone: real });
        await addUser(t, { account: account('sl-s1'), phone: shared });
        await addUser(t, { account: account('sl-s2'), phone: shared });
        await addUser(t, { account: account('sl-off'), phone: disabled, enabled: false });
        const numbers = [real, unknown, shared, disabled];
        for (const number of numbers) {
          expect((await post(t, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(0);
        }
        const realCode = lastSmsCode(t, 'login', real);
        const guess = otherCode(realCode);
        const answers = new Map<string, unknown[]>();
        for (const number of numbers) {
          const seen = [];
          for (let i = 0; i < 6; i++) {
            seen.push((await post(t, '/api/v1/auth/sms/login', { phone: number, code: guess })).body);
          }
          answers.set(number, seen);
        }
        const expected = [
          ...[4, 3, 2, 1, 0].map((attemptsLeft) => ({
            code: 40010,
            msgKey: 'error.auth.smsCodeWrong',
            data: null,
            args: { attemptsLeft },
          })),
          expect.objectContaining({ code: 40011, data: null }),
        ];
        for (const number of numbers) expect(answers.get(number)).toEqual(expected);
        // Spent: even the right code of the real number is dead now.
        expect((await post(t, '/api/v1/auth/sms/login', { phone: real, code: realCode })).body.code).toBe(
          40011,
        );
      } finally {
        await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'false');
      }
    });
  });
}

/**
 * What people and attackers type into the second-factor doors: wrong JSON types, missing or oversized fields,
 * whitespace alone and bodies that are not objects answer 48000 naming the field, in HTTP 200 like every
 * validation failure (never a 500). A code typed as apps show it (`123 456`) or pasted with a tab or a line break
 * works at every door, TOTP (login step, binding, re-authentication) and SMS (login step, SMS login, new number)
 * alike: ASCII whitespace is dropped, nothing else. Look-alikes of the right code (other spaces, full-width or
 * Arabic-Indic digits, a seventh digit) are wrong codes (40019, 40010) that leave the right one usable; recovery
 * codes are matched after removing ASCII whitespace and dashes and ignoring ASCII case, nothing more.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from '../../testing/auth.js';
import { setRuntimeConfig, TEST_USER_PASSWORD, type TestServer } from '../../testing/index.js';
import { addUser, lastSmsCode, nextUtcMorning, post, startMfaServer, testClock } from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

/** Arabic-Indic digits (U+0660…U+0669) and full-width digits (U+FF10…U+FF19) of an ASCII code. */
const arabicIndic = (code: string) => code.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
const fullWidth = (code: string) => code.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
/** A code as authenticator apps show it, and as pasted with a tab and a line break. */
const asShown = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;
const pasted = (code: string) => ` ${code.slice(0, 2)}\t${code.slice(2, 4)} ${code.slice(4)}\r\n`;
/** Spaces that are not ASCII whitespace: no-break, thin, narrow no-break, ideographic. */
const otherSpaces = ['\u00a0', '\u2009', '\u202f', '\u3000'];

export function defineMfaInputsContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`malformed second-factor input on ${dbType} with ${cache}`, () => {
    // The SMS daily limit counts per UTC day (see nextUtcMorning).
    const clock = testClock(nextUtcMorning());
    let t: TestServer;
    let token: string;
    let seed: string;

    /** A raw body (any text) with a JSON content type; answers status and envelope. */
    async function raw(path: string, body: string, headers: Record<string, string> = {}) {
      const res = await t.request(path, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });
      return { status: res.status, body: await json(res) };
    }

    async function challenge(account: string): Promise<string> {
      const answer = await post(t, '/api/v1/auth/login', { account, password: TEST_USER_PASSWORD });
      expect(answer.body.code).toBe(40018);
      return answer.body.args.challengeId as string;
    }

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      // Look-alikes below are wrong codes on the account's second-factor counter: room for all of them.
      await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', '50');
      await addUser(t, { account: 'in-user' });
      seed = (await bindTotp(t, clock, 'in-user')).seed;
      const step = await challenge('in-user');
      const opened = await post(t, '/api/v1/auth/login/totp', {
        challengeId: step,
        code: totpCode(seed, clock.now()),
      });
      token = opened.body.data.accessToken;
      clock.advance(30);
    });
    afterAll(() => t?.close());

    it('answers 48000 naming the field for wrong types, missing and oversized fields', async () => {
      const id = '01900000-0000-7000-8000-000000000000';
      const cases: [path: string, body: unknown, field: string][] = [
        ['/api/v1/auth/login/totp', { challengeId: id, code: 123456 }, 'code'],
        ['/api/v1/auth/login/totp', { challengeId: id, code: null }, 'code'],
        ['/api/v1/auth/login/totp', { challengeId: id, code: ['123456'] }, 'code'],
        ['/api/v1/auth/login/totp', { challengeId: id, code: { $ne: '' } }, 'code'],
        ['/api/v1/auth/login/totp', { challengeId: id, code: '' }, 'code'],
        ['/api/v1/auth/login/totp', { challengeId: id, code: ' \t\r\n ' }, 'code'],
        ['/api/v1/auth/login/sms', { challengeId: id, code: '   ' }, 'code'],
        ['/api/v1/auth/sms/login', { phone: '13800000000', code: '\n' }, 'code'],
        ['/api/v1/auth/login/totp', { challengeId: id, code: '1'.repeat(10_000) }, 'code'],
        ['/api/v1/auth/login/totp', { challengeId: 42, code: '123456' }, 'challengeId'],
        ['/api/v1/auth/login/totp', { challengeId: 'x'.repeat(65), code: '123456' }, 'challengeId'],
        ['/api/v1/auth/login/totp', { code: '123456' }, 'challengeId'],
        ['/api/v1/auth/mfa/bind/complete', { bindChallengeId: id, totpCode: 123456 }, 'totpCode'],
        ['/api/v1/auth/mfa/bind/complete', { bindChallengeId: true, totpCode: '123456' }, 'bindChallengeId'],
        ['/api/v1/auth/mfa/bind/complete', { bindChallengeId: id, totpCode: '\t' }, 'totpCode'],
        [
          '/api/v1/auth/mfa/recovery',
          { account: 'in-user', currentPassword: TEST_USER_PASSWORD, recoveryCode: 1234567890 },
          'recoveryCode',
        ],
        [
          '/api/v1/auth/mfa/recovery',
          { account: 'in-user', currentPassword: TEST_USER_PASSWORD, recoveryCode: 'A'.repeat(33) },
          'recoveryCode',
        ],
        ['/api/v1/auth/reauth', { method: 'totp', totpCode: 123456 }, 'totpCode'],
        ['/api/v1/auth/reauth', { method: 'totp', totpCode: null }, 'totpCode'],
        ['/api/v1/auth/reauth', { method: 'totp', totpCode: '      ' }, 'totpCode'],
        ['/api/v1/auth/reauth', { method: 'totp' }, 'totpCode'],
        ['/api/v1/auth/reauth', { method: 'TOTP', totpCode: '123456' }, 'method'],
        ['/api/v1/auth/reauth', { method: ['totp'], totpCode: '123456' }, 'method'],
      ];
      for (const [path, body, field] of cases) {
        const answer = await post(t, path, body, bearer(token));
        expect({ path, body, status: answer.status, code: answer.body.code }).toEqual({
          path,
          body,
          status: 200,
          code: 48000,
        });
        expect(JSON.stringify(answer.body.args)).toContain(field);
      }
    });

    it('answers malformed bodies (not an object, broken JSON, a __proto__ key) with 48000, never a 500', async () => {
      for (const path of ['/api/v1/auth/login/totp', '/api/v1/auth/reauth', '/api/v1/auth/mfa/recovery']) {
        for (const body of [
          '',
          'null',
          '[]',
          '"123456"',
          '123456',
          '{"code":',
          '{"code":"1"}}',
          '\u0000',
          '{"__proto__":{"method":"totp"}}',
        ]) {
          const answer = await raw(path, body, bearer(token));
          expect({ path, body, status: answer.status, code: answer.body.code }).toEqual({
            path,
            body,
            status: 200,
            code: 48000,
          });
        }
      }
    });

    it('refuses look-alikes of the right code with 40019 and then takes the right one', async () => {
      const right = totpCode(seed, clock.now());
      const lookAlikes = [
        ...otherSpaces.map((space) => `${right.slice(0, 3)}${space}${right.slice(3)}`),
        `${right.slice(0, 3)}\u000b${right.slice(3)}`,
        `${right}\u3000`,
        `${right.slice(0, 3)}-${right.slice(3)}`,
        fullWidth(right),
        arabicIndic(right),
        `${right}0`,
        `0${right}`,
        `+${right}`,
        `${right.slice(0, 5)}`,
      ];
      const step = await challenge('in-user');
      for (const [i, code] of lookAlikes.slice(0, 4).entries()) {
        const answer = await post(t, '/api/v1/auth/login/totp', { challengeId: step, code });
        expect({ code, answer: answer.body.code, left: answer.body.args?.attemptsLeft }).toEqual({
          code,
          answer: 40019,
          left: 4 - i,
        });
      }
      for (const code of lookAlikes.slice(4)) {
        const answer = await post(
          t,
          '/api/v1/auth/reauth',
          { method: 'totp', totpCode: code },
          bearer(token),
        );
        expect({ code, answer: answer.body.code }).toEqual({ code, answer: 40019 });
      }
      expect((await post(t, '/api/v1/auth/login/totp', { challengeId: step, code: right })).body.code).toBe(
        0,
      );
    });

    it('takes codes typed as apps show them or pasted, at every TOTP door', async () => {
      clock.advance(30); // the step of the code the test before spent
      const step = await challenge('in-user');
      const atLogin = await post(t, '/api/v1/auth/login/totp', {
        challengeId: step,
        code: asShown(totpCode(seed, clock.now())),
      });
      expect(atLogin.body.code).toBe(0);
      clock.advance(30);
      const reauth = await post(
        t,
        '/api/v1/auth/reauth',
        { method: 'totp', totpCode: pasted(totpCode(seed, clock.now())) },
        bearer(token),
      );
      expect(reauth.body.code).toBe(0);
      clock.advance(30);

      await addUser(t, { account: 'in-spaced' });
      const start = await post(t, '/api/v1/auth/mfa/bind/start', {
        account: 'in-spaced',
        currentPassword: TEST_USER_PASSWORD,
      });
      const { bindChallengeId, seed: fresh } = start.body.data;
      const wrong = await post(t, '/api/v1/auth/mfa/bind/complete', {
        bindChallengeId,
        totpCode: `${totpCode(fresh, clock.now()).slice(0, 3)}\u202f${totpCode(fresh, clock.now()).slice(3)}`,
      });
      expect(wrong.body).toMatchObject({ code: 40019, args: { attemptsLeft: 4 } });
      const bound = await post(t, '/api/v1/auth/mfa/bind/complete', {
        bindChallengeId,
        totpCode: pasted(totpCode(fresh, clock.now())),
      });
      expect(bound.body.code).toBe(0);
      clock.advance(30);
    });

    it('takes SMS codes typed with ASCII whitespace only, at every SMS door', async () => {
      const [number, next] = ['13500000001', '13500000002'];
      await addUser(t, { account: 'in-sms', phone: number });
      await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true');
      await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'true');
      try {
        // The SMS step of a login: another space is a wrong code, the code as shown opens the session.
        const step = await post(t, '/api/v1/auth/login', { account: 'in-sms', password: TEST_USER_PASSWORD });
        expect(step.body.code).toBe(40009);
        const { challengeId } = step.body.args;
        const code = lastSmsCode(t, 'mfa', number);
        for (const typed of [`${code}\u3000`, `\u00a0${code}`, arabicIndic(code)]) {
          const answer = await post(t, '/api/v1/auth/login/sms', { challengeId, code: typed });
          expect({ typed, answer: answer.body.code }).toEqual({ typed, answer: 40010 });
        }
        const opened = await post(t, '/api/v1/auth/login/sms', { challengeId, code: asShown(code) });
        expect(opened.body.code).toBe(0);
        const own = bearer(opened.body.data.accessToken);

        // SMS login, once the number's cooldown is over.
        clock.advance(61);
        expect((await post(t, '/api/v1/auth/sms/send', { phone: number })).body.code).toBe(0);
        const loginCode = lastSmsCode(t, 'login', number);
        const spaced = `${loginCode.slice(0, 3)}\u2009${loginCode.slice(3)}`;
        expect((await post(t, '/api/v1/auth/sms/login', { phone: number, code: spaced })).body.code).toBe(
          40010,
        );
        expect(
          (await post(t, '/api/v1/auth/sms/login', { phone: number, code: pasted(loginCode) })).body.code,
        ).toBe(0);

        // A new number.
        const asked = await post(
          t,
          '/api/v1/personal/phone/code',
          { phone: next, currentPassword: TEST_USER_PASSWORD },
          own,
        );
        expect(asked.body.code).toBe(0);
        const phoneCode = lastSmsCode(t, 'phone', next);
        const put = (typed: string) =>
          t.request('/api/v1/personal/phone', {
            method: 'PUT',
            json: { phone: next, code: typed },
            headers: own,
          });
        expect((await json(await put(fullWidth(phoneCode)))).code).toBe(40010);
        expect((await json(await put(`${phoneCode.slice(0, 3)}\u202f${phoneCode.slice(3)}`))).code).toBe(
          40010,
        );
        expect((await json(await put(asShown(phoneCode)))).code).toBe(0);
      } finally {
        await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'false');
        await setRuntimeConfig(t, 'sys.security.smsLogin.enabled', 'false');
      }
    });

    it('matches recovery codes ignoring ASCII case, ASCII whitespace and dashes only', async () => {
      await addUser(t, { account: 'in-recovery' });
      const { recoveryCodes } = await bindTotp(t, clock, 'in-recovery');
      const [first = '', second = ''] = recoveryCodes;
      const recover = (recoveryCode: string) =>
        post(t, '/api/v1/auth/mfa/recovery', {
          account: 'in-recovery',
          currentPassword: TEST_USER_PASSWORD,
          recoveryCode,
        });
      // Full-width letters or a code with one character dropped are other codes.
      const wide = first.replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
      expect((await recover(wide)).body.code).toBe(40022);
      expect((await recover(first.slice(1))).body.code).toBe(40022);
      expect((await recover(`${first}%`)).body.code).toBe(40022);
      // Spaces outside ASCII are not separators.
      for (const space of otherSpaces)
        expect((await recover(first.replace('-', space))).body.code).toBe(40022);
      const typed = ` ${second.toLowerCase().replace('-', ' - ')}\t`;
      expect((await recover(typed)).body.code).toBe(0);
    });
  });
}

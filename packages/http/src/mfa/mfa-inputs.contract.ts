/**
 * What an attacker types into the second-factor doors: wrong JSON types, missing or oversized fields and
 * bodies that are not objects answer 48000 naming the field, in HTTP 200 like every validation
 * failure (never a 500); look-alikes of the right
 * code (spaces, full-width or Arabic-Indic digits, a seventh digit) are wrong codes (40019) that leave the
 * right one usable; recovery codes are matched after removing spaces and dashes, nothing more.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from '../testing/auth.js';
import { setRuntimeConfig, TEST_USER_PASSWORD, type TestServer } from '../testing/index.js';
import { addUser, post, startMfaServer, testClock } from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

/** Arabic-Indic digits (U+0660…U+0669) and full-width digits (U+FF10…U+FF19) of an ASCII code. */
const arabicIndic = (code: string) => code.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
const fullWidth = (code: string) => code.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));

export function defineMfaInputsContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`malformed second-factor input on ${dbType} with ${cache}`, () => {
    const clock = testClock();
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
        ['/api/v1/auth/login/totp', { challengeId: id, code: '1'.repeat(10_000) }, 'code'],
        ['/api/v1/auth/login/totp', { challengeId: 42, code: '123456' }, 'challengeId'],
        ['/api/v1/auth/login/totp', { challengeId: 'x'.repeat(65), code: '123456' }, 'challengeId'],
        ['/api/v1/auth/login/totp', { code: '123456' }, 'challengeId'],
        ['/api/v1/auth/mfa/bind/complete', { bindChallengeId: id, totpCode: 123456 }, 'totpCode'],
        ['/api/v1/auth/mfa/bind/complete', { bindChallengeId: true, totpCode: '123456' }, 'bindChallengeId'],
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
        ` ${right}`,
        `${right} `,
        `${right}\n`,
        `${right.slice(0, 3)} ${right.slice(3)}`,
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

    it('matches recovery codes ignoring case, spaces and dashes only', async () => {
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
      const typed = ` ${second.toLowerCase().replace('-', ' - ')}\t`;
      expect((await recover(typed)).body.code).toBe(0);
    });
  });
}

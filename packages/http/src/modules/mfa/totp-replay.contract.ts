/**
 * A TOTP code is accepted once per account, whichever door it is used at and however many requests carry it at
 * once (RFC 6238 §5.2): two challenges completed at once with one code open one session; a code spent at login
 * does not re-authenticate and one spent at re-authentication does not log in; two sessions re-authenticating
 * at once with one code open one window; an older code cannot follow a newer one inside the drift window. With
 * Redis the claims are shared, so this holds across instances.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../testing/auth.js';
import { setRuntimeConfig, TEST_USER_PASSWORD, type TestServer } from '../../testing/index.js';
import { addUser, post, startMfaServer, testClock } from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

export function defineTotpReplayContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`TOTP replay under concurrency on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;

    async function challenge(account: string): Promise<string> {
      const answer = await post(t, '/api/v1/auth/login', { account, password: TEST_USER_PASSWORD });
      expect(answer.body.code).toBe(40018);
      return answer.body.args.challengeId as string;
    }
    const totpLogin = (challengeId: string, code: string) =>
      post(t, '/api/v1/auth/login/totp', { challengeId, code });
    const reauth = (token: string, totpCode: string) =>
      post(t, '/api/v1/auth/reauth', { method: 'totp', totpCode }, bearer(token));
    /** A session of `account` opened with the code of the current step; the clock then moves one step on. */
    async function session(account: string, seed: string): Promise<string> {
      const answer = await totpLogin(await challenge(account), totpCode(seed, clock.now()));
      expect(answer.body.code).toBe(0);
      clock.advance(30);
      return answer.body.data.accessToken as string;
    }

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
    });
    afterAll(() => t?.close());

    it('opens one session for one code submitted to two challenges at once', async () => {
      const userId = await addUser(t, { account: 'rp-two' });
      const { seed } = await bindTotp(t, clock, 'rp-two');
      // Signed in once, so that the second password login does not rehash the password of a first login (which
      // would end the first challenge as stale, 40028, before its code is looked at).
      await session('rp-two', seed);
      const [a, b] = [await challenge('rp-two'), await challenge('rp-two')];
      const code = totpCode(seed, clock.now());
      const answers = await Promise.all([totpLogin(a, code), totpLogin(b, code)]);
      expect(answers.map((r) => r.body.code).sort()).toEqual([0, 40019]);
      expect(await t.server.database.repos.sessions.listLive(userId)).toHaveLength(2);
    });

    it('refuses at re-authentication a code spent at login, and at login one spent at re-authentication', async () => {
      await addUser(t, { account: 'rp-doors' });
      const { seed } = await bindTotp(t, clock, 'rp-doors');
      const step = await challenge('rp-doors');
      const spent = totpCode(seed, clock.now());
      const token = (await totpLogin(step, spent)).body.data.accessToken as string;
      expect((await reauth(token, spent)).body.code).toBe(40019);
      clock.advance(30);
      const next = totpCode(seed, clock.now());
      expect((await reauth(token, next)).body.code).toBe(0);
      expect((await totpLogin(await challenge('rp-doors'), next)).body.code).toBe(40019);
    });

    it('opens one re-authentication window for one code sent from two sessions at once', async () => {
      await addUser(t, { account: 'rp-reauth' });
      const { seed } = await bindTotp(t, clock, 'rp-reauth');
      const first = await session('rp-reauth', seed);
      const second = await session('rp-reauth', seed);
      const code = totpCode(seed, clock.now());
      const answers = await Promise.all([reauth(first, code), reauth(second, code)]);
      expect(answers.map((r) => r.body.code).sort()).toEqual([0, 40019]);
    });

    it('refuses an older code after a newer one inside the drift window', async () => {
      await addUser(t, { account: 'rp-older' });
      const { seed } = await bindTotp(t, clock, 'rp-older');
      const ahead = new Date(clock.now().getTime() + 30_000);
      expect((await totpLogin(await challenge('rp-older'), totpCode(seed, ahead))).body.code).toBe(0);
      const current = totpCode(seed, clock.now());
      expect((await totpLogin(await challenge('rp-older'), current)).body.code).toBe(40019);
    });
  });
}

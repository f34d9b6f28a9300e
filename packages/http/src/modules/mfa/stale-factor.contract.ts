/**
 * Steps started with an authenticator die with it (spec "TOTP (authenticator)"): a TOTP login step issued for
 * a binding that an administrator cleared, a recovery code cleared or a re-bind replaced answers 40028 and
 * opens nothing, also when the clear lands while the completion is opening its session (its revocation could
 * not see that session yet). A recovery clears the binding its code belonged to, never a newer one; recovery
 * codes of a replaced binding are dead; two binds racing store one seed. Races are staged with hooks, never
 * with timing.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, login } from '../../testing/auth.js';
import {
  setRuntimeConfig,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import { addUser, post, startMfaServer, testClock } from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

export function defineStaleFactorContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`steps started with an authenticator that changed, on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;
    let admin: Record<string, string>;
    const repos = () => t.server.database.repos;

    /** The administrator's clear (POST /sys/mfa/clear), re-authenticating first (the window is 5 minutes). */
    async function adminClear(userId: number): Promise<void> {
      const reauth = await post(
        t,
        '/api/v1/auth/reauth',
        { method: 'password', password: TEST_ADMIN_PASSWORD },
        admin,
      );
      expect(reauth.body.code).toBe(0);
      expect((await post(t, '/api/v1/sys/mfa/clear', { userId }, admin)).body.code).toBe(0);
    }

    const recover = (account: string, recoveryCode: string) =>
      post(t, '/api/v1/auth/mfa/recovery', { account, currentPassword: TEST_USER_PASSWORD, recoveryCode });

    /** A password login of a bound account: the challenge of its TOTP step. */
    async function challenge(account: string): Promise<string> {
      const answer = await post(t, '/api/v1/auth/login', { account, password: TEST_USER_PASSWORD });
      expect(answer.body.code).toBe(40018);
      return answer.body.args.challengeId as string;
    }

    const totpLogin = (challengeId: string, code: string) =>
      post(t, '/api/v1/auth/login/totp', { challengeId, code });

    const bindStart = async (account: string) =>
      (await post(t, '/api/v1/auth/mfa/bind/start', { account, currentPassword: TEST_USER_PASSWORD })).body
        .data as { bindChallengeId: string; seed: string };
    const bindComplete = (s: { bindChallengeId: string; seed: string }) =>
      post(t, '/api/v1/auth/mfa/bind/complete', {
        bindChallengeId: s.bindChallengeId,
        totpCode: totpCode(s.seed, clock.now()),
      });

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
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    it('refuses (40028) a TOTP step issued before an administrator cleared the authenticator, with any code', async () => {
      const userId = await addUser(t, { account: 'sf-clear' });
      const { seed } = await bindTotp(t, clock, 'sf-clear');
      const before = await challenge('sf-clear');
      await adminClear(userId);
      expect((await totpLogin(before, totpCode(seed, clock.now()))).body).toMatchObject({
        code: 40028,
        data: null,
      });
      expect(await repos().sessions.listLive(userId)).toEqual([]);
    });

    it('refuses (40028) a TOTP step whose session opens while an administrator clears the authenticator', async () => {
      const userId = await addUser(t, { account: 'sf-clear-race' });
      const { seed } = await bindTotp(t, clock, 'sf-clear-race');
      const during = await challenge('sf-clear-race');
      const spy = whileTheSessionOpens(() => adminClear(userId));
      try {
        const racing = await totpLogin(during, totpCode(seed, clock.now()));
        expect(spy).toHaveBeenCalledTimes(1);
        expect(racing.body).toMatchObject({ code: 40028, data: null });
      } finally {
        spy.mockRestore();
      }
      expect((await repos().users.findById(userId))?.totpSecret).toBeNull();
      expect(await repos().sessions.listLive(userId)).toEqual([]);
    });

    it('refuses (40028) a TOTP step whose session opens while a recovery code clears the authenticator', async () => {
      const userId = await addUser(t, { account: 'sf-recover-race' });
      const { seed, recoveryCodes } = await bindTotp(t, clock, 'sf-recover-race');
      const during = await challenge('sf-recover-race');
      const spy = whileTheSessionOpens(async () => {
        expect((await recover('sf-recover-race', recoveryCodes[0] ?? '')).body.code).toBe(0);
      });
      try {
        const racing = await totpLogin(during, totpCode(seed, clock.now()));
        expect(spy).toHaveBeenCalledTimes(1);
        expect(racing.body).toMatchObject({ code: 40028, data: null });
      } finally {
        spy.mockRestore();
      }
      expect(await repos().sessions.listLive(userId)).toEqual([]);
    });

    it('refuses (40028) a TOTP step issued before the authenticator was replaced, even with a code of the new one', async () => {
      const userId = await addUser(t, { account: 'sf-rebind' });
      const old = await bindTotp(t, clock, 'sf-rebind');
      const before = await challenge('sf-rebind');
      await adminClear(userId);
      const fresh = await bindTotp(t, clock, 'sf-rebind');
      expect((await totpLogin(before, totpCode(fresh.seed, clock.now()))).body).toMatchObject({
        code: 40028,
        data: null,
      });
      expect((await totpLogin(before, totpCode(old.seed, clock.now()))).body.code).toBe(40028);
      expect(await repos().sessions.listLive(userId)).toEqual([]);
      // A step issued for the new binding completes with its code.
      const current = await challenge('sf-rebind');
      expect((await totpLogin(current, totpCode(fresh.seed, clock.now()))).body.code).toBe(0);
    });

    it('refuses (40022) recovery codes of a replaced binding, and they clear nothing', async () => {
      const userId = await addUser(t, { account: 'sf-old-codes' });
      const old = await bindTotp(t, clock, 'sf-old-codes');
      await adminClear(userId);
      const fresh = await bindTotp(t, clock, 'sf-old-codes');
      for (const code of old.recoveryCodes.slice(0, 3)) {
        expect((await recover('sf-old-codes', code)).body.code).toBe(40022);
      }
      const step = await challenge('sf-old-codes');
      expect((await totpLogin(step, totpCode(fresh.seed, clock.now()))).body.code).toBe(0);
    });

    it('does not let a recovery clear a binding made after its code was used (40022; the new binding stays)', async () => {
      const userId = await addUser(t, { account: 'sf-recover-rebind' });
      const old = await bindTotp(t, clock, 'sf-recover-rebind');
      const lock = t.server.security.passwords.secondFactorLock;
      const begin = lock.begin.bind(lock);
      let fresh: Awaited<ReturnType<typeof bindTotp>> | undefined;
      // The recovery code is used; before the recovery clears, an administrator clears and the owner re-binds.
      const spy = vi.spyOn(lock, 'begin').mockImplementationOnce(async (subject) => {
        const attempt = await begin(subject);
        return {
          failed: attempt.failed,
          async succeeded() {
            await attempt.succeeded();
            await adminClear(userId);
            fresh = await bindTotp(t, clock, 'sf-recover-rebind');
          },
        };
      });
      let answer: Awaited<ReturnType<typeof recover>>;
      try {
        answer = await recover('sf-recover-rebind', old.recoveryCodes[0] ?? '');
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
      expect(fresh).toBeDefined();
      expect(answer.body.code).toBe(40022);
      expect((await repos().users.findById(userId))?.totpSecret).not.toBeNull();
      const { db, tables } = t.server.database.database;
      const codes = (await db.select().from(tables.sysTotpRecoveryCode)).filter((r) => r.userId === userId);
      expect(codes.filter((r) => r.usedTime === null)).toHaveLength(10);
      const step = await challenge('sf-recover-rebind');
      const session = await totpLogin(step, totpCode(fresh?.seed ?? '', clock.now()));
      expect(session.body.code).toBe(0);
      // The new binding's own codes still work.
      expect((await recover('sf-recover-rebind', fresh?.recoveryCodes[0] ?? '')).body.code).toBe(0);
    });

    it('stores one seed when two binds complete at once', async () => {
      const userId = await addUser(t, { account: 'sf-two-binds' });
      const [a, b] = [await bindStart('sf-two-binds'), await bindStart('sf-two-binds')];
      const answers = await Promise.all([bindComplete(a), bindComplete(b)]);
      const winners = answers.filter((r) => r.body.code === 0);
      expect(winners).toHaveLength(1);
      expect([40019, 40021]).toContain(answers.find((r) => r.body.code !== 0)?.body.code);
      const won = answers[0]?.body.code === 0 ? a : b;
      const lost = won === a ? b : a;
      const { db, tables } = t.server.database.database;
      const stored = (await db.select().from(tables.sysTotpRecoveryCode)).filter((r) => r.userId === userId);
      expect(stored).toHaveLength(10);
      clock.advance(30);
      // The loser, retried in the next step, binds nothing either; the winner's seed is the one stored.
      expect((await bindComplete(lost)).body.code).toBe(40021);
      const step = await challenge('sf-two-binds');
      expect((await totpLogin(step, totpCode(lost.seed, clock.now()))).body.code).toBe(40019);
      expect((await totpLogin(step, totpCode(won.seed, clock.now()))).body.code).toBe(0);
      const codes = winners[0]?.body.data.recoveryCodes as string[];
      expect((await recover('sf-two-binds', codes[0] ?? '')).body.code).toBe(0);
    });

    it("answers 40021 to a bind of an account bound meanwhile without spending the owner's code", async () => {
      await addUser(t, { account: 'sf-late-bind' });
      const stale = await bindStart('sf-late-bind');
      const { seed } = await bindTotp(t, clock, 'sf-late-bind');
      // Same time step: the stale bind's valid code must not claim the step the owner's code is about to use.
      expect((await bindComplete(stale)).body).toMatchObject({ code: 40021, data: null });
      const step = await challenge('sf-late-bind');
      expect((await totpLogin(step, totpCode(seed, clock.now()))).body.code).toBe(0);
    });
  });
}

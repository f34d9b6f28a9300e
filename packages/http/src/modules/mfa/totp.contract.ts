/**
 * TOTP over HTTP (spec "TOTP (authenticator)"): the master switch and its deploy-time floor, binding with a
 * sealed seed and recovery codes shown once, the 40018 step, wrong and replayed codes (40019), 40020 for a
 * demanded but unbound factor, recovery (40022; clears MFA and revokes every session), and one session for two
 * simultaneous submissions. Codes come from the test's own RFC 6238 generator, never from the service's library.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTotpRepository } from '@svc/data';
import { type DbType, sha256Hex } from '@svc/kernel';
import { createRecoveryCodeHasher, resolveMasterKey } from '@svc/security';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from '../../testing/auth.js';
import {
  setRuntimeConfig,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import {
  addUser,
  post,
  refusingRestores,
  startMfaServer,
  type TestClock,
  testClock,
} from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';

/** Binds an authenticator for `account`; answers the seed and the recovery codes. */
export async function bindTotp(
  t: TestServer,
  clock: TestClock,
  account: string,
  password = TEST_USER_PASSWORD,
) {
  const start = await post(t, '/api/v1/auth/mfa/bind/start', { account, currentPassword: password });
  expect(start.body.code).toBe(0);
  const { bindChallengeId, seed } = start.body.data;
  const done = await post(t, '/api/v1/auth/mfa/bind/complete', {
    bindChallengeId,
    totpCode: totpCode(seed, clock.now()),
  });
  expect(done.body.code).toBe(0);
  // The code just used is spent; later steps use the next time step.
  clock.advance(30);
  return { seed: seed as string, recoveryCodes: done.body.data.recoveryCodes as string[] };
}

export function defineTotpContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`TOTP on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;
    const login = (account: string, password = TEST_USER_PASSWORD) =>
      post(t, '/api/v1/auth/login', { account, password });
    const totpLogin = (challengeId: string, code: string) =>
      post(t, '/api/v1/auth/login/totp', { challengeId, code });

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock, { Service__Security__Totp__Issuer: 'Acme Admin' });
    });
    afterAll(() => t?.close());

    it('refuses binding, the TOTP step and recovery with 40025 while the master switch is off', async () => {
      await addUser(t, { account: 'tp-off', forceTotp: true });
      expect(
        (
          await post(t, '/api/v1/auth/mfa/bind/start', {
            account: 'tp-off',
            currentPassword: TEST_USER_PASSWORD,
          })
        ).body.code,
      ).toBe(40025);
      expect(
        (await post(t, '/api/v1/auth/mfa/bind/complete', { bindChallengeId: 'x', totpCode: '123456' })).body
          .code,
      ).toBe(40025);
      expect((await totpLogin('x', '123456')).body.code).toBe(40025);
      expect(
        (
          await post(t, '/api/v1/auth/mfa/recovery', {
            account: 'tp-off',
            currentPassword: TEST_USER_PASSWORD,
            recoveryCode: 'AAAAA-BBBBB',
          })
        ).body.code,
      ).toBe(40025);
      // ForceTotp has no effect while the switch is off.
      expect((await login('tp-off')).body.code).toBe(0);
    });

    describe('with the runtime switch on', () => {
      beforeAll(() => setRuntimeConfig(t, 'sys.security.totp.enabled', 'true'));

      it('binds: password-checked start with the issuer, a valid code stores the sealed seed and answers recovery codes once', async () => {
        const userId = await addUser(t, { account: 'tp-a' });
        expect(
          (await post(t, '/api/v1/auth/mfa/bind/start', { account: 'tp-a', currentPassword: 'Wrong#Pass1' }))
            .body.code,
        ).toBe(40001);
        const start = await post(t, '/api/v1/auth/mfa/bind/start', {
          account: 'tp-a',
          currentPassword: TEST_USER_PASSWORD,
        });
        const { bindChallengeId, otpauthUri, seed, expiresSeconds } = start.body.data;
        expect(expiresSeconds).toBe(300);
        expect(seed).toMatch(/^[A-Z2-7]{32}$/);
        const uri = new URL(otpauthUri);
        expect(uri.protocol).toBe('otpauth:');
        expect(decodeURIComponent(otpauthUri)).toMatch(/^otpauth:\/\/totp\/Acme Admin:tp-a\?/);
        expect(uri.searchParams.get('secret')).toBe(seed);
        expect(uri.searchParams.get('issuer')).toBe('Acme Admin');
        const wrong = await post(t, '/api/v1/auth/mfa/bind/complete', {
          bindChallengeId,
          totpCode: '000000' === totpCode(seed, clock.now()) ? '111111' : '000000',
        });
        expect(wrong.body).toMatchObject({ code: 40019, args: { attemptsLeft: 4 } });
        const done = await post(t, '/api/v1/auth/mfa/bind/complete', {
          bindChallengeId,
          totpCode: totpCode(seed, clock.now()),
        });
        expect(done.body.code).toBe(0);
        const codes: string[] = done.body.data.recoveryCodes;
        expect(codes).toHaveLength(10);
        for (const c of codes) expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
        const row = await t.server.database.repos.users.findById(userId);
        expect(row?.totpSecret).toBeTruthy();
        expect(row?.totpSecret).not.toContain(seed);
        expect(row?.totpBoundTime).not.toBeNull();
        const { db, tables } = t.server.database.database;
        const stored = (await db.select().from(tables.sysTotpRecoveryCode)).filter(
          (r) => r.userId === userId,
        );
        expect(stored).toHaveLength(10);
        for (const c of codes) expect(JSON.stringify(stored)).not.toContain(c.replace('-', ''));
        // The bind challenge is spent, and a bound account cannot start another binding.
        expect(
          (
            await post(t, '/api/v1/auth/mfa/bind/complete', {
              bindChallengeId,
              totpCode: totpCode(seed, clock.now()),
            })
          ).body.code,
        ).toBe(40021);
        expect(
          (
            await post(t, '/api/v1/auth/mfa/bind/start', {
              account: 'tp-a',
              currentPassword: TEST_USER_PASSWORD,
            })
          ).body.code,
        ).toBe(40021);
        expect(existsSync(join(t.contentRoot, 'data', 'dev-protection.key'))).toBe(true);
      });

      it('answers 40018 for a bound account and completes with a code, refusing wrong and replayed codes with 40019', async () => {
        await addUser(t, { account: 'tp-b' });
        const { seed } = await bindTotp(t, clock, 'tp-b');
        const step = await login('tp-b');
        expect(step.body).toMatchObject({ code: 40018, data: null, args: { expiresSeconds: 300 } });
        const { challengeId } = step.body.args;
        const code = totpCode(seed, clock.now());
        const wrong = await totpLogin(challengeId, code === '123456' ? '654321' : '123456');
        expect(wrong.body).toMatchObject({ code: 40019, args: { attemptsLeft: 4 } });
        const ok = await totpLogin(challengeId, code);
        expect(ok.body.code).toBe(0);
        expect(ok.body.data.account).toBe('tp-b');
        // The same code for a new challenge inside its window is a replay.
        const again = (await login('tp-b')).body.args.challengeId;
        expect((await totpLogin(again, code)).body.code).toBe(40019);
        clock.advance(30);
        expect((await totpLogin(again, totpCode(seed, clock.now()))).body.code).toBe(0);
        // A challenge lives ChallengeTtlSeconds.
        clock.advance(30);
        const late = (await login('tp-b')).body.args.challengeId;
        clock.advance(301);
        expect((await totpLogin(late, totpCode(seed, clock.now()))).body.code).toBe(40028);
      });

      it('drops a challenge after five wrong codes', async () => {
        // The account's second-factor lock (MaxFailCount, 5 by default) would answer the fifth: raised for this
        // test, which is about the challenge.
        const { maxFailCount } = await t.server.security.http.settings.loginLock();
        await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', '10');
        await addUser(t, { account: 'tp-c' });
        const { seed } = await bindTotp(t, clock, 'tp-c');
        const { challengeId } = (await login('tp-c')).body.args;
        const right = totpCode(seed, clock.now());
        const wrongCode = right === '999999' ? '999998' : '999999';
        const left = [];
        for (let i = 0; i < 5; i++)
          left.push((await totpLogin(challengeId, wrongCode)).body.args.attemptsLeft);
        expect(left).toEqual([4, 3, 2, 1, 0]);
        expect((await totpLogin(challengeId, right)).body.code).toBe(40028);
        await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', String(maxFailCount));
      });

      it('counts a wrong code whose challenge cannot go back to a failing cache', async () => {
        const { maxFailCount } = await t.server.security.http.settings.loginLock();
        await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', '2');
        await addUser(t, { account: 'tp-f' });
        const { seed } = await bindTotp(t, clock, 'tp-f');
        const right = totpCode(seed, clock.now());
        const wrongCode = right === '999999' ? '999998' : '999999';
        // The cache fails as the wrong code's challenge goes back (after the code was compared).
        const refused = await refusingRestores(t, 'mfa:totp:ch:', async () => {
          const failed = await totpLogin((await login('tp-f')).body.args.challengeId, wrongCode);
          expect(failed.body.code).not.toBe(0);
        });
        expect(refused).toBe(1);
        // That code counted: the next wrong one reaches the lock of two (it was given back before: 40019 again).
        const next = await totpLogin((await login('tp-f')).body.args.challengeId, wrongCode);
        expect(next.body.code).toBe(40004);
        await setRuntimeConfig(t, 'sys.security.loginLock.maxFailCount', String(maxFailCount));
      });

      it('opens exactly one session for two simultaneous submissions of one challenge and code', async () => {
        const userId = await addUser(t, { account: 'tp-d' });
        const { seed } = await bindTotp(t, clock, 'tp-d');
        const { challengeId } = (await login('tp-d')).body.args;
        const code = totpCode(seed, clock.now());
        const results = await Promise.all([totpLogin(challengeId, code), totpLogin(challengeId, code)]);
        const codes = results.map((r) => r.body.code).sort();
        expect(codes[0]).toBe(0);
        expect([40019, 40028]).toContain(codes[1]);
        expect(await t.server.database.repos.sessions.listLive(userId)).toHaveLength(1);
      });

      it('answers 40020 when ForceTotp or requireForSuperAdmin demands an unbound factor', async () => {
        await addUser(t, { account: 'tp-forced', forceTotp: true });
        expect((await login('tp-forced')).body).toMatchObject({
          code: 40020,
          msgKey: 'error.auth.totpNotBound',
        });
        expect((await login('superAdmin', TEST_ADMIN_PASSWORD)).body.code).toBe(0);
        await setRuntimeConfig(t, 'sys.security.totp.requireForSuperAdmin', 'true');
        try {
          expect((await login('superAdmin', TEST_ADMIN_PASSWORD)).body.code).toBe(40020);
        } finally {
          await setRuntimeConfig(t, 'sys.security.totp.requireForSuperAdmin', 'false');
        }
        // Once bound, the forced account goes through the TOTP step.
        await bindTotp(t, clock, 'tp-forced');
        expect((await login('tp-forced')).body.code).toBe(40018);
      });

      it('recovers with a code once: MFA cleared, every session revoked; used or unknown codes answer 40022', async () => {
        const userId = await addUser(t, { account: 'tp-e' });
        const { seed, recoveryCodes } = await bindTotp(t, clock, 'tp-e');
        const step = (await login('tp-e')).body.args.challengeId;
        const session = (await totpLogin(step, totpCode(seed, clock.now()))).body.data;
        const recover = (recoveryCode: string) =>
          post(t, '/api/v1/auth/mfa/recovery', {
            account: 'tp-e',
            currentPassword: TEST_USER_PASSWORD,
            recoveryCode,
          });
        expect((await recover('ZZZZZ-ZZZZZ')).body.code).toBe(40022);
        const [code = ''] = recoveryCodes;
        const results = await Promise.all([recover(code.toLowerCase()), recover(code)]);
        expect(results.map((r) => r.body.code).sort()).toEqual([0, 40022]);
        expect((await t.request('/api/v1/ping', { headers: bearer(session.accessToken) })).status).toBe(401);
        expect(await t.server.database.repos.sessions.listLive(userId)).toHaveLength(0);
        expect((await t.server.database.repos.users.findById(userId))?.totpSecret).toBeNull();
        expect((await recover(code)).body.code).toBe(40022);
        expect((await recover(recoveryCodes[1] ?? '')).body.code).toBe(40022);
        expect((await login('tp-e')).body.code).toBe(0);
      });

      it('stores recovery codes keyed, never as SHA-256 of the code; an instance with the key verifies one once, another key none', async () => {
        const userId = await addUser(t, { account: 'tp-k' });
        const { recoveryCodes } = await bindTotp(t, clock, 'tp-k');
        const { db, tables } = t.server.database.database;
        const rc = tables.sysTotpRecoveryCode;
        const stored = async () => (await db.select().from(rc)).filter((r) => r.userId === userId);
        const bare = (code: string) => code.replace('-', '');
        const unkeyed = new Set(
          recoveryCodes.flatMap((c) =>
            [c, bare(c), `svc-recovery:${bare(c)}`].map((text) => sha256Hex(text)),
          ),
        );
        for (const row of await stored()) {
          expect(row.codeHash).toMatch(/^k1:[0-9a-f]{64}$/);
          expect(unkeyed.has(row.codeHash.slice(3))).toBe(false);
          expect(unkeyed.has(row.codeHash)).toBe(false);
        }
        const [first = '', second = ''] = recoveryCodes;
        const recover = (on: { request: TestServer['request'] }, account: string, recoveryCode: string) =>
          on.request('/api/v1/auth/mfa/recovery', {
            json: { account, currentPassword: TEST_USER_PASSWORD, recoveryCode },
          });
        const instance = (env: Record<string, string> = {}) =>
          startTestServer({
            dbType,
            cache,
            now: clock.now,
            reuse: { database: t.database, contentRoot: t.contentRoot },
            env: { Service__Security__RateLimit__Enabled: 'false', ...env },
          });
        // Another master key: the stored values open nothing there, the code stays unused.
        const foreign = await instance({
          Service__Security__DataProtection__MasterKey: 'another-master-key-0123456789abcdef',
        });
        try {
          expect((await json(await recover(foreign, 'tp-k', first))).code).toBe(40022);
        } finally {
          await foreign.stop();
        }
        expect((await stored()).every((r) => r.usedTime === null)).toBe(true);
        // A second instance sharing the key (the same key file here) verifies it, once.
        const twin = await instance();
        try {
          expect((await json(await recover(twin, 'tp-k', first.toLowerCase()))).code).toBe(0);
          expect((await json(await recover(twin, 'tp-k', first))).code).toBe(40022);
        } finally {
          await twin.stop();
        }
        expect((await t.server.database.repos.users.findById(userId))?.totpSecret).toBeNull();
        expect((await json(await recover(t, 'tp-k', second))).code).toBe(40022);
      });

      // Rows an instance of an earlier release writes after this one's start-up rewrap (a rolling upgrade).
      it('accepts a recovery code stored by an earlier release (unkeyed SHA-256) once, then it is spent', async () => {
        const userId = await addUser(t, { account: 'tp-legacy' });
        const { recoveryCodes } = await bindTotp(t, clock, 'tp-legacy');
        const { db, tables } = t.server.database.database;
        const rc = tables.sysTotpRecoveryCode;
        // What a deployed system holds: the binding with its codes as the release before this one stored them.
        const totp = createTotpRepository(t.server.database.database);
        const sealed = (await t.server.database.repos.users.findById(userId))?.totpSecret ?? '';
        expect(await totp.clear(userId, { userId: null, at: clock.now() })).toBe(true);
        const legacy = recoveryCodes.map((c) => sha256Hex(`svc-recovery:${c.replace('-', '')}`));
        expect(await totp.bind(userId, sealed, legacy, clock.now())).toBe(true);
        const recover = (recoveryCode: string) =>
          post(t, '/api/v1/auth/mfa/recovery', {
            account: 'tp-legacy',
            currentPassword: TEST_USER_PASSWORD,
            recoveryCode,
          });
        const [code = '', other = ''] = recoveryCodes;
        expect((await recover(code)).body.code).toBe(0);
        expect((await t.server.database.repos.users.findById(userId))?.totpSecret).toBeNull();
        expect((await recover(code)).body.code).toBe(40022);
        expect((await recover(other)).body.code).toBe(40022);
        // The recovery removed every unkeyed value; a new binding stores keyed ones only.
        expect((await db.select().from(rc)).filter((r) => r.userId === userId)).toEqual([]);
        await bindTotp(t, clock, 'tp-legacy');
        const rebound = (await db.select().from(rc)).filter((r) => r.userId === userId);
        expect(rebound.length).toBeGreaterThan(0);
        expect(rebound.every((r) => r.codeHash.startsWith('k1:'))).toBe(true);
      });

      it('rewraps recovery codes stored by an earlier release at start-up, once, even with two instances starting at once', async () => {
        const userId = await addUser(t, { account: 'tp-rewrap' });
        const { recoveryCodes } = await bindTotp(t, clock, 'tp-rewrap');
        const { db, tables } = t.server.database.database;
        const rc = tables.sysTotpRecoveryCode;
        const stored = async () =>
          (await db.select().from(rc))
            .filter((r) => r.userId === userId)
            .map((r) => r.codeHash)
            .sort();
        // The binding with its codes as the release before 06ce3e7 stored them (unkeyed SHA-256).
        const totp = createTotpRepository(t.server.database.database);
        const sealed = (await t.server.database.repos.users.findById(userId))?.totpSecret ?? '';
        expect(await totp.clear(userId, { userId: null, at: clock.now() })).toBe(true);
        const legacy = recoveryCodes.map((c) => sha256Hex(`svc-recovery:${c.replace('-', '')}`));
        expect(await totp.bind(userId, sealed, legacy, clock.now())).toBe(true);
        const { config } = t.server;
        const masterKey = resolveMasterKey({
          masterKey: config.service.Security.DataProtection.MasterKey,
          isDevelopment: config.environment.isDevelopment,
          contentRoot: t.contentRoot,
        });
        const hasher = createRecoveryCodeHasher(masterKey?.key ?? new Uint8Array());
        // Rewrapped exactly once each: k0: + HMAC of the stored hex (twice wrapped would be HMAC of that).
        const once = legacy.map((h) => hasher.wrapLegacy(h)).sort();
        const instance = () =>
          startTestServer({
            dbType,
            cache,
            now: clock.now,
            reuse: { database: t.database, contentRoot: t.contentRoot },
            env: { Service__Security__RateLimit__Enabled: 'false' },
          });
        const started = await Promise.allSettled([instance(), instance()]);
        await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
        expect(started.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
        const after = await stored();
        expect(after).toEqual(once);
        const plain = new Set(
          recoveryCodes.flatMap((c) =>
            [c, c.replace('-', ''), `svc-recovery:${c.replace('-', '')}`].map(sha256Hex),
          ),
        );
        for (const value of after) {
          expect(value).toMatch(/^k0:[0-9a-f]{64}$/);
          expect(plain.has(value.slice(3))).toBe(false);
        }
        // A later start changes nothing.
        const again = await instance();
        await again.stop();
        expect(await stored()).toEqual(after);
        // The codes still work, once: the first clears the binding, so the others are spent with it.
        const recover = (recoveryCode: string) =>
          post(t, '/api/v1/auth/mfa/recovery', {
            account: 'tp-rewrap',
            currentPassword: TEST_USER_PASSWORD,
            recoveryCode,
          });
        const [code = '', other = ''] = recoveryCodes;
        expect((await recover(code.toLowerCase())).body.code).toBe(0);
        expect((await t.server.database.repos.users.findById(userId))?.totpSecret).toBeNull();
        expect((await recover(code)).body.code).toBe(40022);
        expect((await recover(other)).body.code).toBe(40022);
      });

      it('refuses unknown body properties with 48000', async () => {
        const res = await post(t, '/api/v1/auth/mfa/bind/start', {
          account: 'x',
          currentPassword: 'y',
          admin: true,
        });
        expect(res.body.code).toBe(48000);
      });
    });
  });

  describe(`TOTP deploy-time floor on ${dbType} with ${cache}`, () => {
    it('keeps TOTP on whatever the runtime row says', async () => {
      const clock = testClock();
      const t = await startMfaServer(dbType, cache, clock, { Service__Security__Totp__Enabled: 'true' });
      try {
        await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
        await addUser(t, { account: 'floor-a' });
        const { seed } = await bindTotp(t, clock, 'floor-a');
        const step = await post(t, '/api/v1/auth/login', {
          account: 'floor-a',
          password: TEST_USER_PASSWORD,
        });
        expect(step.body.code).toBe(40018);
        expect((await totpLogin2(t, step.body.args.challengeId, totpCode(seed, clock.now()))).body.code).toBe(
          0,
        );
      } finally {
        await t.close();
      }
    });
  });
}

const totpLogin2 = (t: TestServer, challengeId: string, code: string) =>
  post(t, '/api/v1/auth/login/totp', { challengeId, code });

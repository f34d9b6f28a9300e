/**
 * Contract: password login in the spec's decision order, the login lock (only wrong passwords count, variants
 * share one counter, a right password is refused while locked), unknown accounts indistinguishable from
 * wrong passwords, what a session hands out, and the login log.
 */
import { BusinessError, ErrorCode, sha256Hex } from '@svc/kernel';
import { expect, it } from 'vitest';
import type { LoginInput } from './contracts.js';
import {
  type AuthFixture,
  buildServices,
  CLIENT,
  createUser,
  describeAuth,
  ITERATIONS,
  PASSWORD,
  updateUserBehindTheService,
} from './harness.contract.js';

/** `ｆｕｌｌ－ｗｉｄｔｈ` form of printable ASCII: NFKC folds it back. */
const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));

/** The error code a rejected promise carries (fails the test when it resolves). */
async function codeOf(promise: Promise<unknown>): Promise<{ code: number; args: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BusinessError) return { code: error.code, args: error.args };
    throw error;
  }
  throw new Error('expected a BusinessError');
}

const input = (account: string, password: string, extra: Partial<LoginInput> = {}): LoginInput => ({
  account,
  password,
  client: CLIENT,
  ...extra,
});

export function loginContract(fixture: AuthFixture): void {
  describeAuth('login', fixture, (world) => {
    const lockRows = {
      'sys.security.loginLock.maxFailCount': '3',
      'sys.security.loginLock.lockMinutes': '7',
    };

    it('issues a session: claims, lifetimes, a hashed refresh token, the session row and the last login', async () => {
      const s = buildServices(world(), {
        runtime: { 'sys.security.session.accessMinutes': '15', 'sys.security.session.refreshMinutes': '90' },
      });
      const user = await createUser(world(), { isSuperAdmin: true, orgId: 42 });
      const at = s.clock.now().getTime();
      const issued = await s.auth.login(input(` ${user.account.toUpperCase()} `, PASSWORD));

      expect(issued).toMatchObject({
        userId: user.id,
        account: user.account,
        name: 'Contract User',
        isSuperAdmin: true,
        mustChangePassword: false,
      });
      expect(issued.expiresAt.getTime()).toBe(at + 15 * 60_000);
      expect(issued.refreshExpiresAt.getTime()).toBe(at + 90 * 60_000);
      expect(await s.tokens.verify(issued.accessToken)).toMatchObject({
        sub: String(user.id),
        sid: issued.sessionId,
        sadm: true,
        org: 42,
        unique_name: user.account,
      });

      const stored = await world().repos.refreshTokens.listBySession(issued.sessionId);
      expect(stored).toHaveLength(1);
      expect(stored[0]?.tokenHash).toBe(sha256Hex(issued.refreshToken));
      expect(JSON.stringify(stored)).not.toContain(issued.refreshToken);

      const session = await world().repos.sessions.findById(issued.sessionId);
      expect(session).toMatchObject({
        userId: user.id,
        ip: CLIENT.ip,
        userAgent: CLIENT.userAgent,
        isMfa: false,
      });
      const row = await world().repos.users.findById(user.id);
      expect(row?.lastLoginTime?.getTime()).toBe(at);
      expect(row?.lastLoginIp).toBe(CLIENT.ip);
      expect(await s.sessions.authenticate(issued.accessToken)).toMatchObject({ userId: user.id });
    });

    it('counts wrong passwords, locks at MaxFailCount and then refuses the right password', async () => {
      const s = buildServices(world(), { runtime: lockRows });
      const user = await createUser(world());
      expect(await codeOf(s.auth.login(input(user.account, 'Wrong#1')))).toEqual({
        code: 40001,
        args: { attemptsLeft: 2 },
      });
      expect((await codeOf(s.auth.login(input(user.account, 'Wrong#2')))).args).toEqual({ attemptsLeft: 1 });
      // The failure that reaches the limit already answers "locked".
      expect(await codeOf(s.auth.login(input(user.account, 'Wrong#3')))).toEqual({
        code: 40004,
        args: { lockMinutes: 7 },
      });
      expect(await codeOf(s.auth.login(input(user.account, PASSWORD)))).toEqual({
        code: 40004,
        args: { lockMinutes: 7 },
      });
      expect(await world().repos.sessions.listLive(user.id)).toEqual([]);
      await s.lock.reset({ userId: user.id, account: user.account });
      await codeOf(s.auth.login(input(user.account, 'Wrong#4')));
      // A resolved account counts on its user id, and on the submitted text as an unknown one would.
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: user.id }))).toBe(1);
      expect(await world().cache.getCounter(s.lock.lockKey(user.account))).toBe(1);
      expect((await s.auth.login(input(user.account, PASSWORD))).userId).toBe(user.id);
      // A successful login clears both counters.
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: user.id }))).toBe(0);
      expect(await world().cache.getCounter(s.lock.lockKey(user.account))).toBe(0);
    });

    it('shares one counter between the case and surrounding-space variants the lookup resolves', async () => {
      const s = buildServices(world(), { runtime: lockRows });
      const user = await createUser(world());
      const variants = [user.account, `${user.account.toUpperCase()} `, ` ${user.account}`];
      const codes = [];
      for (const account of variants)
        codes.push((await codeOf(s.auth.login(input(account, 'Wrong#x')))).code);
      expect(codes).toEqual([40001, 40001, 40004]);
      expect((await codeOf(s.auth.login(input(user.account, PASSWORD)))).code).toBe(40004);
    });

    it('gives text variants of an account that does not resolve one counter of their own', async () => {
      const s = buildServices(world(), { runtime: lockRows });
      const ghost = `ghost${Date.now().toString(36)}`;
      const variants = [ghost, `${ghost.toUpperCase()} `, fullWidth(ghost)];
      const codes = [];
      for (const account of variants)
        codes.push((await codeOf(s.auth.login(input(account, 'Wrong#x')))).code);
      expect(codes).toEqual([40001, 40001, 40004]);
    });

    it('does not count a wrong captcha, the lock itself or a disabled account; checks the lock before the captcha', async () => {
      const calls: string[] = [];
      const s = buildServices(world(), {
        runtime: { ...lockRows, 'sys.security.loginLock.maxFailCount': '2' },
        hooks: {
          async verifyCaptcha(login) {
            calls.push(login.account);
            if (login.captchaCode !== 'ok') throw new BusinessError(ErrorCode.CaptchaWrong);
          },
        },
      });
      const user = await createUser(world());
      for (let i = 0; i < 3; i++) {
        expect((await codeOf(s.auth.login(input(user.account, 'Wrong#1', { captchaCode: 'no' })))).code).toBe(
          40003,
        );
      }
      const disabled = await createUser(world(), { enabled: false });
      for (let i = 0; i < 3; i++) {
        expect(
          (await codeOf(s.auth.login(input(disabled.account, PASSWORD, { captchaCode: 'ok' })))).code,
        ).toBe(40005);
      }
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: user.id }))).toBe(0);
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: disabled.id }))).toBe(0);
      // The password is checked before the disabled flag: a wrong one is a plain 40001 and counts.
      expect(
        (await codeOf(s.auth.login(input(disabled.account, 'Wrong#1', { captchaCode: 'ok' })))).code,
      ).toBe(40001);
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: disabled.id }))).toBe(1);

      // Locked: refused before the captcha hook runs, and the refusal does not count again.
      await s.auth.login(input(user.account, 'Wrong#1', { captchaCode: 'ok' })).catch(() => {});
      await s.auth.login(input(user.account, 'Wrong#2', { captchaCode: 'ok' })).catch(() => {});
      calls.length = 0;
      expect((await codeOf(s.auth.login(input(user.account, PASSWORD, { captchaCode: 'no' })))).code).toBe(
        40004,
      );
      expect(calls).toEqual([]);
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: user.id }))).toBe(2);
    });

    it('answers unknown and soft-deleted accounts like a wrong password, at the cost of a hash', async () => {
      const s = buildServices(world(), { runtime: lockRows });
      const known = await createUser(world());
      const deleted = await createUser(world(), { isDelete: true });
      const wrong = await codeOf(s.auth.login(input(known.account, 'Wrong#1')));
      const unknown = await codeOf(s.auth.login(input('nobody-at-all', 'Wrong#1')));
      const gone = await codeOf(s.auth.login(input(deleted.account, PASSWORD)));
      expect(unknown).toEqual(wrong);
      expect(gone).toEqual(wrong);

      // The cost (one PBKDF2 of the current strength for every outcome) is counted in lockout.contract.ts.
    });

    it('sets MustChangePassword when the password expired, filling a null anchor first, without blocking', async () => {
      const s = buildServices(world(), { runtime: { 'sys.security.password.expireDays': '30' } });
      const fresh = await createUser(world(), { lastPasswordChangeTime: null });
      const first = await s.auth.login(input(fresh.account, PASSWORD));
      expect(first.mustChangePassword).toBe(false);
      const anchored = await world().repos.users.findById(fresh.id);
      expect(anchored?.lastPasswordChangeTime?.getTime()).toBe(s.clock.now().getTime());

      s.clock.advance(30 * 86_400_000);
      const expired = await s.auth.login(input(fresh.account, PASSWORD));
      expect(expired.mustChangePassword).toBe(true);
      expect(await s.sessions.authenticate(expired.accessToken)).not.toBeNull();
      const flagged = await world().repos.users.findById(fresh.id);
      expect(flagged?.mustChangePassword).toBe(true);
      // The anchor is not moved by later logins.
      expect(flagged?.lastPasswordChangeTime?.getTime()).toBe(anchored?.lastPasswordChangeTime?.getTime());

      const old = await createUser(world(), {
        lastPasswordChangeTime: new Date(s.clock.now().getTime() - 31 * 86_400_000),
      });
      expect((await s.auth.login(input(old.account, PASSWORD))).mustChangePassword).toBe(true);
    });

    it('silently rehashes a password stored with another iteration count', async () => {
      const s = buildServices(world());
      const anchor = new Date('2025-01-01T00:00:00.000Z');
      const user = await createUser(world(), {
        iterations: ITERATIONS + 20_000,
        lastPasswordChangeTime: anchor,
      });
      expect(user.password.split('$')[1]).toBe(String(ITERATIONS + 20_000));
      await s.auth.login(input(user.account, PASSWORD));
      const row = await world().repos.users.findById(user.id);
      expect(row?.password.split('$')[1]).toBe(String(ITERATIONS));
      expect(row?.password).not.toBe(user.password);
      expect(row?.lastPasswordChangeTime?.toISOString()).toBe(anchor.toISOString());
      expect((await s.auth.login(input(user.account, PASSWORD))).userId).toBe(user.id);
    });

    it('lets the second-factor hook answer a signal instead of a session, without counting a failure', async () => {
      const seen: number[] = [];
      const s = buildServices(world(), {
        hooks: {
          async afterPassword(user) {
            seen.push(user.id);
            throw new BusinessError(ErrorCode.SmsCodeRequired, { challengeId: 'c-1' });
          },
        },
      });
      const user = await createUser(world());
      expect(await codeOf(s.auth.login(input(user.account, PASSWORD)))).toEqual({
        code: 40009,
        args: { challengeId: 'c-1' },
      });
      expect(seen).toEqual([user.id]);
      expect(await world().repos.sessions.listLive(user.id)).toEqual([]);
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: user.id }))).toBe(0);
    });

    it('refuses and revokes the new session when the user is disabled while the login is under way', async () => {
      const user = await createUser(world());
      const s = buildServices(world(), {
        hooks: {
          // Runs after the password was accepted and before the session is opened: an admin disables the user.
          async afterPassword(u) {
            await updateUserBehindTheService(world(), u.account, { enabled: false });
          },
        },
      });
      expect((await codeOf(s.auth.login(input(user.account, PASSWORD)))).code).toBe(40005);
      expect(await world().repos.sessions.listLive(user.id)).toEqual([]);
    });

    it('writes one login-log row per attempt with the raw account and the result code, never a password', async () => {
      const failing = new Error('hook exploded');
      let explode = false;
      const s = buildServices(world(), {
        hooks: {
          async verifyCaptcha() {
            if (explode) throw failing;
          },
        },
      });
      await world().repos.loginLogs.deleteAll();
      const user = await createUser(world());
      const raw = `  ${user.account.toUpperCase()}\t`;
      await s.auth.login(input(raw, PASSWORD));
      await codeOf(s.auth.login(input(user.account, 'Secret#Wrong1')));
      await codeOf(s.auth.login(input('Nobody Here ', 'Secret#Wrong2')));
      explode = true;
      await expect(s.auth.login(input(user.account, PASSWORD))).rejects.toBe(failing);

      const rows = (await world().repos.loginLogs.page({ size: 50, sortField: 'id', sortOrder: 'asc' }))
        .items;
      expect(rows.map((r) => [r.account, r.success, r.resultCode, r.userId])).toEqual([
        [raw, true, 0, user.id],
        [user.account, false, 40001, user.id],
        ['Nobody Here ', false, 40001, null],
        // The account resolves before the captcha step runs (the lock needs it), so the row names the user.
        [user.account, false, 50000, user.id],
      ]);
      expect(rows.every((r) => r.ip === CLIENT.ip && r.userAgent === CLIENT.userAgent)).toBe(true);
      const text = JSON.stringify(rows);
      for (const secret of [PASSWORD, 'Secret#Wrong1', 'Secret#Wrong2']) expect(text).not.toContain(secret);
    });
  });
}

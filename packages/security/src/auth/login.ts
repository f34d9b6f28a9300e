/**
 * Password login in the spec's decision order: 1 lock, 2 captcha hook, 3 account and password (both through
 * the shared lock-aware check), 4 policy (expiry sets `MustChangePassword` but never blocks; silent rehash),
 * 5 second-factor hook; then a session, refused (40001) when the password changed while the login was under way.
 * Every attempt writes one login-log row with the raw submitted account and the result code; never a password.
 *
 * Unknown, soft-deleted and known accounts are indistinguishable from outside: each costs one PBKDF2 of the
 * current strength, answers `PasswordWrong` and counts on the lock (see `password-check.ts`).
 */
import type { SysUserRow } from '@svc/data';
import { BusinessError, ErrorCode, isBusinessError } from '@svc/kernel';
import { isPasswordExpired } from '../password-policy.js';
import type { ResolvedAuthDeps } from './auth-deps.js';
import type { IssuedSession, LoginInput } from './contracts.js';
import { openSession } from './issue.js';

/** Runs one login; see the file header. */
export type LoginFlow = (input: LoginInput) => Promise<IssuedSession>;

/** Creates the login flow. */
export function createLoginFlow(deps: ResolvedAuthDeps): LoginFlow {
  const { repositories: repos, passwords, now } = deps;

  /**
   * Steps 1–5. Returns the user and the must-change flag when a session may be opened; puts the user id into
   * `seen` as soon as the account is known, for the login log of a refused attempt.
   */
  async function check(
    input: LoginInput,
    seen: { userId: number | null },
  ): Promise<{ user: SysUserRow; mustChangePassword: boolean }> {
    const user = await passwords.verify({
      who: { account: input.account },
      password: input.password,
      beforeHash: async () => deps.hooks.verifyCaptcha?.(input),
      onResolved: (found) => {
        seen.userId = found.id;
      },
    });

    const at = now();
    const policy = await deps.settings.passwordPolicy();
    let anchor = user.lastPasswordChangeTime;
    if (anchor === null) {
      // The expiry window of an account that never changed its password starts at this login.
      anchor = at;
      await repos.users.fillPasswordChangeTime(user.id, at);
    }
    let mustChangePassword = user.mustChangePassword;
    if (!mustChangePassword && isPasswordExpired(anchor, policy.expireDays, at)) {
      mustChangePassword = true;
      await repos.users.setMustChangePassword(user.id, true);
    }
    // A first login rehashes too: an initial password may be one hash shared by a whole import (contract §10),
    // and from here on the account has a salt of its own.
    let password = user.password;
    if (passwords.hasher.needsRehash(user.password) || user.lastLoginTime === null) {
      const rehashed = await passwords.hasher.hash(input.password);
      if (await repos.users.replacePasswordHash(user.id, user.password, rehashed)) password = rehashed;
    }

    // The hash this login stands on (the one just written when it rehashed): the session is checked against it.
    const current: SysUserRow = { ...user, password, lastPasswordChangeTime: anchor, mustChangePassword };
    await deps.hooks.afterPassword?.(current, input);
    return { user: current, mustChangePassword };
  }

  const writeLog = (input: LoginInput, resultCode: number, userId: number | null) =>
    passwords.log({
      account: typeof input.account === 'string' ? input.account : '',
      resultCode,
      userId,
      method: 'password',
      client: input.client,
    });

  return async function login(input) {
    const seen: { userId: number | null } = { userId: null };
    let issued: IssuedSession;
    try {
      const { user, mustChangePassword } = await check(input, seen);
      issued = await openSession(deps, user, input.client, {
        mustChangePassword,
        credential: {
          // A password changed or reset while this login was under way ends it. Another hash of the same
          // password (a concurrent first login rehashed it) is no change: one more hash, only in that race.
          holds: async (row) =>
            row.password === user.password || (await passwords.hasher.verify(input.password, row.password)),
          refusal: new BusinessError(ErrorCode.PasswordWrong),
        },
      });
    } catch (error) {
      await writeLog(input, isBusinessError(error) ? error.code : ErrorCode.SystemError.code, seen.userId);
      throw error;
    }
    await writeLog(input, ErrorCode.Success.code, seen.userId);
    return issued;
  };
}

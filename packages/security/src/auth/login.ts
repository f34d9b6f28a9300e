/**
 * Password login in the spec's decision order: 1 lock, 2 captcha hook, 3 account and password, 4 policy
 * (expiry sets `MustChangePassword` but never blocks; silent rehash), 5 second-factor hook; then a session.
 * Every attempt writes one login-log row with the raw submitted account and the result code; never a password.
 *
 * Unknown, soft-deleted and known accounts are indistinguishable from outside: each costs one PBKDF2 of the
 * current strength, answers `PasswordWrong` and counts on the lock (so `args.attemptsLeft` and the lock itself
 * behave the same whether or not the account exists).
 */
import { randomBytes } from 'node:crypto';
import type { SysUserRow } from '@svc/data';
import {
  BusinessError,
  ErrorCode,
  hashPassword,
  isBusinessError,
  needsRehash,
  verifyPassword,
} from '@svc/kernel';
import { isPasswordExpired } from '../password-policy.js';
import type { ResolvedAuthDeps } from './auth-deps.js';
import type { IssuedSession, LoginInput } from './contracts.js';
import { openSession } from './issue.js';

/** Runs one login; see the file header. */
export type LoginFlow = (input: LoginInput) => Promise<IssuedSession>;

/** Creates the login flow; starts hashing the dummy password for unknown accounts at once. */
export function createLoginFlow(deps: ResolvedAuthDeps): LoginFlow {
  const { repositories: repos, lock, now, pbkdf2Iterations: iterations } = deps;
  // Made once, at the current strength, from a random secret nobody knows: verifying against it costs what
  // verifying a real account costs, and can never succeed.
  const dummyHash = hashPassword(randomBytes(32).toString('base64url'), iterations);
  dummyHash.catch(() => {}); // awaited (and its error surfaced) at the first unknown account

  /**
   * Steps 1–5. Returns the user and the must-change flag when a session may be opened; puts the user id into
   * `seen` as soon as the account is known, for the login log of a refused attempt.
   */
  async function check(
    input: LoginInput,
    seen: { userId: number | null },
  ): Promise<{ user: SysUserRow; mustChangePassword: boolean }> {
    const status = await lock.check(input.account);
    if (status.locked) throw new BusinessError(ErrorCode.AccountLocked, { lockMinutes: status.lockMinutes });

    await deps.hooks.verifyCaptcha?.(input);

    const found = await repos.users.findByAccount(input.account);
    seen.userId = found?.id ?? null;
    const passwordOk = await verifyPassword(input.password, found?.password ?? (await dummyHash), iterations);
    if (!found || !passwordOk) {
      const failure = await lock.recordFailure(input.account);
      if (failure.locked) {
        throw new BusinessError(ErrorCode.AccountLocked, { lockMinutes: failure.lockMinutes });
      }
      throw new BusinessError(
        ErrorCode.PasswordWrong,
        failure.attemptsLeft === null ? undefined : { attemptsLeft: failure.attemptsLeft },
      );
    }
    const user = found;
    if (!user.enabled) throw new BusinessError(ErrorCode.AccountDisabled);

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
    if (needsRehash(user.password, iterations)) {
      const rehashed = await hashPassword(input.password, iterations);
      await repos.users.replacePasswordHash(user.id, user.password, rehashed);
    }

    const current: SysUserRow = { ...user, lastPasswordChangeTime: anchor, mustChangePassword };
    await deps.hooks.afterPassword?.(current, input);
    return { user: current, mustChangePassword };
  }

  async function writeLog(input: LoginInput, resultCode: number, userId: number | null): Promise<void> {
    try {
      await repos.loginLogs.insert({
        account: typeof input.account === 'string' ? input.account : '',
        success: resultCode === ErrorCode.Success.code,
        resultCode,
        userId,
        ip: input.client.ip || null,
        userAgent: input.client.userAgent || null,
        traceId: input.client.traceId ?? null,
        createTime: now(),
      });
    } catch (error) {
      // The attempt's own outcome matters more than its audit row; the failure is reported, not answered.
      deps.logger.error('Could not write the login log.', { error });
    }
  }

  return async function login(input) {
    const seen: { userId: number | null } = { userId: null };
    let issued: IssuedSession;
    try {
      const { user, mustChangePassword } = await check(input, seen);
      await lock.reset(input.account);
      issued = await openSession(deps, user, input.client, { mustChangePassword });
    } catch (error) {
      await writeLog(input, isBusinessError(error) ? error.code : ErrorCode.SystemError.code, seen.userId);
      throw error;
    }
    await writeLog(input, ErrorCode.Success.code, seen.userId);
    return issued;
  };
}

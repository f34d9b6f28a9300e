/**
 * The one lock-aware password check, used by every door that accepts a password: login, TOTP bind start and
 * recovery, re-authentication, the self-service password change and the phone routes. In order:
 *
 * 1. Resolve the account through the same database lookup the login uses (so the dialect's collation decides
 *    which spellings are one account); a signed-in caller is resolved by id.
 * 2. The lock: the password counter of the resolved user (or of the canonical text of an unknown account), and
 *    the user's second-factor counter (a password login answers 40004 while that one is locked).
 * 3. Captcha, when the door asks for it (anonymous doors; refusals never count on the lock).
 * 4. Reserve the attempt on the counter, then hash: at most `maxFailCount` hashes run per lock window. A hash
 *    that throws gives the reservation back (`settleAttempt`): it answered nothing.
 * 5. One PBKDF2 of the current strength for every outcome (unknown, older hash, current hash).
 * 6. Wrong: 40001 with `attemptsLeft`, or 40004 when this failure locked. Right: the counter is cleared,
 *    then 40005 for a disabled account.
 *
 * Doors other than login ask for a login-log row of each refused attempt (the login records every outcome
 * itself, with the same writer).
 */
import type { LoginLogRepository, LoginMethod, SysUserRow, UserRepository } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import {
  BusinessError,
  createPasswordHasher,
  ErrorCode,
  isBusinessError,
  type Logger,
  type PasswordHasher,
  type Pbkdf2Derive,
} from '@svc/kernel';
import { AdminErrorCode } from '../admin/codes.js';
import {
  createLoginLock,
  type LockSubject,
  type LoginLock,
  type LoginLockSettings,
  settleAttempt,
} from '../lockout.js';
import { createLoginLogWriter, type LoginLogWriter } from './login-log.js';
import type { ClientInfo } from './principal.js';

/** One password presented at a door. */
export interface PasswordAttempt {
  /** The signed-in caller (by id), or the submitted account text of an anonymous door. */
  who: { userId: number } | { account: string };
  password: string;
  /** Runs after the lock check and before the hash (captcha); a refusal does not count on the lock. */
  beforeHash?: () => Promise<void>;
  /** Record refused attempts in the login log (doors other than login). @default false */
  record?: boolean;
  /** The method those rows carry: the door's own (the recovery door's password is part of `recovery`). @default 'password' */
  method?: LoginMethod;
  client?: ClientInfo | undefined;
  /** Told the user as soon as the account resolves (the login's own log row of a refused attempt). */
  onResolved?: (user: SysUserRow) => void;
}

export interface PasswordCheck {
  /** Answers the enabled user whose password this is; throws 40001, 40004 or 40005 (or what `beforeHash` throws). */
  verify(attempt: PasswordAttempt): Promise<SysUserRow>;
  /** The PBKDF2 strength and cost rules in effect (rehash at login, new hashes). */
  hasher: PasswordHasher;
  /** The password counter. */
  lock: LoginLock;
  /** The per-account second-factor counter (contract §10). */
  secondFactorLock: LoginLock;
  /** The login-log writer every flow shares. */
  log: LoginLogWriter;
}

export interface PasswordCheckDeps {
  users: Pick<UserRepository, 'findByAccount' | 'findById'>;
  hasher: PasswordHasher;
  lock: LoginLock;
  secondFactorLock: LoginLock;
  log: LoginLogWriter;
}

/**
 * Creates the shared check.
 * @example
 * const passwords = createPasswordCheck({ users, hasher, lock, secondFactorLock, log });
 * const user = await passwords.verify({ who: { account }, password, beforeHash: captcha, record: true, client });
 */
export function createPasswordCheck(deps: PasswordCheckDeps): PasswordCheck {
  const { users, hasher, lock, secondFactorLock, log } = deps;

  async function check(attempt: PasswordAttempt, seen: { user?: SysUserRow }): Promise<SysUserRow> {
    const { who } = attempt;
    const found = 'userId' in who ? await users.findById(who.userId) : await users.findByAccount(who.account);
    if (found) {
      seen.user = found;
      attempt.onResolved?.(found);
    }
    // A signed-in caller whose row is gone has nothing to check against.
    if (!found && 'userId' in who) throw new BusinessError(AdminErrorCode.UserNotFound);
    // A user resolved from submitted text counts on that text too (see LockSubject).
    const subject: LockSubject = found ? { ...who, userId: found.id } : who;
    await lock.assertOpen(subject);
    if (found) await secondFactorLock.assertOpen({ userId: found.id });
    await attempt.beforeHash?.();
    const reserved = await lock.begin(subject);
    // Settled however the hash ends: a hash or cache that throws must not leave the attempt in flight.
    await settleAttempt(reserved, async () => {
      const right = found
        ? await hasher.verify(attempt.password, found.password)
        : await hasher.verifyNothing(attempt.password);
      if (!found || !right) {
        const failure = reserved.failed();
        throw new BusinessError(
          ErrorCode.PasswordWrong,
          failure.attemptsLeft === null ? undefined : { attemptsLeft: failure.attemptsLeft },
        );
      }
      await reserved.succeeded();
    });
    // Reached only when the password was right (the check above throws otherwise).
    if (!found) throw new BusinessError(ErrorCode.PasswordWrong);
    if (!found.enabled) throw new BusinessError(ErrorCode.AccountDisabled);
    return found;
  }

  return {
    hasher,
    lock,
    secondFactorLock,
    log,
    async verify(attempt) {
      const seen: { user?: SysUserRow } = {};
      try {
        return await check(attempt, seen);
      } catch (error) {
        if (attempt.record) {
          const who = attempt.who;
          await log({
            // As at login: the raw submitted text when there was one.
            account: 'account' in who ? who.account : (seen.user?.account ?? ''),
            resultCode: isBusinessError(error) ? error.code : ErrorCode.SystemError.code,
            userId: seen.user?.id ?? null,
            method: attempt.method ?? 'password',
            client: attempt.client,
          });
        }
        throw error;
      }
    },
  };
}

/**
 * Assembles the shared check from the cache, the lock settings and the repositories: both counters on the
 * cache port (shared by every instance with Redis), a hasher at the configured strength, the login-log writer.
 * @example
 * const passwords = assemblePasswordCheck({ repositories, cache, lockSettings: () => settings.loginLock(),
 *   pbkdf2Iterations: options.Security.Password.Pbkdf2Iterations, now, logger });
 */
export function assemblePasswordCheck(input: {
  repositories: { users: PasswordCheckDeps['users']; loginLogs: Pick<LoginLogRepository, 'insert'> };
  cache: Cache;
  lockSettings: () => Promise<LoginLockSettings>;
  /** @default 600000 (raised to the floor of 100,000) */
  pbkdf2Iterations?: number;
  /** Injectable PBKDF2 (tests count iterations). */
  derive?: Pbkdf2Derive;
  now: () => Date;
  logger: Logger;
  /** Wraps the password lock (e.g. to count lockouts in metrics). @default the lock itself */
  observeLock?: (lock: LoginLock) => LoginLock;
}): PasswordCheck {
  const lock = createLoginLock({ cache: input.cache, settings: input.lockSettings });
  return createPasswordCheck({
    users: input.repositories.users,
    hasher: createPasswordHasher({
      ...(input.pbkdf2Iterations === undefined ? {} : { iterations: input.pbkdf2Iterations }),
      ...(input.derive ? { derive: input.derive } : {}),
    }),
    lock: input.observeLock ? input.observeLock(lock) : lock,
    secondFactorLock: createLoginLock({
      cache: input.cache,
      settings: input.lockSettings,
      kind: 'secondFactor',
    }),
    log: createLoginLogWriter({
      loginLogs: input.repositories.loginLogs,
      now: input.now,
      logger: input.logger,
    }),
  });
}

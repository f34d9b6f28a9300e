/**
 * Login lock (spec "Login lockout", "Login lock" states): an atomic counter of wrong passwords per account
 * whose expiry slides with every failure; at `maxFailCount` the account is locked until `lockMinutes` pass
 * without a further failure. The counter lives in the cache port, so with Redis every instance shares it.
 */
import type { Cache } from '@svc/data/cache';
import { sha256Hex } from '@svc/kernel';
import { LOGIN_LOCK_KEY_PREFIX } from './constants.js';

/** The lock settings in effect (`sys.security.loginLock.*`, falling back to `Service:Security:LoginLock`). */
export interface LoginLockSettings {
  /** Wrong passwords that lock the account; <= 0 disables the lock. @default 5 */
  maxFailCount: number;
  /** Lock duration and sliding expiry of the counter, in minutes. @default 10 */
  lockMinutes: number;
}

/** Dependencies of {@link createLoginLock}. */
export interface LoginLockDeps {
  /** Where the counters live. */
  cache: Cache;
  /** Read on every call, so a changed runtime key applies to the next attempt. */
  settings: () => Promise<LoginLockSettings>;
}

/** Outcome of {@link LoginLock.check}. */
export interface LockStatus {
  locked: boolean;
  /** For `AccountLocked`'s `args.lockMinutes`. */
  lockMinutes: number;
}

/** Outcome of {@link LoginLock.recordFailure}. */
export interface FailureResult {
  /** True once this failure reached `maxFailCount` (or a concurrent one did). */
  locked: boolean;
  /** Wrong passwords left before the lock; null while the lock is disabled. */
  attemptsLeft: number | null;
  lockMinutes: number;
}

/** The login lock. */
export interface LoginLock {
  /** The cache key of `account`'s counter. Variants that name one account give one key. */
  lockKey(account: string): string;
  /** Whether `account` is locked now. Checked first at login; a correct password is refused while locked. */
  check(account: string): Promise<LockStatus>;
  /** Counts one wrong password (only wrong passwords count; captcha, lock and disabled outcomes do not). */
  recordFailure(account: string): Promise<FailureResult>;
  /** Clears the counter (after a successful login, or by an admin). */
  reset(account: string): Promise<void>;
}

/**
 * The form of an account name that identifies its counter: NFKC (so full-width and other compatibility
 * variants fold onto their plain letters), trimmed, lower-cased. Database collations commonly treat these
 * variants as one row, so they must not get separate counters, or an attacker would multiply the attempts.
 */
export function normalizeAccount(account: string): string {
  return account.normalize('NFKC').trim().toLowerCase();
}

const MS_PER_MINUTE = 60_000;

/**
 * Creates the login lock.
 * @example
 * const lock = createLoginLock({ cache, settings: () => runtime.loginLock() });
 * if ((await lock.check(account)).locked) throw new BusinessError(ErrorCode.AccountLocked, { lockMinutes });
 */
export function createLoginLock(deps: LoginLockDeps): LoginLock {
  const { cache, settings } = deps;
  // Hashed so the key stays short whatever the submitted account's length, and names no account in Redis.
  const lockKey = (account: string) => `${LOGIN_LOCK_KEY_PREFIX}${sha256Hex(normalizeAccount(account))}`;

  return {
    lockKey,

    async check(account) {
      const { maxFailCount, lockMinutes } = await settings();
      if (maxFailCount <= 0) return { locked: false, lockMinutes };
      const failures = await cache.getCounter(lockKey(account));
      return { locked: failures >= maxFailCount, lockMinutes };
    },

    async recordFailure(account) {
      const { maxFailCount, lockMinutes } = await settings();
      if (maxFailCount <= 0) return { locked: false, attemptsLeft: null, lockMinutes };
      // One atomic increment that also refreshes the expiry: concurrent failures each see a distinct count,
      // so N parallel wrong guesses cannot all slip under the limit.
      const failures = await cache.increment(lockKey(account), {
        ttlMs: lockMinutes * MS_PER_MINUTE,
        slide: true,
      });
      return {
        locked: failures >= maxFailCount,
        attemptsLeft: Math.max(0, maxFailCount - failures),
        lockMinutes,
      };
    },

    async reset(account) {
      await cache.delete(lockKey(account));
    },
  };
}

/**
 * Login lock (spec "Login lockout", "Login lock" states): an atomic counter of wrong attempts per identity
 * whose expiry slides with every failure; at `maxFailCount` the identity is locked until `lockMinutes` pass
 * without a further failure. The counter lives in the cache port, so with Redis every instance shares it.
 *
 * The identity is the user id once the account resolves (through the login's own database lookup, so the
 * dialect's collation decides which spellings are one account), and the canonical text only for accounts that
 * do not resolve. An attempt is reserved on the counter before its (costly) check runs ({@link LoginLock.begin}):
 * increment, then compare, so a burst of parallel guesses gets at most `maxFailCount` checks per lock window,
 * across instances while the counter is shared.
 */
import type { Cache } from '@svc/data/cache';
import { BusinessError, ErrorCode, sha256Hex } from '@svc/kernel';
import { LOGIN_LOCK_KEY_PREFIX } from './constants.js';

/**
 * Whose counter: a resolved user, or the submitted text of an account that does not resolve. A user resolved
 * from submitted text also counts on that text's counter: the canonical form may fold spellings the database
 * does not resolve (full-width letters), and an unknown account counts those on one text counter, so a real
 * one must too, or `attemptsLeft` would tell the two apart.
 */
export type LockSubject = { userId: number; account?: string } | { account: string };

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
  /**
   * Which counter family: wrong passwords, or wrong second-factor codes (contract §10: a counter of their own).
   * @default 'password'
   */
  kind?: 'password' | 'secondFactor';
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

/** One reserved attempt (see {@link LoginLock.begin}): the check ran; say how it ended. */
export interface LockAttempt {
  /** The attempt was wrong; it already counts (it was reserved). Throws 40004 when it reached the lock. */
  failed(): FailureResult;
  /** The attempt was right: clears the counter. */
  succeeded(): Promise<void>;
}

/** The login lock. */
export interface LoginLock {
  /** The cache key of a subject's counter. Text variants that name one unknown account give one key. */
  lockKey(subject: LockSubject | string): string;
  /** Whether the subject is locked now. Checked first; a correct credential is refused while locked. */
  check(subject: LockSubject | string): Promise<LockStatus>;
  /** Throws 40004 `AccountLocked` while the subject is locked. */
  assertOpen(subject: LockSubject): Promise<void>;
  /**
   * Reserves one attempt before its check runs: increments the counter, then compares. Throws 40004 when the
   * subject is locked, or when `maxFailCount` attempts are already failed or in flight (then the slot is given
   * back: a parallel burst gets at most `maxFailCount` checks, also of right passwords).
   */
  begin(subject: LockSubject): Promise<LockAttempt>;
  /** Counts one wrong attempt without a reservation. */
  recordFailure(subject: LockSubject | string): Promise<FailureResult>;
  /** Clears the counter (after a successful login, or by an admin). */
  reset(subject: LockSubject | string): Promise<void>;
}

/**
 * The form of an account name that identifies its counter: accents and other combining marks removed (so
 * `víctim` and the Turkish `vİctim` fold onto `victim`, as accent-insensitive collations do), NFKC (so
 * full-width and other compatibility variants fold onto their plain letters), trimmed, lower-cased. Database
 * collations commonly treat these variants as one row, so they must not get separate counters: an attacker
 * would multiply the attempts, or tell a real account (whose resolving spellings share its counter) from an
 * unknown one.
 */
export function normalizeAccount(account: string): string {
  return account.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFKC').trim().toLowerCase();
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
  const prefix = `${LOGIN_LOCK_KEY_PREFIX}${deps.kind === 'secondFactor' ? '2f:' : ''}`;
  // Text is hashed so the key stays short whatever the submitted account's length, and names no account.
  const lockKey = (subject: LockSubject | string) => {
    if (typeof subject === 'string') return `${prefix}a:${sha256Hex(normalizeAccount(subject))}`;
    if ('userId' in subject) return `${prefix}u:${subject.userId}`;
    return `${prefix}a:${sha256Hex(normalizeAccount(subject.account))}`;
  };
  const locked = (lockMinutes: number) => new BusinessError(ErrorCode.AccountLocked, { lockMinutes });
  /** Every counter an attempt of this subject counts on. */
  const keysOf = (subject: LockSubject): string[] =>
    'userId' in subject && subject.account !== undefined
      ? [lockKey({ userId: subject.userId }), lockKey(subject.account)]
      : [lockKey(subject)];
  const highest = async (keys: string[]) =>
    Math.max(...(await Promise.all(keys.map((key) => cache.getCounter(key)))));

  async function increment(key: string, lockMinutes: number): Promise<number> {
    // One atomic increment that also refreshes the expiry: concurrent attempts each see a distinct count.
    return cache.increment(key, { ttlMs: lockMinutes * MS_PER_MINUTE, slide: true });
  }
  const failure = (count: number, maxFailCount: number, lockMinutes: number): FailureResult => ({
    locked: count >= maxFailCount,
    attemptsLeft: Math.max(0, maxFailCount - count),
    lockMinutes,
  });

  const lock: LoginLock = {
    lockKey,

    async check(subject) {
      const { maxFailCount, lockMinutes } = await settings();
      if (maxFailCount <= 0) return { locked: false, lockMinutes };
      const failures =
        typeof subject === 'string'
          ? await cache.getCounter(lockKey(subject))
          : await highest(keysOf(subject));
      return { locked: failures >= maxFailCount, lockMinutes };
    },

    async assertOpen(subject) {
      const status = await lock.check(subject);
      if (status.locked) throw locked(status.lockMinutes);
    },

    async begin(subject) {
      const { maxFailCount, lockMinutes } = await settings();
      const keys = keysOf(subject);
      if (maxFailCount <= 0) {
        return {
          failed: () => ({ locked: false, attemptsLeft: null, lockMinutes }),
          succeeded: async () => {},
        };
      }
      // A locked subject does not slide its own expiry by being tried again.
      if ((await highest(keys)) >= maxFailCount) throw locked(lockMinutes);
      const count = Math.max(...(await Promise.all(keys.map((key) => increment(key, lockMinutes)))));
      if (count > maxFailCount) {
        // Every attempt of this window is failed or in flight: give the slots back and refuse unchecked.
        // With an expiry in case a success cleared the counter meanwhile (never a counter that lives forever),
        // and never below zero: a counter left at -1 would be one more guess in the next window.
        const ttlMs = lockMinutes * MS_PER_MINUTE;
        await Promise.all(
          keys.map(async (key) => {
            const left = await cache.increment(key, { by: -1, ttlMs });
            if (left < 0) await cache.increment(key, { by: -left, ttlMs });
          }),
        );
        throw locked(lockMinutes);
      }
      return {
        failed() {
          const result = failure(count, maxFailCount, lockMinutes);
          if (result.locked) throw locked(lockMinutes);
          return result;
        },
        async succeeded() {
          await Promise.all(keys.map((key) => cache.delete(key)));
        },
      };
    },

    async recordFailure(subject) {
      const { maxFailCount, lockMinutes } = await settings();
      if (maxFailCount <= 0) return { locked: false, attemptsLeft: null, lockMinutes };
      const keys = typeof subject === 'string' ? [lockKey(subject)] : keysOf(subject);
      const counts = await Promise.all(keys.map((key) => increment(key, lockMinutes)));
      return failure(Math.max(...counts), maxFailCount, lockMinutes);
    },

    async reset(subject) {
      const keys = typeof subject === 'string' ? [lockKey(subject)] : keysOf(subject);
      await Promise.all(keys.map((key) => cache.delete(key)));
    },
  };
  return lock;
}

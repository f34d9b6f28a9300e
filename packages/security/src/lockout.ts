/**
 * Login lock (spec "Login lockout", "Login lock" states): an atomic counter of wrong attempts per identity
 * whose expiry slides with every failure; at `maxFailCount` the identity is locked until `lockMinutes` pass
 * without a further failure. The counter lives in the cache port, so with Redis every instance shares it.
 *
 * The identity is the user id once the account resolves (through the login's own database lookup, so the
 * dialect's collation decides which spellings are one account), and the canonical text only for accounts that
 * do not resolve. An attempt is reserved on the counter before its (costly) check runs ({@link LoginLock.begin}):
 * increment, then compare, so a burst of parallel guesses gets at most `maxFailCount` checks per lock window,
 * across instances while the counter is shared. A right password forgives the failures that had settled before
 * it was reserved, never the reservations of attempts still in flight beside it nor failures that settle while it
 * runs: those are the same burst, and wiping them (as deleting the counter did) let a right password in the
 * middle of a burst open `maxFailCount` more checks for it. Settled failures are counted apart (`…:fails`) so a
 * success knows how many it may take off.
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
  /**
   * Not locked, but `maxFailCount` attempts are failed or in flight: a new one is refused unchecked for now
   * (40008); it may pass once those in flight end right. Optional, so a consumer's own {@link LoginLock}
   * written before it still compiles; absent means false.
   */
  busy?: boolean;
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

/** `retryAfterSeconds` of a refused reservation: the attempts in flight end within a hash or two. */
export const RESERVATION_RETRY_AFTER_SECONDS = 1;

/**
 * One reserved attempt (see {@link LoginLock.begin}): the check ran; say how it ended. Exactly one of the three
 * settles it (the first wins; later calls change nothing). Run the check through {@link settleAttempt}, so that
 * a check that throws still settles.
 */
export interface LockAttempt {
  /** The attempt was wrong; it already counts (it was reserved). Throws 40004 when it reached the lock. */
  failed(): FailureResult;
  /**
   * The attempt was right: forgives the failures settled before it was reserved (attempts in flight beside it,
   * and failures settling meanwhile, still count) and gives its own reservation back. When that throws, the
   * attempt is released.
   */
  succeeded(): Promise<void>;
  /**
   * The check ended without an answer (it threw: a cache, database or hash error): the reservation is given
   * back and the attempt leaves the in-flight count, as if it never ran. The caller learnt nothing of the
   * secret, so it is no guess; left in flight, it made the account read busy (40008) until the counter's expiry.
   * Optional, so a consumer's own {@link LoginLock} written before it still compiles.
   */
  release?(): Promise<void>;
}

/**
 * Runs the check of a reserved attempt (`attempt` undefined: none was reserved) and settles the attempt however
 * the check ends: one that neither failed nor succeeded when `run` returns or throws is released. A release
 * that fails itself is dropped, so the check's own error is the one thrown.
 * @example
 * const attempt = await lock.begin(subject);
 * return settleAttempt(attempt, async () => ((await verify()) ? attempt.succeeded() : attempt.failed()));
 */
export async function settleAttempt<T>(attempt: LockAttempt | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    await attempt?.release?.().catch(() => {});
  }
}

/** The login lock. */
export interface LoginLock {
  /** The cache key of a subject's counter. Text variants that name one unknown account give one key. */
  lockKey(subject: LockSubject | string): string;
  /** Whether the subject is locked now. Checked first; a correct credential is refused while locked. */
  check(subject: LockSubject | string): Promise<LockStatus>;
  /** Throws 40004 `AccountLocked` while the subject is locked, 40008 while it is {@link LockStatus.busy}. */
  assertOpen(subject: LockSubject): Promise<void>;
  /**
   * Reserves one attempt before its check runs: increments the counter, then compares. Throws 40004 when the
   * subject is locked, and 40008 `TooManyRequests` (`args.retryAfterSeconds` 1) when `maxFailCount` attempts are
   * failed or in flight but the lock was not reached when it came (then the slot is given back: a parallel burst
   * gets at most `maxFailCount` checks, also of right passwords, and no attempt is told a lock that may not be).
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
  /** A reservation refused while the window is full of attempts: try again in a moment. */
  const busy = () =>
    new BusinessError(ErrorCode.TooManyRequests, { retryAfterSeconds: RESERVATION_RETRY_AFTER_SECONDS });
  /** Every counter an attempt of this subject counts on. */
  const keysOf = (subject: LockSubject): string[] =>
    'userId' in subject && subject.account !== undefined
      ? [lockKey({ userId: subject.userId }), lockKey(subject.account)]
      : [lockKey(subject)];
  /** The counter of a key's attempts in flight (reserved, not yet settled). */
  const flightKey = (key: string) => `${key}:flight`;
  /** The counter of a key's settled failures (each also holds its reservation on the key). */
  const failsKey = (key: string) => `${key}:fails`;

  /**
   * Where the subject stands: locked when the failures alone reach the limit on a counter, busy when its
   * reservations (failures and attempts in flight) do but the failures do not. `self` attempts of the caller
   * are counted in flight but hold no reservation. The in-flight counters are read only for a full counter.
   * The counter is read again after its in-flight count, and the lower reading counts: attempts that land between
   * the two first reads leave the in-flight count but their reservations were read, and right ones among them
   * cleared the counter meanwhile (read once, a burst of right passwords was called a lock).
   */
  async function standing(keys: string[], maxFailCount: number, self = 0) {
    const reserved = await Promise.all(keys.map((key) => cache.getCounter(key)));
    let busy = false;
    for (const [i, key] of keys.entries()) {
      const count = reserved[i] ?? 0;
      if (count < maxFailCount) continue;
      const flying = Math.max(0, (await cache.getCounter(flightKey(key))) - self);
      const settled = Math.min(count, await cache.getCounter(key));
      if (settled - flying >= maxFailCount) return { locked: true, busy: false };
      busy = true;
    }
    return { locked: false, busy };
  }

  /** Takes `by` off a counter, never leaving it below zero (a -1 would be one more guess later). */
  async function decrementToZero(key: string, ttlMs: number, by = 1): Promise<void> {
    const left = await cache.increment(key, { by: -by, ttlMs });
    if (left < 0) await cache.increment(key, { by: -left, ttlMs });
  }

  /**
   * Takes up to `upTo` settled failures off a key (a success). The failures counter is taken down first and only
   * what it held is taken off the key, so two successes at once never forgive one failure twice (each would
   * otherwise take off a reservation still in flight). A failure the counter no longer holds stays counted.
   */
  async function forgive(key: string, upTo: number, ttlMs: number): Promise<void> {
    if (upTo <= 0) return;
    const left = await cache.increment(failsKey(key), { by: -upTo, ttlMs });
    if (left < 0) await cache.increment(failsKey(key), { by: -left, ttlMs });
    const taken = left < 0 ? upTo + left : upTo;
    if (taken > 0) await decrementToZero(key, ttlMs, taken);
  }

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
      if (maxFailCount <= 0) return { locked: false, busy: false, lockMinutes };
      const keys = typeof subject === 'string' ? [lockKey(subject)] : keysOf(subject);
      return { ...(await standing(keys, maxFailCount)), lockMinutes };
    },

    async assertOpen(subject) {
      const status = await lock.check(subject);
      if (status.locked) throw locked(status.lockMinutes);
      if (status.busy) throw busy();
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
      const before = await standing(keys, maxFailCount);
      if (before.locked) throw locked(lockMinutes);
      if (before.busy) throw busy();
      const ttlMs = lockMinutes * MS_PER_MINUTE;
      // In flight first, then the reservation: whoever reads both never takes a reservation for a failure.
      const raised = await Promise.allSettled(keys.map((key) => increment(flightKey(key), lockMinutes)));
      const notRaised = raised.find((r) => r.status === 'rejected');
      if (notRaised) {
        // One counter of two was raised: take it down again, or it stays in flight until its expiry.
        await Promise.all(
          keys
            .filter((_, i) => raised[i]?.status === 'fulfilled')
            .map((k) => decrementToZero(flightKey(k), ttlMs)),
        ).catch(() => {});
        throw notRaised.reason;
      }
      const landed = () => Promise.all(keys.map((key) => decrementToZero(flightKey(key), ttlMs)));
      let count: number;
      // Per key: the failures settled before this reservation, which a success of this attempt forgives. Read
      // with the reservation (one round trip), and never more than the key holds besides it (a failures count
      // that outlived its key by a moment names nothing).
      let forgivable: number[];
      try {
        const [counts, fails] = await Promise.all([
          Promise.all(keys.map((key) => increment(key, lockMinutes))),
          Promise.all(keys.map((key) => cache.getCounter(failsKey(key)))),
        ]);
        count = Math.max(...counts);
        forgivable = keys.map((_, i) => Math.max(0, Math.min(fails[i] ?? 0, (counts[i] ?? 0) - 1)));
      } catch (error) {
        await landed().catch(() => {});
        throw error;
      }
      if (count > maxFailCount) {
        // Every attempt of this window is failed or in flight: give the slots back and refuse unchecked.
        // With an expiry in case a success cleared the counter meanwhile (never a counter that lives forever),
        // and never below zero: a counter left at -1 would be one more guess in the next window.
        try {
          await Promise.all(keys.map((key) => decrementToZero(key, ttlMs)));
          // Locked only if the failures alone reach the limit (this attempt still counts itself in flight);
          // otherwise the slots are attempts under way, right ones among them (tabs signing in at once), and
          // the attempt is told to retry, not that the account is locked for `lockMinutes`.
          if ((await standing(keys, maxFailCount, 1)).locked) throw locked(lockMinutes);
          throw busy();
        } finally {
          await landed();
        }
      }
      // Until settled, the attempt holds its reservation and its place in flight; the first outcome settles it.
      let open = true;
      const settle = () => {
        const was = open;
        open = false;
        return was;
      };
      const release = async () => {
        if (!settle()) return;
        try {
          await Promise.all(keys.map((key) => decrementToZero(key, ttlMs)));
        } finally {
          await landed();
        }
      };
      return {
        failed() {
          // The reservation stays as the failure; the attempt is no longer in flight (not awaited: `failed`
          // answers at once, and a late decrement only makes a reader say busy where it could say locked). The
          // failure is counted as settled, for a later success to forgive (one that misses it forgives less).
          if (settle()) {
            landed().catch(() => {});
            Promise.all(keys.map((key) => increment(failsKey(key), lockMinutes))).catch(() => {});
          }
          const result = failure(count, maxFailCount, lockMinutes);
          if (result.locked) throw locked(lockMinutes);
          return result;
        },
        async succeeded() {
          if (!open) return;
          try {
            // The failures before this attempt; attempts in flight beside it keep their reservations.
            await Promise.all(keys.map((key, i) => forgive(key, forgivable[i] ?? 0, ttlMs)));
          } catch (error) {
            await release().catch(() => {});
            throw error;
          }
          // Its own reservation goes back, and it leaves the in-flight count.
          await release();
        },
        release,
      };
    },

    async recordFailure(subject) {
      const { maxFailCount, lockMinutes } = await settings();
      if (maxFailCount <= 0) return { locked: false, attemptsLeft: null, lockMinutes };
      const keys = typeof subject === 'string' ? [lockKey(subject)] : keysOf(subject);
      const counts = await Promise.all(keys.map((key) => increment(key, lockMinutes)));
      await Promise.all(keys.map((key) => increment(failsKey(key), lockMinutes)));
      return failure(Math.max(...counts), maxFailCount, lockMinutes);
    },

    async reset(subject) {
      const keys = typeof subject === 'string' ? [lockKey(subject)] : keysOf(subject);
      await Promise.all(keys.flatMap((key) => [cache.delete(key), cache.delete(failsKey(key))]));
    },
  };
  return lock;
}

/**
 * Short-lived records in the cache that obey the service clock. The cache expires entries by real time (its
 * backstop); every decision here also compares the record's own `expiresAt` with the injected clock, so tests
 * pin time instead of sleeping and every instance agrees with the clock it was given.
 *
 * Consumable records (captcha tickets, SMS codes, MFA challenges) are taken atomically: of any number of
 * concurrent callers exactly one holds the record while it decides, and a record that must survive a wrong
 * answer is put back only if nobody replaced it meanwhile.
 */
import type { Cache } from '@svc/data/cache';

/** A record that ends at `expiresAt` (Unix milliseconds on the service clock). */
export interface Expiring {
  expiresAt: number;
}

export interface ClockStore {
  /** Stores `value` until `now + ttlMs`; answers the stored record. */
  put<T extends object>(key: string, value: T, ttlMs: number): Promise<T & Expiring>;
  /** The live record, without consuming it. */
  peek<T extends Expiring>(key: string): Promise<T | undefined>;
  /** Atomic get-and-remove of the live record. */
  take<T extends Expiring>(key: string): Promise<T | undefined>;
  /** Puts a taken record back for the rest of its life, unless the key was written meanwhile or it expired. */
  restore<T extends Expiring>(key: string, record: T): Promise<boolean>;
  /**
   * Claims a window of `windowMs` at `key` (a cooldown): true for the one caller that opened it, else the
   * milliseconds until the current window ends.
   */
  claimWindow(key: string, windowMs: number): Promise<{ ok: true } | { ok: false; retryAfterMs: number }>;
  /** Milliseconds on the service clock. */
  nowMs(): number;
}

export function createClockStore(cache: Cache, now: () => Date): ClockStore {
  const nowMs = () => now().getTime();
  const live = <T extends Expiring>(record: T | undefined): T | undefined =>
    record && typeof record.expiresAt === 'number' && record.expiresAt > nowMs() ? record : undefined;

  return {
    nowMs,

    async put(key, value, ttlMs) {
      const record = { ...value, expiresAt: nowMs() + ttlMs };
      await cache.set(key, record, Math.max(1, ttlMs));
      return record;
    },

    async peek<T extends Expiring>(key: string) {
      return live(await cache.get<T>(key));
    },

    async take<T extends Expiring>(key: string) {
      return live(await cache.take<T>(key));
    },

    async restore(key, record) {
      const left = record.expiresAt - nowMs();
      if (left <= 0) return false;
      return cache.setIfAbsent(key, record, left);
    },

    async claimWindow(key, windowMs) {
      if (windowMs <= 0) return { ok: true };
      for (let round = 0; round < 3; round++) {
        const until = nowMs() + windowMs;
        if (await cache.setIfAbsent(key, { expiresAt: until }, windowMs)) return { ok: true };
        const current = await cache.get<Expiring>(key);
        if (current && current.expiresAt > nowMs())
          return { ok: false, retryAfterMs: current.expiresAt - nowMs() };
        // Over by the service clock but not yet by the cache's: remove the stale entry and race for a new
        // window again (only `setIfAbsent` picks the winner). A live window taken by mistake goes back.
        const taken = await cache.take<Expiring>(key);
        if (taken && taken.expiresAt > nowMs()) {
          await cache.setIfAbsent(key, taken, taken.expiresAt - nowMs());
          return { ok: false, retryAfterMs: taken.expiresAt - nowMs() };
        }
      }
      return { ok: false, retryAfterMs: windowMs };
    },
  };
}

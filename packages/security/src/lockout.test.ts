import { createMemoryCache } from '@svc/data/cache';
import { describe, expect, it } from 'vitest';
import { createLoginLock, type LoginLockSettings, normalizeAccount, settleAttempt } from './lockout.js';

function setup(initial: LoginLockSettings = { maxFailCount: 3, lockMinutes: 10 }) {
  const clock = { at: Date.UTC(2030, 0, 1) };
  const settings = { ...initial };
  const cache = createMemoryCache({ now: () => clock.at });
  const lock = createLoginLock({ cache, settings: async () => settings });
  return { clock, settings, cache, lock };
}

const MINUTE = 60_000;

describe('login lock', () => {
  it('locks at maxFailCount and reports attempts left on the way', async () => {
    const { lock } = setup();
    expect(await lock.recordFailure('alice')).toEqual({ locked: false, attemptsLeft: 2, lockMinutes: 10 });
    expect(await lock.recordFailure('alice')).toEqual({ locked: false, attemptsLeft: 1, lockMinutes: 10 });
    expect((await lock.check('alice')).locked).toBe(false);
    expect(await lock.recordFailure('alice')).toEqual({ locked: true, attemptsLeft: 0, lockMinutes: 10 });
    expect(await lock.check('alice')).toEqual({ locked: true, busy: false, lockMinutes: 10 });
    expect((await lock.check('bob')).locked).toBe(false);
  });

  it('unlocks lockMinutes after the latest failure (the expiry slides)', async () => {
    const { lock, clock } = setup({ maxFailCount: 2, lockMinutes: 10 });
    await lock.recordFailure('alice');
    clock.at += 8 * MINUTE;
    await lock.recordFailure('alice');
    clock.at += 8 * MINUTE;
    // 16 minutes after the first failure, but only 8 after the latest: still locked.
    expect((await lock.check('alice')).locked).toBe(true);
    clock.at += 2 * MINUTE;
    expect((await lock.check('alice')).locked).toBe(false);
  });

  it('forgets earlier failures once a quiet period of lockMinutes has passed', async () => {
    const { lock, clock } = setup({ maxFailCount: 2, lockMinutes: 10 });
    await lock.recordFailure('alice');
    clock.at += 10 * MINUTE;
    expect((await lock.recordFailure('alice')).attemptsLeft).toBe(1);
  });

  it('counts concurrent failures exactly', async () => {
    const { lock } = setup({ maxFailCount: 5, lockMinutes: 10 });
    const results = await Promise.all(Array.from({ length: 12 }, () => lock.recordFailure('alice')));
    expect(results.filter((r) => r.locked)).toHaveLength(8);
    expect(results.map((r) => r.attemptsLeft).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]);
    expect((await lock.check('alice')).locked).toBe(true);
  });

  it('gives case, surrounding spaces and full-width variants one counter', async () => {
    const { lock } = setup({ maxFailCount: 3, lockMinutes: 10 });
    expect(lock.lockKey('Admin ')).toBe(lock.lockKey('admin'));
    expect(lock.lockKey('ＡＤＭＩＮ')).toBe(lock.lockKey('admin'));
    await lock.recordFailure('Admin ');
    await lock.recordFailure('ADMIN');
    expect((await lock.check('admin')).locked).toBe(false);
    expect(await lock.recordFailure('Ａｄｍｉｎ')).toMatchObject({ locked: true, attemptsLeft: 0 });
    expect((await lock.check('\u3000admin')).locked).toBe(true);
    expect((await lock.check('admin2')).locked).toBe(false);
  });

  it('normalises accounts without marks, with NFKC, trim and lower case', () => {
    expect(normalizeAccount(' Ａｄｍｉｎ\u3000')).toBe('admin');
    expect(normalizeAccount('ﬁnance')).toBe('finance');
    // Accents and the Turkish dotted capital fold like accent-insensitive collations.
    expect(normalizeAccount('v\u00edctim')).toBe('victim');
    expect(normalizeAccount('v\u0130ctim')).toBe('victim');
    expect(normalizeAccount('Ve\u0301ro')).toBe('vero');
  });

  it('does not put the account name into the cache key', () => {
    const { lock } = setup();
    expect(lock.lockKey('alice')).not.toContain('alice');
    expect(lock.lockKey('x'.repeat(10_000)).length).toBeLessThan(100);
  });

  it('reset clears the counter', async () => {
    const { lock } = setup({ maxFailCount: 1, lockMinutes: 10 });
    await lock.recordFailure('ALICE');
    expect((await lock.check('alice')).locked).toBe(true);
    await lock.reset('Alice ');
    expect((await lock.check('alice')).locked).toBe(false);
  });

  it('is disabled by maxFailCount <= 0 and reads the settings on every call', async () => {
    const { lock, settings } = setup({ maxFailCount: 0, lockMinutes: 10 });
    for (let i = 0; i < 10; i++) {
      expect(await lock.recordFailure('alice')).toEqual({
        locked: false,
        attemptsLeft: null,
        lockMinutes: 10,
      });
    }
    expect((await lock.check('alice')).locked).toBe(false);
    settings.maxFailCount = 2;
    await lock.recordFailure('alice');
    expect((await lock.recordFailure('alice')).locked).toBe(true);
  });
});

describe('login lock reservations', () => {
  const code = async (run: () => Promise<unknown>) => {
    try {
      await run();
      return 0;
    } catch (error) {
      return (error as { code?: number }).code;
    }
  };

  it('admits maxFailCount parallel reservations, refuses the rest and gives their slots back', async () => {
    const { lock, cache } = setup({ maxFailCount: 3, lockMinutes: 10 });
    const who = { userId: 7 };
    const results = await Promise.all(Array.from({ length: 10 }, () => code(() => lock.begin(who))));
    expect(results.filter((c) => c === 0)).toHaveLength(3);
    // Refused unchecked, but not told a lock: the three admitted may all be right (tabs signing in at once).
    expect(results.filter((c) => c === 40008)).toHaveLength(7);
    expect(await cache.getCounter(lock.lockKey(who))).toBe(3);
  });

  it('says busy (40008) while attempts in flight fill the window, locked (40004) only once failures do', async () => {
    const { lock, cache } = setup({ maxFailCount: 3, lockMinutes: 10 });
    const who = { userId: 11 };
    const first = await lock.begin(who);
    const second = await lock.begin(who);
    const third = await lock.begin(who);
    expect(await code(() => lock.begin(who))).toBe(40008);
    expect(await lock.check(who)).toEqual({ locked: false, busy: true, lockMinutes: 10 });
    first.failed();
    second.failed();
    // Two failures and one attempt in flight: still not a lock.
    expect(await code(() => lock.begin(who))).toBe(40008);
    expect(await code(() => lock.assertOpen(who))).toBe(40008);
    await third.succeeded();
    // The right one gave its own slot back; the two failures beside it in the burst still count.
    expect(await lock.check(who)).toEqual({ locked: false, busy: false, lockMinutes: 10 });
    expect(await cache.getCounter(lock.lockKey(who))).toBe(2);
    const last = await lock.begin(who);
    expect(await code(() => lock.begin(who))).toBe(40008);
    expect(await code(async () => last.failed())).toBe(40004);
    // The failed attempts' in-flight marks are taken off without being awaited: let them land.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await lock.check(who)).toEqual({ locked: true, busy: false, lockMinutes: 10 });
    expect(await code(() => lock.begin(who))).toBe(40004);
    expect(await code(() => lock.assertOpen(who))).toBe(40004);
    expect(await cache.getCounter(lock.lockKey(who))).toBe(3);
  });

  it('does not call right passwords a lock when they land between its reads of the counter and of those in flight', async () => {
    // Tabs signing in at once: three right passwords fill the window; a fourth reads the full counter, then the
    // three succeed (counter cleared, in-flight count down to zero) before it reads how many are in flight.
    const { cache, settings } = setup({ maxFailCount: 3, lockMinutes: 10 });
    const who = { userId: 12 };
    const inFlight: Array<{ succeeded(): Promise<void> }> = [];
    let landed = false;
    const racing = Object.create(cache) as typeof cache;
    racing.getCounter = async (key) => {
      if (key.endsWith(':flight') && inFlight.length === 3 && !landed) {
        landed = true;
        for (const attempt of inFlight) await attempt.succeeded();
      }
      return cache.getCounter(key);
    };
    const lock = createLoginLock({ cache: racing, settings: async () => settings });
    for (let i = 0; i < 3; i++) inFlight.push(await lock.begin(who));
    // Refused unchecked (it read a full window), but busy: no failure was ever counted, so never 40004.
    expect(await code(() => lock.begin(who))).toBe(40008);
    expect(landed).toBe(true);
    expect(await cache.getCounter(lock.lockKey(who))).toBe(0);
  });

  it('counts a failed reservation, locks at the limit and clears on success', async () => {
    const { lock, cache } = setup({ maxFailCount: 2, lockMinutes: 10 });
    const who = { userId: 8 };
    expect((await lock.begin(who)).failed()).toEqual({ locked: false, attemptsLeft: 1, lockMinutes: 10 });
    const right = await lock.begin(who);
    await right.succeeded();
    expect(await cache.getCounter(lock.lockKey(who))).toBe(0);
    (await lock.begin(who)).failed();
    const last = await lock.begin(who);
    expect(await code(async () => last.failed())).toBe(40004);
    expect(await code(() => lock.begin(who))).toBe(40004);
  });

  it('forgives the failures settled before a right password, never one twice, never the attempts beside it', async () => {
    const { lock, cache } = setup({ maxFailCount: 5, lockMinutes: 10 });
    const who = { userId: 31 };
    const settledFailures = async (n: number) => {
      for (let i = 0; i < n; i++) (await lock.begin(who)).failed();
      await new Promise((resolve) => setImmediate(resolve));
    };
    await settledFailures(2);
    // A wrong one in flight, then two right ones at once (two tabs).
    const wrong = await lock.begin(who);
    const a = await lock.begin(who);
    const b = await lock.begin(who);
    await Promise.all([a.succeeded(), b.succeeded()]);
    // The two earlier failures forgiven once; the wrong one in flight keeps its slot.
    expect(await cache.getCounter(lock.lockKey(who))).toBe(1);
    expect(wrong.failed()).toMatchObject({ locked: false, attemptsLeft: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    const burst = await Promise.allSettled(Array.from({ length: 9 }, () => lock.begin(who)));
    expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
  });

  it('does not extend the lock by attempts made while locked', async () => {
    const { lock, clock } = setup({ maxFailCount: 1, lockMinutes: 10 });
    const who = { userId: 9 };
    await code(async () => (await lock.begin(who)).failed());
    clock.at += 9 * MINUTE;
    expect(await code(() => lock.begin(who))).toBe(40004);
    clock.at += 2 * MINUTE;
    expect(await code(() => lock.begin(who))).toBe(0);
  });

  it('keeps users, unknown texts and the second-factor family on separate counters', async () => {
    const { cache, settings } = setup();
    const password = createLoginLock({ cache, settings: async () => settings });
    const second = createLoginLock({ cache, settings: async () => settings, kind: 'secondFactor' });
    const keys = new Set([
      password.lockKey({ userId: 1 }),
      password.lockKey({ account: '1' }),
      second.lockKey({ userId: 1 }),
      second.lockKey({ account: '1' }),
    ]);
    expect(keys.size).toBe(4);
    expect(password.lockKey({ account: 'Alice ' })).toBe(password.lockKey('alice'));
  });

  it('gives no extra attempts when a success clears the counter while a refused reservation gives its slot back', async () => {
    // Attack: burst past the limit while the owner signs in; the refused extra's give-back lands after the
    // success cleared the counter and left it at -1, one more guess in the next window.
    const { cache, settings } = setup({ maxFailCount: 2, lockMinutes: 10 });
    const inFlight: Array<{ succeeded(): Promise<void> }> = [];
    let raced = false;
    const racing = Object.create(cache) as typeof cache;
    racing.increment = async (key, options) => {
      const count = await cache.increment(key, options);
      if (key === lock.lockKey({ userId: 7 }) && count > settings.maxFailCount && !raced) {
        raced = true;
        await inFlight[0]?.succeeded();
      }
      return count;
    };
    const lock = createLoginLock({ cache: racing, settings: async () => settings });
    inFlight.push(await lock.begin({ userId: 7 }));
    // Two more at once: both pass the locked check, the second one's increment goes past the limit.
    const pair = await Promise.allSettled([lock.begin({ userId: 7 }), lock.begin({ userId: 7 })]);
    expect(raced).toBe(true);
    expect(pair.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await cache.getCounter(lock.lockKey({ userId: 7 }))).toBeGreaterThanOrEqual(0);
    // The pair's admitted attempt is still in flight and holds its slot: one more, never two.
    const burst = await Promise.allSettled(Array.from({ length: 5 }, () => lock.begin({ userId: 7 })));
    expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('lets the next attempt through after a check that threw: released, not busy (40008) until the expiry', async () => {
    const { lock, cache } = setup({ maxFailCount: 1, lockMinutes: 10 });
    // A subject with a user and its text: two counters and two in-flight counts.
    const who = { userId: 21, account: 'carol' };
    const boom = new Error('hash failed');
    await expect(settleAttempt(await lock.begin(who), () => Promise.reject(boom))).rejects.toBe(boom);
    for (const key of [lock.lockKey({ userId: 21 }), lock.lockKey('carol')]) {
      expect({
        key,
        count: await cache.getCounter(key),
        flight: await cache.getCounter(`${key}:flight`),
      }).toEqual({
        key,
        count: 0,
        flight: 0,
      });
    }
    expect(await lock.check(who)).toEqual({ locked: false, busy: false, lockMinutes: 10 });
    const next = await lock.begin(who);
    await next.succeeded();
    // Nothing more happens to an attempt already settled, whatever its check does next.
    const wrong = await lock.begin(who);
    await expect(
      settleAttempt(wrong, async () => {
        wrong.failed();
      }),
    ).rejects.toMatchObject({ code: 40004 });
    await settleAttempt(wrong, () => Promise.resolve());
    expect(await code(() => lock.begin(who))).toBe(40004);
  });

  it('releases an attempt whose success cannot clear the counter (the cache throws there), and one whose in-flight mark half failed', async () => {
    const { cache, settings } = setup({ maxFailCount: 2, lockMinutes: 10 });
    const faults = { forgive: 0, flight: 0 };
    const flaky = Object.create(cache) as typeof cache;
    flaky.increment = async (key, options) => {
      // Taking the failures off (a success) fails.
      if (faults.forgive > 0 && key.endsWith(':fails') && (options?.by ?? 1) < 0) {
        faults.forgive -= 1;
        throw new Error('cache down');
      }
      // The second in-flight mark (the account text's) fails after the first (the user's) was raised.
      if (faults.flight > 0 && key.endsWith(':flight') && !key.includes(':u:')) {
        faults.flight -= 1;
        throw new Error('cache down');
      }
      return cache.increment(key, options);
    };
    const lock = createLoginLock({ cache: flaky, settings: async () => settings });
    const who = { userId: 22, account: 'dave' };
    (await lock.begin(who)).failed();
    await new Promise((resolve) => setImmediate(resolve));
    faults.forgive = 1;
    const right = await lock.begin(who);
    await expect(settleAttempt(right, () => right.succeeded())).rejects.toThrow('cache down');
    // Released: its slot is back, nothing in flight; the failure it could not forgive still counts.
    expect(await lock.check(who)).toEqual({ locked: false, busy: false, lockMinutes: 10 });
    expect(await cache.getCounter(lock.lockKey({ userId: 22 }))).toBe(1);
    expect(await cache.getCounter(`${lock.lockKey({ userId: 22 })}:flight`)).toBe(0);
    await (await lock.begin(who)).succeeded();
    expect(await cache.getCounter(lock.lockKey({ userId: 22 }))).toBe(0);
    faults.flight = 1;
    await expect(lock.begin(who)).rejects.toThrow('cache down');
    expect(await cache.getCounter(`${lock.lockKey({ userId: 22 })}:flight`)).toBe(0);
    await (await lock.begin(who)).succeeded();
  });
});

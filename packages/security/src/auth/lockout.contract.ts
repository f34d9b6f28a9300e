/**
 * Contract: the login lock cannot be sidestepped (issue 9). One identity, one counter: a spelling the dialect's
 * lookup resolves to the locked account is locked too (asserted per dialect: what the database resolves), and
 * text variants of an unknown account share a counter. No parallel bypass: a burst of wrong passwords gets at
 * most MaxFailCount hashes, and a right password sent while they are in flight is refused unchecked, also
 * from a second instance on one Redis. Equal cost: counted PBKDF2 iterations, never timing.
 */
import { pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
import { type Cache, createRedisCache } from '@svc/data/cache';
import { BusinessError, type DbType, type Pbkdf2Derive } from '@svc/kernel';
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
} from './harness.contract.js';

const pbkdf2Async = promisify(pbkdf2);

/** The business code a settled login carries (0 for a session). */
async function codeOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 0;
  } catch (error) {
    if (error instanceof BusinessError) return error.code;
    throw error;
  }
}

const input = (account: string, password: string): LoginInput => ({ account, password, client: CLIENT });

/** Events a test waits for instead of time: `until(p)` resolves once `p()` holds after some `changed()`. */
function conditions() {
  const waiting: Array<{ holds: () => boolean; resolve: () => void }> = [];
  return {
    changed() {
      for (const w of [...waiting]) {
        if (w.holds()) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
      }
    },
    until(holds: () => boolean): Promise<void> {
      if (holds()) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ holds, resolve }));
    },
  };
}

/** A real PBKDF2 that counts its calls and iterations and, while closed, holds every hash at its start. */
function gatedDerive(events: ReturnType<typeof conditions>) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = { calls: 0, iterations: 0, wrong: 0 };
  const derive: Pbkdf2Derive = async (password, salt, iterations, keyLength) => {
    state.calls += 1;
    if (String(password).startsWith('Wrong#')) state.wrong += 1;
    state.iterations += iterations;
    events.changed();
    await gate;
    return pbkdf2Async(password, salt, iterations, keyLength, 'sha256');
  };
  return { derive, state, open };
}

/**
 * Which spellings of `victim…` the dialect's account lookup resolves to `victim…` (the identity the database
 * decides): PostgreSQL's lower() folds the dotted capital İ onto i, MariaDB's accent-insensitive collation
 * folds both İ and í onto i, SQLite folds ASCII case only.
 */
const RESOLVES: Record<DbType, { dotted: boolean; accented: boolean }> = {
  Sqlite: { dotted: false, accented: false },
  PostgreSQL: { dotted: true, accented: false },
  MySql: { dotted: true, accented: true },
  SqlServer: { dotted: false, accented: true },
};

let seq = 0;

export function lockoutContract(fixture: AuthFixture): void {
  describeAuth('login lockout', fixture, (world) => {
    const lockRows = (max: number) => ({
      'sys.security.loginLock.maxFailCount': String(max),
      'sys.security.loginLock.lockMinutes': '7',
    });
    const victimAccount = () => `victim${++seq}x${Date.now().toString(36)}`;

    it('locks every spelling the database resolves to the locked account, and the folded ones alike', async () => {
      const s = buildServices(world(), { runtime: lockRows(3) });
      const account = victimAccount();
      const victim = await createUser(world(), { account });
      const variants = {
        upper: account.toUpperCase(),
        dotted: account.replace('i', '\u0130'),
        accented: account.replace('i', '\u00ed'),
      };
      const expected = { upper: true, ...RESOLVES[fixture.dbType] };
      for (const [name, spelling] of Object.entries(variants)) {
        const resolved = await world().repos.users.findByAccount(spelling);
        expect({ name, resolves: resolved?.id === victim.id }).toEqual({
          name,
          resolves: expected[name as keyof typeof expected],
        });
      }

      for (let i = 0; i < 3; i++) await codeOf(s.auth.login(input(account, `Wrong#${i}`)));
      expect(await codeOf(s.auth.login(input(account, PASSWORD)))).toBe(40004);
      for (const [name, spelling] of Object.entries(variants)) {
        // A resolving spelling meets the user's lock; any other meets the folded text's, as for an unknown
        // account, so the answer does not tell whether the database resolved it.
        expect({ name, code: await codeOf(s.auth.login(input(spelling, PASSWORD))) }).toEqual({
          name,
          code: 40004,
        });
      }
      expect(await world().repos.sessions.listLive(victim.id)).toEqual([]);
    });

    it('counts wrong passwords through every resolving spelling on one counter', async () => {
      const s = buildServices(world(), { runtime: lockRows(3) });
      const account = victimAccount();
      const victim = await createUser(world(), { account });
      const spelling = RESOLVES[fixture.dbType].dotted
        ? account.replace('i', '\u0130')
        : RESOLVES[fixture.dbType].accented
          ? account.replace('i', '\u00ed')
          : account.toUpperCase();
      expect(await codeOf(s.auth.login(input(spelling, 'Wrong#1')))).toBe(40001);
      expect(await codeOf(s.auth.login(input(` ${spelling}`, 'Wrong#2')))).toBe(40001);
      expect(await codeOf(s.auth.login(input(account, 'Wrong#3')))).toBe(40004);
      expect(await codeOf(s.auth.login(input(account, PASSWORD)))).toBe(40004);
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: victim.id }))).toBe(3);
    });

    it('answers a spelling the database does not resolve alike for a real and an unknown account', async () => {
      // Attack: the canonical text (NFKC, case) folds a full-width spelling onto the account's name, while the
      // database lookup may not resolve it. Counted apart from a real account's counter but together for an
      // unknown one, `attemptsLeft` would tell in two requests whether the account exists.
      const s = buildServices(world(), { runtime: lockRows(5) });
      const real = victimAccount();
      await createUser(world(), { account: real });
      const unknown = victimAccount();
      const fullWidth = (text: string) =>
        [...text].map((ch) => String.fromCodePoint((ch.codePointAt(0) ?? 0) + 0xfee0)).join('');
      const answers = async (account: string) => {
        const seen: Array<[number, unknown]> = [];
        const spellings = [
          account,
          fullWidth(account),
          // Resolved by MariaDB's accent-insensitive collation (and İ by PostgreSQL's lower()), not by SQLite.
          account.replace('i', '\u00ed'),
          account.replace('i', '\u0130'),
        ];
        for (const spelling of spellings) {
          try {
            await s.auth.login(input(spelling, 'Wrong#Guess1'));
            seen.push([0, undefined]);
          } catch (error) {
            if (!(error instanceof BusinessError)) throw error;
            seen.push([error.code, error.args?.attemptsLeft]);
          }
        }
        return seen;
      };
      const forUnknown = await answers(unknown);
      expect(forUnknown).toEqual([
        [40001, 4],
        [40001, 3],
        [40001, 2],
        [40001, 1],
      ]);
      expect(await answers(real)).toEqual(forUnknown);
    });

    it('counts the self-service password change on the login counter (one check for every door)', async () => {
      const s = buildServices(world(), { runtime: lockRows(3) });
      const user = await createUser(world());
      const issued = await s.auth.login(input(user.account, PASSWORD));
      const principal = {
        kind: 'user' as const,
        userId: user.id,
        account: user.account,
        sessionId: issued.sessionId,
        isSuperAdmin: false,
        orgId: null,
      };
      expect(await codeOf(s.auth.login(input(user.account, 'Wrong#1')))).toBe(40001);
      expect(await codeOf(s.auth.changePassword(principal, 'Wrong#2', 'Next#Pass456'))).toBe(40001);
      expect(await codeOf(s.auth.login(input(user.account, 'Wrong#3')))).toBe(40004);
      expect(await codeOf(s.auth.changePassword(principal, PASSWORD, 'Next#Pass456'))).toBe(40004);
      // Refused attempts at a door other than login leave a login-log row naming the user.
      const rows = (await world().repos.loginLogs.page({ size: 200, sortField: 'id', sortOrder: 'asc' }))
        .items;
      const mine = rows.filter((r) => r.userId === user.id).map((r) => r.resultCode);
      expect(mine).toEqual([0, 40001, 40001, 40004, 40004]);
    });

    const burst = async (instances: number) => {
      const events = conditions();
      const hashes = gatedDerive(events);
      const first = buildServices(world(), { runtime: lockRows(5), derive: hashes.derive });
      const peerCache =
        instances === 2
          ? await createRedisCache({
              url: process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
              keyPrefix: world().keyPrefix,
            })
          : undefined;
      const second = peerCache
        ? buildServices(world(), { runtime: lockRows(5), derive: hashes.derive, cache: peerCache })
        : first;
      try {
        const user = await createUser(world());
        let settled = 0;
        const wrong = Array.from({ length: 29 }, (_, i) =>
          codeOf((i % 2 ? second : first).auth.login(input(user.account, `Wrong#${i}`))).finally(() => {
            settled += 1;
            events.changed();
          }),
        );
        // Five hashes are running (held at the gate); the other 24 were refused without one.
        await events.until(() => hashes.state.calls === 5 && settled === 24);
        // The right password, sent while the burst is in flight, is refused unchecked: busy (40008), not locked.
        expect(await codeOf(second.auth.login(input(user.account, PASSWORD)))).toBe(40008);
        hashes.open();
        const codes = await Promise.all(wrong);
        expect(codes.filter((c) => c === 40001)).toHaveLength(4);
        // The fifth failure locked the account; the 24 refused unchecked were told to retry, not a lock.
        expect(codes.filter((c) => c === 40004)).toHaveLength(1);
        expect(codes.filter((c) => c === 40008)).toHaveLength(24);
        expect(hashes.state.calls).toBe(5);
        // The burst locked the account: the right password stays refused, from either instance.
        expect(await codeOf(first.auth.login(input(user.account, PASSWORD)))).toBe(40004);
        expect(await codeOf(second.auth.login(input(user.account, PASSWORD)))).toBe(40004);
        expect(hashes.state.calls).toBe(5);
        expect(await world().repos.sessions.listLive(user.id)).toEqual([]);
      } finally {
        await peerCache?.close();
      }
    };

    it('runs at most MaxFailCount hashes for 29 parallel wrong passwords and refuses the right one', () =>
      burst(1));

    if (fixture.cache === 'Redis') {
      it('holds the same bound across two instances on one Redis and one database', () => burst(2));
    }

    /**
     * Attack: the owner signs in while a burst of wrong passwords is in flight. Their right password used to clear
     * the counter, the wrong ones beside it with it, so the same burst got MaxFailCount more checks (9 of 5).
     */
    const burstAroundRight = async (instances: number) => {
      const events = conditions();
      const hashes = gatedDerive(events);
      const first = buildServices(world(), { runtime: lockRows(5), derive: hashes.derive });
      const peerCache =
        instances === 2
          ? await createRedisCache({
              url: process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
              keyPrefix: world().keyPrefix,
            })
          : undefined;
      const second = peerCache
        ? buildServices(world(), { runtime: lockRows(5), derive: hashes.derive, cache: peerCache })
        : first;
      try {
        const user = await createUser(world());
        let settled = 0;
        const guess = (i: number) =>
          codeOf((i % 2 ? second : first).auth.login(input(user.account, `Wrong#${i}`))).finally(() => {
            settled += 1;
            events.changed();
          });
        const early = Array.from({ length: 4 }, (_, i) => guess(i));
        await events.until(() => hashes.state.calls === 4);
        // The right password lands in the middle of the burst, then the burst goes on.
        const right = codeOf(second.auth.login(input(user.account, PASSWORD)));
        await events.until(() => hashes.state.calls === 5);
        const refused = Array.from({ length: 10 }, (_, i) => guess(10 + i));
        await events.until(() => settled === 10);
        hashes.open();
        expect(await right).toBe(0);
        const late = Array.from({ length: 20 }, (_, i) => guess(100 + i));
        const codes = [
          ...(await Promise.all(early)),
          ...(await Promise.all(refused)),
          ...(await Promise.all(late)),
        ];
        // Five wrong passwords checked in all: MaxFailCount for the whole burst.
        expect(hashes.state.wrong).toBe(5);
        expect(codes.filter((c) => c === 40001)).toHaveLength(4);
        expect(codes.filter((c) => c === 40004).length).toBeGreaterThanOrEqual(1);
        expect(codes.filter((c) => c !== 40001 && c !== 40004 && c !== 40008)).toEqual([]);
        // The burst's fifth failure locked the account, on either instance, with no further hash.
        expect(await codeOf(first.auth.login(input(user.account, PASSWORD)))).toBe(40004);
        expect(await codeOf(second.auth.login(input(user.account, PASSWORD)))).toBe(40004);
        expect(hashes.state.wrong).toBe(5);
      } finally {
        await peerCache?.close();
      }
    };

    it('keeps a burst to MaxFailCount wrong checks when the right password lands in its middle', () =>
      burstAroundRight(1));

    if (fixture.cache === 'Redis') {
      it('keeps that bound across two instances on one Redis', () => burstAroundRight(2));
    }

    it('tells right passwords beyond MaxFailCount in flight to retry (40008), never that the account is locked', async () => {
      // Tabs or a script signing in at once: the reservations beyond the limit cannot know whether the attempts
      // in flight are right or wrong, so they are refused unchecked; "locked" (40004, ten minutes) would be false.
      const events = conditions();
      const hashes = gatedDerive(events);
      const s = buildServices(world(), { runtime: lockRows(5), derive: hashes.derive });
      const user = await createUser(world());
      let settled = 0;
      const logins = Array.from({ length: 8 }, () =>
        s.auth.login(input(user.account, PASSWORD)).then(
          () => 0,
          (error: unknown) => {
            settled += 1;
            events.changed();
            if (error instanceof BusinessError) return { code: error.code, args: error.args };
            throw error;
          },
        ),
      );
      await events.until(() => hashes.state.calls === 5 && settled === 3);
      hashes.open();
      const answers = await Promise.all(logins);
      expect(answers.filter((a) => a === 0)).toHaveLength(5);
      expect(answers.filter((a) => a !== 0)).toEqual(
        Array.from({ length: 3 }, () => ({ code: 40008, args: { retryAfterSeconds: 1 } })),
      );
      // The retry gets in: the counter was cleared by the right ones, never left at a lock.
      expect(await codeOf(s.auth.login(input(user.account, PASSWORD)))).toBe(0);
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: user.id }))).toBe(0);
    });

    it('lets parallel right passwords within MaxFailCount all in, and clears the counter', async () => {
      const s = buildServices(world(), { runtime: lockRows(5) });
      const user = await createUser(world());
      const codes = await Promise.all(
        Array.from({ length: 5 }, () => codeOf(s.auth.login(input(user.account, PASSWORD)))),
      );
      expect(codes).toEqual([0, 0, 0, 0, 0]);
      expect(await world().cache.getCounter(s.lock.lockKey({ userId: user.id }))).toBe(0);
    });

    it('lets the next login through after a hash or the cache threw mid-check (never 40008 until the expiry)', async () => {
      const faults = { hash: 0, clear: 0 };
      const derive: Pbkdf2Derive = async (password, salt, iterations, keyLength) => {
        if (faults.hash > 0) {
          faults.hash -= 1;
          throw new Error('hash failed');
        }
        return pbkdf2Async(password, salt, iterations, keyLength, 'sha256');
      };
      // The cache throws when a right password takes the failures before it off the lock counter.
      const cache = Object.create(world().cache) as Cache;
      cache.increment = async (key, options) => {
        if (faults.clear > 0 && key.endsWith(':fails') && (options?.by ?? 1) < 0) {
          faults.clear -= 1;
          throw new Error('cache down');
        }
        return world().cache.increment(key, options);
      };
      // One failure locks: an attempt left in flight read "busy" (40008) until the counter's expiry.
      const strict = buildServices(world(), { runtime: lockRows(1), derive, cache });
      const account = victimAccount();
      await createUser(world(), { account });
      faults.hash = 1;
      await expect(strict.auth.login(input(account, PASSWORD))).rejects.toThrow('hash failed');
      expect(await codeOf(strict.auth.login(input(account, PASSWORD)))).toBe(0);
      // A right password that cannot take the failure before it off the counter is released all the same.
      const pair = buildServices(world(), { runtime: lockRows(2), derive, cache });
      const owner = victimAccount();
      await createUser(world(), { account: owner });
      expect(await codeOf(pair.auth.login(input(owner, 'Wrong#Pass1')))).toBe(40001);
      faults.clear = 1;
      await expect(pair.auth.login(input(owner, PASSWORD))).rejects.toThrow('cache down');
      expect(await codeOf(pair.auth.login(input(owner, PASSWORD)))).toBe(0);
      expect(await codeOf(pair.auth.login(input(owner, 'Wrong#Pass2')))).toBe(40001);
      // An unknown account (the dummy hash throws): the check answered nothing, so it is no failure either.
      const loose = buildServices(world(), { runtime: lockRows(2), derive, cache });
      const ghost = `ghost-${victimAccount()}`;
      faults.hash = 1;
      await expect(loose.auth.login(input(ghost, 'Wrong#Pass1'))).rejects.toThrow('hash failed');
      await expect(loose.auth.login(input(ghost, 'Wrong#Pass2'))).rejects.toMatchObject({
        code: 40001,
        args: { attemptsLeft: 1 },
      });
      expect(await codeOf(loose.auth.login(input(ghost, 'Wrong#Pass3')))).toBe(40004);
    });

    it('costs one hash of the current strength for every outcome, whatever the stored hash (counted)', async () => {
      const current = ITERATIONS + 20_000;
      const events = conditions();
      const hashes = gatedDerive(events);
      hashes.open();
      const s = buildServices(world(), { runtime: lockRows(3), derive: hashes.derive, iterations: current });
      const modern = await createUser(world(), { iterations: current });
      const older = await createUser(world(), { iterations: ITERATIONS });
      const disabled = await createUser(world(), { iterations: ITERATIONS, enabled: false });
      const cost = async (account: string, password: string) => {
        const before = hashes.state.iterations;
        const code = await codeOf(s.auth.login(input(account, password)));
        return { code, iterations: hashes.state.iterations - before };
      };
      const outcomes = {
        unknown: await cost(`ghost-${modern.account}`, 'Wrong#1'),
        deleted: await cost(`${older.account}-gone`, PASSWORD),
        currentWrong: await cost(modern.account, 'Wrong#1'),
        olderWrong: await cost(older.account, 'Wrong#1'),
        olderDisabledRight: await cost(disabled.account, PASSWORD),
      };
      expect(outcomes).toEqual({
        unknown: { code: 40001, iterations: current },
        deleted: { code: 40001, iterations: current },
        currentWrong: { code: 40001, iterations: current },
        olderWrong: { code: 40001, iterations: current },
        olderDisabledRight: { code: 40005, iterations: current },
      });
      // Locked, known or unknown: no hash at all.
      for (let i = 0; i < 2; i++) {
        await cost(older.account, 'Wrong#x');
        await cost(`ghost-${modern.account}`, 'Wrong#x');
      }
      expect(await cost(older.account, PASSWORD)).toEqual({ code: 40004, iterations: 0 });
      expect(await cost(`ghost-${modern.account}`, PASSWORD)).toEqual({ code: 40004, iterations: 0 });
    });
  });
}

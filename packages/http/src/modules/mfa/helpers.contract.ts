/**
 * Shared pieces of the second-factor contracts: a test server with a movable clock, users with phones or
 * flags, reading SMS codes from the backend log as an operator would, and posting JSON.
 */
import type { DbType } from '@svc/kernel';
import { hashPassword } from '@svc/kernel';
import { json } from '../../testing/auth.js';
import { startTestServer, TEST_USER_PASSWORD, type TestServer } from '../../testing/index.js';

/** A clock the test moves instead of sleeping. */
export interface TestClock {
  now: () => Date;
  advance(seconds: number): void;
}

/**
 * 06:00 UTC of the day after `now`: a start for a suite whose rules count per UTC day (the SMS daily limit), so that
 * its advances of a few minutes never cross a UTC midnight whatever the time of day the suite runs (one that
 * started at 23:55 UTC reopened the day between two sends and failed).
 */
export function nextUtcMorning(now = Date.now()): number {
  const day = new Date(now);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1, 6);
}

export function testClock(start = Date.now()): TestClock {
  let t = start;
  return {
    now: () => new Date(t),
    advance(seconds) {
      t += seconds * 1000;
    },
  };
}

/** Starts a server with rate limits off (these suites make many auth calls from one address). */
export function startMfaServer(
  dbType: DbType,
  cache: 'Memory' | 'Redis',
  clock: TestClock,
  env: Record<string, string> = {},
): Promise<TestServer> {
  return startTestServer({
    dbType,
    cache,
    now: clock.now,
    env: { Service__Security__RateLimit__Enabled: 'false', ...env },
  });
}

let hashed: Promise<string> | undefined;

/** Inserts a user whose password is `TEST_USER_PASSWORD`; answers its id. */
export async function addUser(
  t: TestServer,
  input: { account: string; phone?: string; enabled?: boolean; forceTotp?: boolean; isSuperAdmin?: boolean },
): Promise<number> {
  hashed ??= hashPassword(TEST_USER_PASSWORD, 100_000);
  const { db, adapter, tables } = t.server.database.database;
  return adapter.insertReturningId(db, tables.sysUser, {
    account: input.account,
    realName: input.account,
    password: await hashed,
    orgId: 1,
    phone: input.phone ?? null,
    enabled: input.enabled ?? true,
    forceTotp: input.forceTotp ?? false,
    isSuperAdmin: input.isSuperAdmin ?? false,
  });
}

/** Posts JSON and answers the parsed envelope. */
export async function post(
  t: TestServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: ReturnType<typeof json> extends Promise<infer B> ? B : never }> {
  const res = await t.request(path, { json: body, headers });
  return { status: res.status, body: await json(res) };
}

/** The SMS lines the default sender wrote for `phone`, oldest first. */
export function smsLines(t: TestServer, purpose: 'mfa' | 'login' | 'phone', phone: string): string[] {
  return t.logs.filter((line) => line.includes(`[SMS] purpose=${purpose} phone=${phone} code=`));
}

/** The newest code the default sender logged for `phone`. */
export function lastSmsCode(t: TestServer, purpose: 'mfa' | 'login' | 'phone', phone: string): string {
  const line = smsLines(t, purpose, phone).at(-1);
  const code = line ? /code=(\d+)/.exec(line)?.[1] : undefined;
  if (!code) throw new Error(`no ${purpose} SMS logged for ${phone}`);
  return code;
}

/** A code of `length` digits that differs from `code`. */
export const otherCode = (code: string): string =>
  [...code].map((d, i) => (i === 0 ? String((Number(d) + 1) % 10) : d)).join('');

/**
 * Runs `work` while the server's cache refuses `setIfAbsent` (a consumed challenge going back) for keys containing
 * `keyPart`, as a cache failing between a take and a restore; answers how many were refused.
 */
export async function refusingRestores(
  t: TestServer,
  keyPart: string,
  work: () => Promise<void>,
): Promise<number> {
  const cache = t.server.cache;
  const setIfAbsent = cache.setIfAbsent;
  let refused = 0;
  cache.setIfAbsent = async (key, ...rest) => {
    if (key.includes(keyPart)) {
      refused += 1;
      throw new Error('the cache went away');
    }
    return setIfAbsent.call(cache, key, ...rest);
  };
  try {
    await work();
  } finally {
    cache.setIfAbsent = setIfAbsent;
  }
  return refused;
}

/**
 * Bounded database waits (contract §10) and the import's own statement timeout, written once and run by one thin
 * file per dialect: a statement that outlasts the command timeout (or, on SQLite, a write lock held past the busy
 * timeout) fails instead of waiting, the failure is recognised as "database unavailable" (503 with 50003 in the
 * HTTP layer) while a plain SQL error is not, and the same pool answers the next statement without being reopened.
 */
import BetterSqlite3 from 'better-sqlite3';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../database.js';
import { isDatabaseUnavailable } from '../../errors.js';
import { createRepositories } from '../../repositories/index.js';
import { createTestDatabase, openTestDatabase, type TestDatabase } from '../test-database.js';

/** The configured waits of the suite: short, and nothing below measures them. */
const TIMEOUT_MS = 1_000;

/** A statement that runs far longer than the command timeout, per dialect (test-only SQL). */
const SLOW_SQL = {
  PostgreSQL: sql`select pg_sleep(30)`,
  MySql: sql`select sleep(30)`,
} as const;

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to fail');
}

/**
 * `work` answered within a few attempts, each failure a recognised wait (the command timeout): on a loaded machine
 * the fresh connection that replaces a cancelled one can itself outlast a 1 s timeout. The pool must recover
 * without being reopened; how fast is not what this suite checks.
 */
async function answersWithinAttempts(attempts: number, work: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if (attempt >= attempts || !isDatabaseUnavailable(error)) throw error;
    }
  }
}

export function databaseWaitsContract(dbType: 'Sqlite' | 'PostgreSQL' | 'MySql'): void {
  describe(`database waits on ${dbType}`, () => {
    let created: TestDatabase;
    let database: Database;
    beforeAll(async () => {
      created = await createTestDatabase(dbType);
      database = await openDatabase({
        dbType,
        connectionString: created.connectionString,
        contentRoot: process.cwd(),
        acquireTimeoutMs: TIMEOUT_MS,
        commandTimeoutMs: TIMEOUT_MS,
      });
      await raw(sql`create table waits_probe (x integer)`);
    });
    afterAll(async () => {
      await database?.close();
      await created?.drop();
    });

    const ping = () => database.ping();
    /** Runs test-only SQL through the dialect's drizzle method (`run` for SQLite, `execute` elsewhere). */
    const raw = async (query: SQL): Promise<unknown> => {
      const db = database.db as unknown as {
        run?: (q: SQL) => unknown;
        execute?: (q: SQL) => Promise<unknown>;
      };
      return dbType === 'Sqlite' ? db.run?.(query) : db.execute?.(query);
    };

    if (dbType === 'Sqlite') {
      it('gives up on a write lock held past the busy timeout, then writes once it is free', async () => {
        const file = created.connectionString.replace(/^Data Source=/, '');
        const holder = new BetterSqlite3(file);
        try {
          holder.exec('BEGIN IMMEDIATE');
          const error = await failureOf(() => raw(sql`insert into waits_probe values (1)`));
          expect(isDatabaseUnavailable(error)).toBe(true);
        } finally {
          holder.exec('ROLLBACK');
          holder.close();
        }
        await raw(sql`insert into waits_probe values (1)`);
        await ping();
      });
    } else {
      it('cancels a statement that outlasts the command timeout; the pool answers the next one', async () => {
        const slow = SLOW_SQL[dbType];
        const results = await Promise.allSettled([1, 2, 3].map(() => raw(slow)));
        expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
        for (const r of results) {
          expect(isDatabaseUnavailable(r.status === 'rejected' ? r.reason : undefined)).toBe(true);
        }
        await answersWithinAttempts(5, ping);
      });

      it("runs an import batch under the import's own statement timeout, and gives the pool its own back", async () => {
        // A trigger makes each user insert outlast the pool's 1 s command timeout (the server cuts it at 1 s;
        // nothing here measures time). Under the import's 60 s the batch commits.
        const t = await openTestDatabase(dbType);
        try {
          const run = (q: SQL) =>
            (t.database.db as unknown as { execute(q: SQL): Promise<unknown> }).execute(q);
          if (dbType === 'PostgreSQL') {
            await run(
              sql.raw(
                'create function slow_insert() returns trigger as $$ begin perform pg_sleep(1.5); return new; end $$ language plpgsql',
              ),
            );
            await run(
              sql.raw(
                'create trigger slow_user before insert on sys_user for each row execute function slow_insert()',
              ),
            );
          } else {
            await run(
              sql.raw('create trigger slow_user before insert on sys_user for each row do sleep(1.5)'),
            );
          }
          const slowDb = await openDatabase({
            dbType,
            connectionString: t.connectionString,
            contentRoot: process.cwd(),
            acquireTimeoutMs: TIMEOUT_MS,
            commandTimeoutMs: TIMEOUT_MS,
            poolSize: 1,
          });
          try {
            const repos = createRepositories(slowDb);
            const user = (account: string) => ({
              user: { account, realName: account, password: 'h' },
              roleIds: [],
            });
            const stamp = { userId: 1, at: new Date() };
            const plain = await failureOf(() =>
              repos.users.importBatch({ creates: [user('a1')], updates: [], stamp }),
            );
            expect(isDatabaseUnavailable(plain)).toBe(true);
            const done = await repos.users.importBatch({
              creates: [user('a2')],
              updates: [],
              stamp,
              statementTimeoutMs: 60_000,
            });
            expect(done.createdIds).toHaveLength(1);
            // The one pooled connection carries the pool's timeout again: the next slow insert is cut.
            const after = await failureOf(() =>
              repos.users.importBatch({ creates: [user('a3')], updates: [], stamp }),
            );
            expect(isDatabaseUnavailable(after)).toBe(true);
            expect((await repos.users.findByAccount('a2'))?.id).toBe(done.createdIds[0]);
            expect(await repos.users.findByAccount('a3')).toBeUndefined();
          } finally {
            await slowDb.close();
          }
        } finally {
          await t.cleanup().catch(() => {});
        }
      });
    }

    it('does not take a plain SQL error for an outage', async () => {
      const error = await failureOf(() => raw(sql`select * from no_such_table`));
      expect(isDatabaseUnavailable(error)).toBe(false);
    });
  });
}

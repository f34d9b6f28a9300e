/**
 * PostgreSQL's live-user counter is kept per statement (migration `user_counter_statement`): a statement over
 * many users makes one new row version of `sys_counter`, where the per-row trigger of `user_counter` made one a
 * user, and those versions of one row in one transaction made a mass write quadratic (docs/performance.md). The
 * versions are read from pg_stat_xact_user_tables before and after the statements, in their transaction: a count,
 * not a time. The import's new users are inserted many a statement, so an import makes one version an INSERT. A
 * database migrated before this change upgrades with an exact counter and the new triggers.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, count, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.js';
import type { QueryDb } from '../dialect.js';
import { MIGRATIONS_TABLE, migrateDatabase, migrationsPath } from '../migrate.js';
import { createRepositories } from '../repositories/index.js';
import { LIVE_USERS } from '../repositories/users.js';
import { IMPORT_USERS_PER_INSERT } from '../repositories/users-import.js';
import { insertUsersInBulk } from '../testing/bulk.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../testing/test-database.js';

/** Users per mass write: two bulk INSERTs (1,000 rows each at most) and three id chunks (500). */
const MASS = 1_200;

async function rows<R>(q: QueryDb, query: ReturnType<typeof sql>): Promise<R[]> {
  return [...((await (q as unknown as { execute(q: unknown): Promise<Iterable<R>> }).execute(query)) ?? [])];
}

/** Row versions of `sys_counter` this connection made and has not reported to the statistics yet. Within one
 * transaction nothing is reported, so two readings there differ by what the statements between them made. */
async function counterVersions(q: QueryDb): Promise<number> {
  const [row] = await rows<{ n: number }>(
    q,
    sql`select n_tup_upd::int as n from pg_stat_xact_user_tables where relname = 'sys_counter'`,
  );
  return row?.n ?? 0;
}

/** Runs `work` in a transaction and answers the row versions of `sys_counter` it made. */
async function versionsMadeBy(
  database: Database,
  work: (tx: QueryDb) => PromiseLike<unknown>,
): Promise<number> {
  return database.adapter.transaction(database.db, async (tx) => {
    const before = await counterVersions(tx);
    await work(tx);
    return (await counterVersions(tx)) - before;
  });
}

async function expectExact(database: Database): Promise<void> {
  const { db, tables } = database;
  const u = tables.sysUser;
  const c = tables.sysCounter;
  const [live] = await db.select({ n: count() }).from(u).where(eq(u.isDelete, false));
  const [kept] = await db.select({ v: c.value }).from(c).where(eq(c.name, LIVE_USERS));
  expect(Number(kept?.v)).toBe(Number(live?.n));
}

const triggersOnUsers = (q: QueryDb) =>
  rows<{ name: string }>(
    q,
    sql`select tgname as name from pg_trigger where tgrelid = 'sys_user'::regclass and not tgisinternal order by 1`,
  );

describe.skipIf(!testDialects().includes('PostgreSQL'))('PostgreSQL live-user counter per statement', () => {
  let t: OpenTestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase('PostgreSQL');
  });
  afterAll(() => t?.cleanup());

  it('makes one counter update per statement that changes the count, not one per user', async () => {
    const { database } = t;
    const { tables } = database;
    const u = tables.sysUser;
    const mass = like(u.account, 'mass-%');
    let ids: number[] = [];
    // Two multi-row INSERTs.
    expect(
      await versionsMadeBy(database, async (tx) => {
        ids = await insertUsersInBulk({ db: tx, tables }, { count: MASS, prefix: 'mass-' });
      }),
    ).toBe(2);
    // A soft delete of all of them, a restore, an update that flips nothing (no version at all).
    expect(await versionsMadeBy(database, (tx) => tx.update(u).set({ isDelete: true }).where(mass))).toBe(1);
    expect(await versionsMadeBy(database, (tx) => tx.update(u).set({ isDelete: false }).where(mass))).toBe(1);
    expect(await versionsMadeBy(database, (tx) => tx.update(u).set({ remark: 'x' }).where(mass))).toBe(0);
    // The batch delete: one update per chunk of 500 ids.
    expect(
      await versionsMadeBy(database, (tx) =>
        createRepositories({ ...database, db: tx }).users.softDelete(ids, { userId: null, at: new Date() }),
      ),
    ).toBe(3);
    // A purge of all of them in one statement: deleted rows do not count, so nothing changes.
    expect(await versionsMadeBy(database, (tx) => tx.delete(u).where(and(mass, eq(u.isDelete, true))))).toBe(
      0,
    );
    await expectExact(database);
  });

  it("makes one counter update per INSERT of an import's new users, not one per user", async () => {
    const { database } = t;
    const creates = Array.from({ length: MASS }, (_, i) => ({
      user: { account: `import-${i}`, realName: 'I', password: 'h' },
      roleIds: [1],
    }));
    // 1,200 users: three INSERTs of at most IMPORT_USERS_PER_INSERT (one INSERT a user made 1,200 versions).
    expect(
      await versionsMadeBy(database, (tx) =>
        createRepositories({ ...database, db: tx }).users.importBatch({
          creates,
          updates: [],
          stamp: { userId: null, at: new Date() },
        }),
      ),
    ).toBe(Math.ceil(MASS / IMPORT_USERS_PER_INSERT));
    await expectExact(database);
  });

  it('upgrades a database migrated with the per-row trigger: exact counter, triggers per statement', async () => {
    const old = await openTestDatabase('PostgreSQL', { migrate: false });
    const folder = mkdtempSync(join(tmpdir(), 'svc-migrations-pg-'));
    try {
      const { database } = old;
      const { db, tables } = database;
      const u = tables.sysUser;
      // The migrations up to, not including, user_counter_statement.
      cpSync(migrationsPath('pg'), folder, { recursive: true });
      const newer = readdirSync(folder).filter((name) => name.endsWith('_user_counter_statement'));
      expect(newer).toHaveLength(1);
      rmSync(join(folder, newer[0] as string), { recursive: true });
      await database.adapter.migrate(db, { folder, table: MIGRATIONS_TABLE });
      expect((await triggersOnUsers(db)).map((r) => r.name)).toEqual(['sys_user_live_count']);
      const ids = await insertUsersInBulk(database, { count: 300, prefix: 'before-' });
      await db
        .update(u)
        .set({ isDelete: true })
        .where(inArray(u.id, ids.slice(0, 100)));
      // One user a version, as before.
      expect(
        await versionsMadeBy(database, (tx) =>
          tx.update(u).set({ isDelete: false }).where(inArray(u.id, ids)),
        ),
      ).toBe(100);
      await expectExact(database);

      await migrateDatabase(database);
      expect((await triggersOnUsers(db)).map((r) => r.name)).toEqual([
        'sys_user_live_delete',
        'sys_user_live_insert',
        'sys_user_live_update',
      ]);
      await expectExact(database);
      expect(
        await versionsMadeBy(database, (tx) =>
          tx.update(u).set({ isDelete: true }).where(inArray(u.id, ids)),
        ),
      ).toBe(1);
      await insertUsersInBulk(database, { count: 300, prefix: 'after-' });
      await db.delete(u).where(like(u.account, 'before-%'));
      await expectExact(database);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await old.cleanup();
    }
  });
});

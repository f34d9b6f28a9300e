/**
 * MySQL/MariaDB (mysql2) answers to the dialect questions: `$returningId()` (LAST_INSERT_ID) for a new id, a
 * locking read-back for the rows of a multi-row insert, `affectedRows` (mysql2 connects with FOUND_ROWS, so an
 * update counts matched rows like the other dialects), LIMIT/OFFSET paging, drizzle's transactions, INSERT IGNORE
 * for conflicts, AUTO_INCREMENT that follows explicit ids by itself, and a sentinel row lock for the first-start
 * seed.
 */
import { type Column, eq, type SQL, sql, type Table } from 'drizzle-orm';
import type { MySqlTable } from 'drizzle-orm/mysql-core';
import type { MySql2Database } from 'drizzle-orm/mysql2';
import { migrate } from 'drizzle-orm/mysql2/migrator';
import type { DialectAdapter, QueryDb, SelectQuery } from '../dialect.js';
import { drizzleTransaction } from '../transactions.js';
import { sysConfig } from './schema.js';

/** Config key of the seed-lock sentinel row (never committed). */
export const SEED_LOCK_KEY = '__svc_first_start_seed_lock__';

type Native = MySql2Database;
const native = (db: QueryDb) => db as unknown as Native;
const nativeTable = (table: Table) => table as unknown as MySqlTable;

/** mysql2 answers `[rows, fields]` for reads and `[ResultSetHeader, undefined]` for writes. */
async function rows<T>(db: QueryDb, query: SQL): Promise<T[]> {
  const [result] = (await native(db).execute(query)) as unknown as [T[], unknown];
  return result;
}

export const mysqlAdapter: DialectAdapter = {
  dbType: 'MySql',

  async insertReturningId(db, table, values) {
    const result = await native(db)
      .insert(nativeTable(table))
      .values(values as never)
      .$returningId();
    return Number((result[0] as { id?: unknown } | undefined)?.id);
  },

  async insertReturning(tx, table, values, fields, readBack) {
    if (values.length === 0) return [];
    await native(tx)
      .insert(nativeTable(table))
      .values(values as never);
    // Not $returningId(): it assumes the rows got consecutive ids (see DialectAdapter.insertReturning).
    const result = await native(tx)
      .select(fields as never)
      .from(nativeTable(table))
      .where(readBack)
      .for('update');
    return result as never;
  },

  async insertWithIds(tx, table, values) {
    // AUTO_INCREMENT moves past the largest explicit id on its own.
    if (values.length > 0)
      await native(tx)
        .insert(nativeTable(table))
        .values(values as never);
  },

  async insertIgnoringConflicts(db, table, _target, values) {
    if (values.length === 0) return 0;
    // ON DUPLICATE KEY UPDATE cannot report "skipped" under FOUND_ROWS, so IGNORE is used; callers insert
    // validated values only, so IGNORE's other effect (errors downgraded to warnings) does not apply.
    const result = await native(db)
      .insert(nativeTable(table))
      .ignore()
      .values(values as never);
    return mysqlAdapter.affectedRows(result);
  },

  affectedRows(result) {
    const header = Array.isArray(result) ? result[0] : result;
    return Number((header as { affectedRows?: number } | undefined)?.affectedRows ?? 0);
  },

  async page<R>(query: SelectQuery<R>, offset: number, limit: number) {
    const q = query as unknown as { limit(n: number): { offset(n: number): PromiseLike<R[]> } };
    return await q.limit(limit).offset(offset);
  },

  async executeStatement(db, statement, options = {}) {
    // mysql2 connects without multipleStatements, so the server refuses text holding several statements.
    const execute = (on: QueryDb, text: string) => native(on).execute(sql.raw(text));
    if (options.timeoutMs === undefined) return mysqlAdapter.affectedRows(await execute(db, statement));
    const timeoutMs = Math.max(1, Math.trunc(options.timeoutMs));
    // A transaction holds one connection: the timeout is set on it for this statement, then put back, so the
    // connection returns to the pool with the pool's own (connect.ts sets it on every new connection). Never run
    // again on a deadlock: the operator's statement may touch what a rollback does not undo (MyISAM and Aria
    // tables, files), and the job reports the failure for the operator to decide.
    return mysqlAdapter.transaction(
      db,
      async (tx) => {
        let restore: string;
        try {
          await execute(tx, 'set @svc_statement_timeout = @@SESSION.max_statement_time');
          await execute(tx, `set session max_statement_time = ${timeoutMs / 1000}`);
          restore = 'set session max_statement_time = @svc_statement_timeout';
        } catch {
          // MySQL has no max_statement_time; its max_execution_time (milliseconds) bounds SELECT statements only.
          await execute(tx, 'set @svc_statement_timeout = @@SESSION.max_execution_time');
          await execute(tx, `set session max_execution_time = ${timeoutMs}`);
          restore = 'set session max_execution_time = @svc_statement_timeout';
        }
        try {
          return mysqlAdapter.affectedRows(await execute(tx, statement));
        } finally {
          await execute(tx, restore);
        }
      },
      { retry: false },
    );
  },

  transaction(db, work, options) {
    return drizzleTransaction(db, work, options);
  },

  async lockSeed(tx) {
    // InnoDB has no transaction-scoped named lock (GET_LOCK belongs to the pooled session, not the
    // transaction), and a locking read of an empty table only takes gap locks that do not exclude each other.
    // So the lock is a row: upsert a sentinel key into the unique config index and delete it again at once.
    // The index record stays X-locked until this transaction ends. ON DUPLICATE KEY UPDATE makes a concurrent
    // seed queue for an X lock on it (a plain INSERT would take an S lock first, and two waiters upgrading
    // their S locks deadlock). The waiter holds nothing else yet, so no cycle forms. No one sees the row.
    await native(tx)
      .insert(sysConfig)
      .values({
        configKey: SEED_LOCK_KEY,
        configValue: '',
        name: 'first-start seed lock',
        createTime: new Date(),
      })
      .onDuplicateKeyUpdate({ set: { configValue: '' } });
    await native(tx).delete(sysConfig).where(eq(sysConfig.configKey, SEED_LOCK_KEY));
  },

  async lockRow(tx, table, id) {
    // An X lock on the primary-key record only (no gap lock, the key being unique). For a missing id InnoDB locks
    // the gap instead, under REPEATABLE READ, as any locking read does.
    const found = await native(tx)
      .select({ found: sql`1` })
      .from(nativeTable(table))
      .where(eq(table.id, id))
      .for('update');
    return found.length > 0;
  },

  equalsIgnoreCase(column: Column, value: string): SQL {
    // Explicit lower() rather than relying on a _ci collation the database may not have.
    return sql`lower(${column}) = lower(${value})`;
  },

  async listTables(db) {
    const result = await rows<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables
          where table_schema = database() and table_type = 'BASE TABLE'`,
    );
    return result.map((row) => row.name);
  },

  async migrate(db, target) {
    await migrate(native(db), { migrationsFolder: target.folder, migrationsTable: target.table });
  },
};

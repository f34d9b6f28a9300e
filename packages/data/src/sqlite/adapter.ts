/**
 * SQLite (better-sqlite3) answers to the dialect questions.
 *
 * Transactions: better-sqlite3 is synchronous and drizzle's native transaction cannot span an `await`, so the
 * adapter issues `BEGIN IMMEDIATE … COMMIT` itself. IMMEDIATE takes the database write lock at once: other
 * processes wait (busy timeout) instead of failing at commit, which also makes the first-start seed atomic
 * across processes. Inside this process, transactions on the same file are queued, because two connections
 * of one process waiting on each other's file lock would block the event loop, and statements issued outside a
 * transaction while one is open wait for it to end instead of running inside it (gate.ts).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { type Column, getTableName, type SQL, sql, type Table } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { DialectAdapter, QueryDb, SelectQuery } from '../dialect.js';
import { reportStatement } from '../query-observer.js';
import { insideTransaction, isTransactionHandle, retryingConflicts } from '../transactions.js';
import { gateOf, outsideTransaction, queued, transactionHandle } from './gate.js';

type Native = BetterSQLite3Database;
const native = (db: QueryDb) => db as unknown as Native;
const nativeTable = (table: Table) => table as unknown as SQLiteTable;

let savepointCounter = 0;

const exec = (db: QueryDb, statement: string) => native(db).run(sql.raw(statement));

/** SQLite's default limit of bound parameters in one statement (`SQLITE_MAX_VARIABLE_NUMBER`, since 3.32). */
const MAX_PARAMETERS = 32_766;

type Statement = BetterSqlite3.Statement<unknown[]>;

/** A prepared multi-row INSERT and its SQL text. */
interface AppendStatement {
  text: string;
  /** Parameters a run binds: its rows times its columns. */
  size: number;
  statement: Statement;
}

/**
 * Per connection, the append statements by table, columns and row count ({@link appendSize}: a full batch or a
 * power of two); the {@link APPEND_STATEMENTS_KEPT} last used are kept.
 */
const appendStatements = new WeakMap<object, Map<string, AppendStatement>>();
/** The sizes of two tables' appends (a full batch and eight powers of two each), the op log's and the login log's. */
const APPEND_STATEMENTS_KEPT = 20;

function appendStatement(
  db: QueryDb,
  table: Table,
  columns: readonly Column[],
  rowCount: number,
): AppendStatement {
  let cache = appendStatements.get(db);
  if (!cache) {
    cache = new Map();
    appendStatements.set(db, cache);
  }
  const names = columns.map((c) => quoted(c.name)).join(', ');
  const key = `${getTableName(table)}(${names})×${rowCount}`;
  let statement = cache.get(key);
  if (statement) {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, statement);
    return statement;
  }
  const row = `(${columns.map(() => '?').join(', ')})`;
  const text = `insert into ${quoted(getTableName(table))} (${names}) values ${Array(rowCount).fill(row).join(', ')}`;
  // Prepared on the connection itself, not through drizzle's session: a run of drizzle's prepared query copies
  // its parameters into a new array, asking of each whether it is a placeholder (2,600 of them for a full batch
  // of the op log, ~2,300 instructions a logged write under bench/oplog-instructions.mjs). The statement is
  // reported to the SQL log and the slow/failed-statement warnings by `reportStatement` instead.
  statement = {
    text,
    size: rowCount * columns.length,
    statement: (db as unknown as { $client: BetterSqlite3.Database }).$client.prepare(text) as Statement,
  };
  cache.set(key, statement);
  if (cache.size > APPEND_STATEMENTS_KEPT) cache.delete(cache.keys().next().value as string);
  return statement;
}

/** Rows of a full batch of the log writers (`OP_LOG_BATCH_SIZE` in @svc/logging): one statement under load. */
const FULL_APPEND_ROWS = 200;

/**
 * Rows of the next append statement for `left` rows: a full batch when there is one, else the largest power of two
 * that fits, so a quiet host's odd batch sizes (137 = 128 + 8 + 1) reuse at most nine compiled statements instead
 * of compiling one per size.
 */
export function appendSize(left: number, perStatement: number): number {
  const full = Math.min(FULL_APPEND_ROWS, perStatement);
  if (left >= full) return full;
  return 2 ** Math.floor(Math.log2(left));
}

/** An SQLite identifier in double quotes (a quote inside is doubled). */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A value better-sqlite3 binds: it refuses booleans and dates. */
const bindable = (value: unknown) =>
  typeof value === 'boolean' ? (value ? 1 : 0) : value instanceof Date ? value.getTime() : value;

/** The rows in statements of {@link appendSize} rows each, synchronously (no other statement between them). */
function appendChunks(
  db: QueryDb,
  table: Table,
  columns: readonly Column[],
  rows: readonly (readonly unknown[])[],
  perStatement: number,
): void {
  for (let start = 0, count = 0; start < rows.length; start += count) {
    count = appendSize(rows.length - start, perStatement);
    const statement = appendStatement(db, table, columns, count);
    // A new array for each run, not one kept with the statement: a kept array lives in the old generation, so
    // every value stored into it passed the write barrier into the remembered set, and it held the previous
    // batch's texts alive until the next batch overwrote them, copied by each young collection meanwhile.
    const params = new Array<unknown>(statement.size);
    let k = 0;
    for (let r = start; r < start + count; r++) {
      const row = rows[r] as readonly unknown[];
      for (let i = 0; i < columns.length; i++) params[k++] = bindable(row[i]);
    }
    // The parameters as separate arguments: better-sqlite3 reads those faster than one array of them (an array
    // took ~25 % longer to bind a full batch).
    reportStatement(db, statement.text, params, () => statement.statement.run(...params));
  }
}

export const sqliteAdapter: DialectAdapter = {
  dbType: 'Sqlite',

  async appendRows(db, table, columns, rows) {
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
    if (rows.length === 0) return;
    // Several statements (an odd batch size, or more rows than one statement takes) commit together or not at
    // all: a writer retries or spills a failed batch whole, so a partial one would be written twice.
    const whole = appendSize(rows.length, perStatement) === rows.length;
    const append = () => {
      if (whole) {
        appendChunks(db, table, columns, rows, perStatement);
        return;
      }
      exec(db, 'savepoint svc_append');
      try {
        appendChunks(db, table, columns, rows, perStatement);
      } catch (error) {
        exec(db, 'rollback to svc_append');
        exec(db, 'release svc_append');
        throw error;
      }
      exec(db, 'release svc_append');
    };
    // The log writers append on the connection's own handle: never into another request's open transaction,
    // whose rollback would take the batch with it after the writer counted it written.
    const gate = isTransactionHandle(db) ? undefined : gateOf(db);
    await (gate ? outsideTransaction(gate, append) : append());
  },

  async insertReturningId(db, table, values) {
    const rows = await native(db)
      .insert(nativeTable(table))
      .values(values as never)
      .returning({ id: (table as { id: Column }).id });
    return Number(rows[0]?.id);
  },

  async insertReturning(tx, table, rows, fields) {
    if (rows.length === 0) return [];
    const result = await native(tx)
      .insert(nativeTable(table))
      .values(rows as never)
      .returning(fields as never);
    return result as never;
  },

  async insertWithIds(tx, table, rows) {
    // AUTOINCREMENT records the highest id in sqlite_sequence, so later generated ids follow the explicit ones.
    if (rows.length > 0)
      await native(tx)
        .insert(nativeTable(table))
        .values(rows as never);
  },

  async insertIgnoringConflicts(db, table, target, rows) {
    if (rows.length === 0) return 0;
    const result = await native(db)
      .insert(nativeTable(table))
      .values(rows as never)
      .onConflictDoNothing({ target: target as never });
    return sqliteAdapter.affectedRows(result);
  },

  affectedRows(result) {
    return Number((result as { changes?: number | bigint }).changes ?? 0);
  },

  async executeStatement(db, statement) {
    // better-sqlite3 prepares one statement and refuses text holding more. Nothing interrupts a running
    // statement: it holds the process until it ends. drizzle's `run` of raw SQL is synchronous, so it waits for
    // an open transaction here rather than in the gated `execute`.
    const run = () => sqliteAdapter.affectedRows(native(db).run(sql.raw(statement)));
    const gate = isTransactionHandle(db) ? undefined : gateOf(db);
    return await (gate ? outsideTransaction(gate, run) : run());
  },

  async page<R>(query: SelectQuery<R>, offset: number, limit: number) {
    const q = query as unknown as { limit(n: number): { offset(n: number): PromiseLike<R[]> } };
    return await q.limit(limit).offset(offset);
  },

  async transaction(db, work, options) {
    if (isTransactionHandle(db)) {
      const name = `svc_sp_${++savepointCounter}`;
      exec(db, `savepoint ${name}`);
      try {
        const result = await work(db);
        exec(db, `release ${name}`);
        return result;
      } catch (error) {
        exec(db, `rollback to ${name}`);
        exec(db, `release ${name}`);
        throw error;
      }
    }
    const gate = gateOf(db);
    if (gate === undefined)
      throw new Error('SQLite transaction on a connection that openDatabase did not create');
    // BEGIN IMMEDIATE serialises writers, so SQLite itself reports no deadlock; a callback's conflict-shaped
    // failure runs again as on the server dialects, each run queued afresh behind the file's other transactions.
    const once = () =>
      queued(gate, async () => {
        // A handle distinct from `db` (same prototype chain, a session of its own) marks "inside this
        // transaction" for nesting and runs its statements at once, while other statements wait (gate.ts).
        const tx = transactionHandle(db);
        exec(db, 'begin immediate');
        gate.open = true;
        try {
          const result = await insideTransaction(tx, work);
          // On the transaction's handle: the connection's own statements wait while the gate is open.
          exec(tx, 'commit');
          return result;
        } catch (error) {
          exec(tx, 'rollback');
          throw error;
        } finally {
          gate.open = false;
        }
      });
    return retryingConflicts(once, options);
  },

  async lockSeed() {
    // BEGIN IMMEDIATE already holds the database's single write lock for the whole transaction.
  },

  async lockRow(tx, table, id) {
    // Nothing to lock: BEGIN IMMEDIATE holds the database's single write lock for the whole transaction (and this
    // process queues its own transactions), so no other transaction writes the row, or any row, until this one
    // ends. Only the answer is looked up.
    return (await native(tx).get(sql`select 1 from ${table} where ${table.id} = ${id}`)) !== undefined;
  },

  equalsIgnoreCase(column: Column, value: string): SQL {
    return sql`lower(${column}) = lower(${value})`;
  },

  async listTables(db) {
    const rows = await native(db).all<{ name: string }>(
      sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`,
    );
    return rows.map((row) => row.name);
  },

  async migrate(db, target) {
    migrate(native(db), { migrationsFolder: target.folder, migrationsTable: target.table });
  },
};

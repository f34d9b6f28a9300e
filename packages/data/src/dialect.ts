/**
 * The dialect seam. `QueryDb` is the slice of drizzle's query builder that is identical on all four dialects
 * (select/where/orderBy, insert/values, update/set/where, delete/where); repositories are written once against
 * it and never see a dialect name. Everything that differs (returned ids, affected-row counts, paging,
 * transactions, conflict handling, explicit ids, locks, catalog queries, migrations) is a method of the one
 * `DialectAdapter` object each dialect folder provides.
 */
import type { DbType } from '@svc/kernel';
import type { Column, GetColumnData, InferInsertModel, InferSelectModel, SQL, Table } from 'drizzle-orm';

/** A value that may appear in a select list or ORDER BY. */
export type SelectionField = Column | SQL | SQL.Aliased;

/** A named select list: `db.select({ total: count() })`. */
export type Selection = Record<string, SelectionField>;

/** The row a select list produces. */
export type SelectionRow<S extends Selection> = {
  [K in keyof S]: S[K] extends Column
    ? GetColumnData<S[K]>
    : S[K] extends SQL.Aliased<infer T>
      ? T
      : S[K] extends SQL<infer T>
        ? T
        : never;
};

/** A select that can still be filtered and ordered; paging goes through `DialectAdapter.page`. */
export interface SelectQuery<R> extends PromiseLike<R[]> {
  where(condition: SQL | undefined): SelectQuery<R>;
  orderBy(...terms: SelectionField[]): SelectQuery<R>;
}

/** `db.select()` before `.from(table)`: whole rows. */
export interface RowSelect {
  from<T extends Table>(table: T): SelectQuery<InferSelectModel<T>>;
}

/** `db.select(fields)` before `.from(table)`. */
export interface FieldSelect<R> {
  from(table: Table): SelectQuery<R>;
}

/** Values for `update(table).set(...)`: any subset of the insertable columns, or SQL expressions. */
export type UpdateSet<T extends Table> = { [K in keyof InferInsertModel<T>]?: InferInsertModel<T>[K] | SQL };

/** The dialect-independent query surface. The awaited result of writes is dialect-specific: pass it to
 * `DialectAdapter.affectedRows`. */
export interface QueryDb {
  select(): RowSelect;
  select<S extends Selection>(fields: S): FieldSelect<SelectionRow<S>>;
  insert<T extends Table>(
    table: T,
  ): { values(values: InferInsertModel<T> | InferInsertModel<T>[]): PromiseLike<unknown> };
  update<T extends Table>(
    table: T,
  ): { set(values: UpdateSet<T>): { where(condition: SQL | undefined): PromiseLike<unknown> } };
  delete<T extends Table>(
    table: T,
  ): PromiseLike<unknown> & { where(condition: SQL | undefined): PromiseLike<unknown> };
}

/** A table with a database-generated `id` column. */
export type IdTable = Table & { id: Column };

/** Where the committed migrations are and how the journal table is named. */
export interface MigrationTarget {
  /** Absolute path of `migrations/<dialect>`. */
  folder: string;
  /** Journal table name (`sys_schema_version`). */
  table: string;
}

/** Bounds of {@link DialectAdapter.executeStatement}. */
export interface StatementOptions {
  /** Server-side statement timeout in milliseconds. @default the connection's command timeout */
  timeoutMs?: number | undefined;
  /** Aborting it cancels the statement where the driver can (PostgreSQL). */
  signal?: AbortSignal | undefined;
}

/** Options of {@link DialectAdapter.transaction}. */
export interface TransactionOptions {
  /**
   * Run `work` again, up to three times in all (`TRANSACTION_ATTEMPTS`), when the database rolled the transaction
   * back as a deadlock's victim or a serialization failure (`isTransactionConflict`). Turn it off when `work` does
   * anything outside the database that must not happen twice. A nested call (a savepoint) never retries on its
   * own: the conflict undid the outermost transaction, which retries as a whole. So `retry: false` on a nested
   * call does not stop that: the outermost call decides, and a nested `work` with effects outside the database
   * needs its outermost transaction to say `retry: false` as well.
   * @default true
   */
  retry?: boolean | undefined;
}

/**
 * Answers every difference between the dialects. One instance per dialect; stateless except for SQLite's
 * in-process transaction queue.
 */
export interface DialectAdapter {
  readonly dbType: DbType;
  /** Inserts one row and returns the id the database generated for it. */
  insertReturningId<T extends IdTable>(db: QueryDb, table: T, values: InferInsertModel<T>): Promise<number>;
  /**
   * Inserts `rows` in one statement and answers `fields` of every inserted row, in no promised order: match them by a
   * column the rows do not share. PostgreSQL and SQLite answer by RETURNING; SQL Server by OUTPUT INSERTED INTO a
   * table variable (a bare OUTPUT is refused on a table with a trigger), so there every field must be a column of
   * `table`. MySQL has no RETURNING (MariaDB has since 10.5), and drizzle's `$returningId()` counts a multi-row
   * insert's ids up from LAST_INSERT_ID, which interleaved auto-increment (`innodb_autoinc_lock_mode` 2, MySQL 8's
   * default) and an `auto_increment_increment` above 1 (Galera) break; so it reads the rows back where `readBack`
   * holds, FOR UPDATE: a locking read sees the latest committed rows and this transaction's own, not an older
   * snapshot. `readBack` must hold for the inserted rows and for no other row any transaction can have committed or
   * written meanwhile (a unique key of the rows, say), and the call must run inside `transaction`. Keep the statement
   * within the parameter limits (SQL Server: 2,100 values and 1,000 rows).
   */
  insertReturning<T extends Table, S extends Selection>(
    tx: QueryDb,
    table: T,
    rows: InferInsertModel<T>[],
    fields: S,
    readBack: SQL,
  ): Promise<SelectionRow<S>[]>;
  /** Inserts rows whose ids are given explicitly (seed data) and moves the id generator past them. Must run
   * inside `transaction` (SQL Server switches IDENTITY_INSERT for the connection). */
  insertWithIds<T extends IdTable>(tx: QueryDb, table: T, rows: InferInsertModel<T>[]): Promise<void>;
  /** Inserts rows, silently skipping those that collide with an existing row on the unique `target` column.
   * Returns how many rows were inserted. */
  insertIgnoringConflicts<T extends Table>(
    db: QueryDb,
    table: T,
    target: Column,
    rows: InferInsertModel<T>[],
  ): Promise<number>;
  /**
   * Inserts many rows in one statement, cheaper than `insert(...).values(...)` (which builds each row's SQL and
   * looks up every value by name). Each row holds the values of `columns` in that order, instants as `Date`s or
   * epoch milliseconds. On PostgreSQL the rows travel as one JSON parameter read as jsonb (a 200-row batch of
   * the operation log cost the client ~16 CPU µs a row as 2,600 bound parameters, ~5 as one JSON text); on SQLite
   * statements of a full batch or a power of two rows, each prepared once, are bound positionally, inside one
   * savepoint when a batch takes more than one (all rows or none). Undefined on MySQL and SQL Server: use `insert`. PostgreSQL takes
   * texts, integers, booleans and instants with time zone, and refuses other column types.
   */
  appendRows?(
    db: QueryDb,
    table: Table,
    columns: readonly Column[],
    rows: readonly (readonly unknown[])[],
  ): Promise<void>;
  /** The number of rows an awaited `update(...)` or `delete(...)` touched. */
  affectedRows(result: unknown): number;
  /** Runs the select with OFFSET/LIMIT. The query must be ordered (SQL Server's OFFSET/FETCH requires it). */
  page<R>(query: SelectQuery<R>, offset: number, limit: number): Promise<R[]>;
  /**
   * Runs one statement an operator wrote (a SQL job) and answers the rows it affected. Text holding several
   * statements is refused by the driver or the server on PostgreSQL (the extended protocol takes one statement),
   * MySQL/MariaDB and SQLite (mysql2 and better-sqlite3 refuse several); SQL Server runs such text as one batch
   * (untested here: no SQL Server in the test setup). With `timeoutMs`, PostgreSQL runs the statement in a
   * transaction of its own, where VACUUM, CREATE INDEX CONCURRENTLY and the like cannot run: a job running them
   * keeps `timeoutSeconds` 0. `timeoutMs` stops the statement on the server and
   * is scoped to it: PostgreSQL `SET LOCAL statement_timeout` in its own transaction; MariaDB the connection's
   * `max_statement_time` (MySQL: `max_execution_time`, which bounds SELECT only), put back afterwards. Without
   * it the connection's command timeout applies. SQLite cannot interrupt a statement (it blocks the process until
   * it ends), nor does this method bound one on SQL Server. `signal` cancels the statement on PostgreSQL.
   */
  executeStatement(db: QueryDb, statement: string, options?: StatementOptions): Promise<number>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Called on a handle
   * `work` was given, it nests as a savepoint. The outermost transaction runs `work` again when the database
   * picked it as a deadlock's victim or refused it as not serializable (see {@link TransactionOptions.retry}), so
   * `work` must only work on the database, or opt out.
   */
  transaction<T>(db: QueryDb, work: (tx: QueryDb) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Inside a transaction: blocks every other first-start seed until this transaction ends, so the
   * "user table is empty" check and the inserts that follow it are atomic across processes. */
  lockSeed(tx: QueryDb): Promise<void>;
  /**
   * Inside a transaction: write-locks the row of `table` whose id is `id` until this transaction ends, without
   * updating it (an update that changes nothing writes a new row version on PostgreSQL; a locking read only marks
   * the row locked), and answers whether the
   * row exists (a missing row locks nothing). Another transaction that locks, updates or deletes the row waits
   * until then; plain reads do not. PostgreSQL `select … for no key update` (the lock an update of non-key columns
   * takes: rows referencing this one can still be inserted), MySQL/MariaDB `select … for update`, SQL Server
   * `with (updlock, rowlock)`; on SQLite `BEGIN IMMEDIATE` holds the whole database already, so there it only
   * looks the row up.
   */
  lockRow(tx: QueryDb, table: IdTable, id: number): Promise<boolean>;
  /** `lower(column) = lower(value)`, in the form the dialect can evaluate. */
  equalsIgnoreCase(column: Column, value: string): SQL;
  /** Names of the tables in the connected database (current schema). */
  listTables(db: QueryDb): Promise<string[]>;
  /** Applies the committed migrations that the journal does not list yet. */
  migrate(db: QueryDb, target: MigrationTarget): Promise<void>;
}

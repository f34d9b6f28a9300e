/**
 * PostgreSQL (postgres-js) answers to the dialect questions: RETURNING for new ids, `count` of the command
 * tag for affected rows, LIMIT/OFFSET paging, drizzle's transactions (savepoints when nested), ON CONFLICT DO
 * NOTHING, identity sequences moved with `setval` after explicit ids, and a transaction-scoped advisory lock
 * for the first-start seed (READ COMMITTED alone would let two empty-table checks both pass).
 */
import { type Column, eq, getTableName, type SQL, sql, type Table } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type { DialectAdapter, QueryDb, SelectQuery } from '../dialect.js';
import { storableText } from '../text.js';
import { drizzleTransaction } from '../transactions.js';

type Native = PostgresJsDatabase;
const native = (db: QueryDb) => db as unknown as Native;
const nativeTable = (table: Table) => table as unknown as PgTable;

/** Advisory-lock key of the first-start seed (any constant 64-bit value; "svc seed" in ASCII). */
export const SEED_LOCK_KEY = 0x7376_6320_7365_6564n;

/** Column types a JSON append casts to as they are (`->>` answers text). */
const CAST_AS_IS = new Set(['integer', 'bigint', 'smallint', 'boolean']);

/**
 * The `select` list of a JSON append: element `i` of each row array, cast to its column's type. Texts need no
 * cast (`->>` answers text, and assigning it to `varchar(n)` still refuses what is too long, as a bound
 * value would); an instant arrives as epoch milliseconds and becomes an exact `timestamptz`. Any other type is
 * refused when the statement is built (a `timestamp` without time zone would shift with the session's zone).
 */
function jsonRowSelect(columns: readonly Column[]): SQL {
  return sql.join(
    columns.map((column, i) => {
      const type = column.getSQLType();
      const field = sql.raw(`(r->>${i})`);
      if (/^timestamp(\s*\(\d+\))? with time zone$/.test(type))
        return sql`(timestamptz 'epoch' + ${field}::bigint * interval '1 millisecond')`;
      if (/^(varchar|text|char)\b/.test(type)) return field;
      if (CAST_AS_IS.has(type)) return sql`${field}::${sql.raw(type)}`;
      throw new Error(
        `appendRows: column ${column.name} has type ${type}, which a JSON append does not convert`,
      );
    }),
    sql`, `,
  );
}

/** A prepared JSON append: runs with the rows' JSON text as its one placeholder. */
interface AppendQuery {
  execute(values: { rows: string }): Promise<unknown>;
}

interface PreparingDb {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(query: { sql: string; params: unknown[] }, mode: string, name: string): AppendQuery;
  };
}

/** Per connection (or transaction), the append statements by table and columns. */
const appendQueries = new WeakMap<object, Map<string, AppendQuery>>();

/**
 * The JSON append of `columns` into `table`, made once per connection: through drizzle's session with a name,
 * so postgres.js prepares it once per connection (`db.execute` sends an unnamed statement, which costs a Describe
 * round trip and its handling for every batch) and the SQL log still sees it.
 */
function appendQuery(db: QueryDb, table: Table, columns: readonly Column[]): AppendQuery {
  let byTable = appendQueries.get(db);
  if (!byTable) {
    byTable = new Map();
    appendQueries.set(db, byTable);
  }
  const key = `${getTableName(table)}(${columns.map((c) => c.name).join(',')})`;
  let append = byTable.get(key);
  if (!append) {
    const target = db as unknown as PreparingDb;
    const names = sql.join(
      columns.map((c) => sql.identifier(c.name)),
      sql`, `,
    );
    // `::text::jsonb`: a parameter typed json would be serialised by the driver once more (a JSON string).
    // jsonb, parsed once, answers each `->>` directly; json re-scans the element's text for every column
    // (twice the server time of a 200-row batch).
    const query = target.dialect.sqlToQuery(
      sql`insert into ${table} (${names}) select ${jsonRowSelect(columns)} from jsonb_array_elements(${sql.placeholder('rows')}::text::jsonb) as r`,
    );
    append = target.session.prepareQuery(query, 'raw', `svc_append_${getTableName(table)}`);
    byTable.set(key, append);
  }
  return append;
}

/**
 * A row for the JSON text: storable texts ({@link storableText}: PostgreSQL refuses NUL in any text and, inside
 * JSON, a lone surrogate; one odd value, a `%00` in a logged path, would fail a batch, its retries and its spill
 * replays for ever), instants as epoch milliseconds (a `Date`'s JSON is slower and zoned). */
function storableRow(row: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(row.length);
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    out[i] =
      typeof value === 'string' ? storableText(value) : value instanceof Date ? value.getTime() : value;
  }
  return out;
}

/** The slice of postgres.js that {@link pgAdapter.executeStatement} drives itself. */
interface PgQuery extends PromiseLike<{ count?: number | null }> {
  cancel(): unknown;
}
interface PgClient {
  /** `simple: false`: the extended protocol even without parameters (postgres.js's own option, not typed). */
  unsafe(query: string, args: unknown[], options: { simple: boolean }): PgQuery;
  begin<T>(work: (tx: PgClient) => Promise<T>): Promise<T>;
}

async function rows<T>(db: QueryDb, query: SQL): Promise<T[]> {
  return (await native(db).execute(query)) as unknown as T[];
}

export const pgAdapter: DialectAdapter = {
  dbType: 'PostgreSQL',

  async insertReturningId(db, table, values) {
    const result = await native(db)
      .insert(nativeTable(table))
      .values(values as never)
      .returning({ id: table.id as never });
    return Number((result[0] as { id?: unknown } | undefined)?.id);
  },

  async insertReturning(tx, table, rows, fields) {
    if (rows.length === 0) return [];
    const result = await native(tx)
      .insert(nativeTable(table))
      .values(rows as never)
      .returning(fields as never);
    return result as never;
  },

  async insertWithIds(tx, table, values) {
    if (values.length === 0) return;
    await native(tx)
      .insert(nativeTable(table))
      .values(values as never);
    // Identity columns draw from a sequence that explicit ids do not advance. Never backwards: another session
    // may have drawn ids above the table's largest committed one (its insert not committed yet).
    const name = getTableName(table);
    await native(tx).execute(
      sql`select setval(pg_get_serial_sequence(${name}, 'id'), greatest((select max(${table.id}) from ${table}), coalesce(pg_sequence_last_value(pg_get_serial_sequence(${name}, 'id')::regclass), 0)))`,
    );
  },

  async insertIgnoringConflicts(db, table, target, values) {
    if (values.length === 0) return 0;
    const result = await native(db)
      .insert(nativeTable(table))
      .values(values as never)
      .onConflictDoNothing({ target: target as never });
    return pgAdapter.affectedRows(result);
  },

  async appendRows(db, table, columns, values) {
    if (values.length === 0) return;
    await appendQuery(db, table, columns).execute({ rows: JSON.stringify(values.map(storableRow)) });
  },

  affectedRows(result) {
    return Number((result as { count?: number }).count ?? 0);
  },

  async page<R>(query: SelectQuery<R>, offset: number, limit: number) {
    const q = query as unknown as { limit(n: number): { offset(n: number): PromiseLike<R[]> } };
    return await q.limit(limit).offset(offset);
  },

  async executeStatement(db, statement, options = {}) {
    const client = (db as unknown as { $client?: PgClient }).$client;
    if (!client) throw new Error('executeStatement takes the database handle, not a transaction');
    const { signal } = options;
    const run = async (on: PgClient) => {
      // The extended protocol takes exactly one statement: the server refuses text holding several ("cannot
      // insert multiple commands into a prepared statement"), which the simple protocol would run one by one.
      const query = on.unsafe(statement, [], { simple: false });
      const cancel = () => void query.cancel();
      if (signal?.aborted) cancel();
      else signal?.addEventListener('abort', cancel, { once: true });
      try {
        return Number((await query).count ?? 0);
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
    };
    if (options.timeoutMs === undefined) return run(client);
    const timeoutMs = Math.max(1, Math.trunc(options.timeoutMs));
    // SET LOCAL ends with this transaction: the pooled connection keeps its own statement timeout afterwards.
    return client.begin(async (tx) => {
      await tx.unsafe(`set local statement_timeout = ${timeoutMs}`, [], { simple: true });
      return run(tx);
    });
  },

  transaction(db, work, options) {
    return drizzleTransaction(db, work, options);
  },

  async lockSeed(tx) {
    await native(tx).execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY.toString()}::bigint)`);
  },

  async lockRow(tx, table, id) {
    // NO KEY UPDATE is the lock an UPDATE of non-key columns takes: it excludes other lockers and writers of the
    // row but not inserts of rows whose foreign key references it (FOR UPDATE would).
    const found = await native(tx)
      .select({ found: sql`1` })
      .from(nativeTable(table))
      .where(eq(table.id, id))
      .for('no key update');
    return found.length > 0;
  },

  equalsIgnoreCase(column: Column, value: string): SQL {
    return sql`lower(${column}) = lower(${value})`;
  },

  async listTables(db) {
    const result = await rows<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    return result.map((row) => row.name);
  },

  async migrate(db, target) {
    // The journal lives beside the tables (drizzle's default would be a separate "drizzle" schema).
    const [current] = await rows<{ schema: string }>(db, sql`select current_schema() as schema`);
    await migrate(native(db), {
      migrationsFolder: target.folder,
      migrationsTable: target.table,
      migrationsSchema: current?.schema ?? 'public',
    });
  },
};

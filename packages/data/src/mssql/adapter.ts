/**
 * SQL Server (node-mssql) answers to the dialect questions: OUTPUT INSERTED … INTO a table variable for new ids
 * and rows (`insert-output.ts`), `rowsAffected` for counts, OFFSET … FETCH paging (valid only after ORDER BY),
 * drizzle's transactions, IF NOT EXISTS for conflicts, IDENTITY_INSERT for explicit ids (the identity then
 * continues after the largest one), and a transaction-owned application lock (`sp_getapplock`) for the
 * first-start seed.
 *
 * No SQL Server runs in this project's CI: the generated SQL is checked by unit tests through `drizzle.mock()`.
 */
import { type Column, getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';
import type { MsSqlTable } from 'drizzle-orm/mssql-core';
import type { NodeMsSqlDatabase } from 'drizzle-orm/node-mssql';
import { migrate } from 'drizzle-orm/node-mssql/migrator';
import type { DialectAdapter, QueryDb, SelectQuery } from '../dialect.js';
import { drizzleTransaction } from '../transactions.js';
import { insertOutputInto } from './insert-output.js';

type Native = NodeMsSqlDatabase;
const native = (db: QueryDb) => db as unknown as Native;
const nativeTable = (table: Table) => table as unknown as MsSqlTable;

/** Application-lock resource name of the first-start seed. */
export const SEED_LOCK_RESOURCE = 'svc:first-start-seed';

function sumRowsAffected(result: unknown): number {
  const counts = (result as { rowsAffected?: number[] } | undefined)?.rowsAffected;
  return Array.isArray(counts) ? counts.reduce((a, b) => a + b, 0) : 0;
}

export const mssqlAdapter: DialectAdapter = {
  dbType: 'SqlServer',

  async insertReturningId(db, table, values) {
    const [row] = await insertOutputInto(db, table, [values], { id: table.id });
    return Number(row?.id);
  },

  async insertReturning(tx, table, rows, fields) {
    if (rows.length === 0) return [];
    return (await insertOutputInto(tx, table, rows, fields)) as never;
  },

  async insertWithIds(tx, table, values) {
    if (values.length === 0) return;
    const keys = Object.keys(getTableColumns(table)) as never[];
    await native(tx).execute(sql`set identity_insert ${table} on`);
    try {
      // Naming the columns (id included) is required while IDENTITY_INSERT is on.
      await native(tx)
        .insert(nativeTable(table), ...keys)
        .values(values as never);
    } finally {
      await native(tx).execute(sql`set identity_insert ${table} off`);
    }
  },

  async insertIgnoringConflicts(db, table, target, values) {
    let inserted = 0;
    const key = Object.entries(getTableColumns(table)).find(([, column]) => column === target)?.[0];
    if (key === undefined) throw new Error('insertIgnoringConflicts: target is not a column of the table');
    for (const row of values) {
      const value = (row as Record<string, unknown>)[key];
      const insert = native(db)
        .insert(nativeTable(table))
        .values(row as never)
        .getSQL();
      // UPDLOCK+HOLDLOCK keeps the range locked between the check and the insert.
      const result = await native(db).execute(
        sql`if not exists (select 1 from ${table} with (updlock, holdlock) where ${target} = ${value}) ${insert}`,
      );
      inserted += sumRowsAffected(result);
    }
    return inserted;
  },

  affectedRows(result) {
    return sumRowsAffected(result);
  },

  async page<R>(query: SelectQuery<R>, offset: number, limit: number) {
    const q = query as unknown as { offset(n: number): { fetch(n: number): PromiseLike<R[]> } };
    return await q.offset(offset).fetch(limit);
  },

  async executeStatement(db, statement) {
    // node-mssql sends the text as one batch, and SQL Server runs every statement in it; the connection's
    // request timeout is the only bound here.
    return sumRowsAffected(await native(db).execute(sql.raw(statement)));
  },

  transaction(db, work, options) {
    return drizzleTransaction(db, work, options);
  },

  async lockSeed(tx) {
    await native(tx).execute(
      sql`exec sp_getapplock @Resource = ${SEED_LOCK_RESOURCE}, @LockMode = 'Exclusive', @LockOwner = 'Transaction', @LockTimeout = 60000`,
    );
  },

  async lockRow(tx, table, id) {
    // UPDLOCK is held until the transaction ends (a plain read's shared lock is not, under READ COMMITTED), and
    // update locks exclude each other and writes, not plain reads; ROWLOCK keeps it to the key's row. No HOLDLOCK
    // (insertIgnoringConflicts has one): it would lock a missing id's key range too, which nothing here needs.
    const result = (await native(tx).execute(
      sql`select 1 as found from ${table} with (updlock, rowlock) where ${table.id} = ${id}`,
    )) as unknown as { recordset?: unknown[] };
    return (result.recordset?.length ?? 0) > 0;
  },

  equalsIgnoreCase(column: Column, value: string): SQL {
    return sql`lower(${column}) = lower(${value})`;
  },

  async listTables(db) {
    const result = (await native(db).execute(
      sql`select TABLE_NAME as name from INFORMATION_SCHEMA.TABLES
          where TABLE_TYPE = 'BASE TABLE' and TABLE_SCHEMA = SCHEMA_NAME()`,
    )) as unknown as { recordset?: Array<{ name: string }> };
    return (result.recordset ?? []).map((row) => row.name);
  },

  async migrate(db, target) {
    await migrate(native(db), {
      migrationsFolder: target.folder,
      migrationsTable: target.table,
      migrationsSchema: 'dbo',
    });
  },
};

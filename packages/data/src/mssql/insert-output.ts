/**
 * SQL Server's answer to "insert and tell me the new rows": one batch that declares a table variable, inserts with
 * `OUTPUT INSERTED.… INTO` it, and selects from it.
 *
 * A bare `OUTPUT INSERTED.…` (drizzle's `.output()`) is refused on a table with an enabled trigger (error 334,
 * "… cannot have any enabled triggers if the statement contains an OUTPUT clause without INTO clause"), and
 * `sys_user` has one (`sys_user_live_count`). `OUTPUT … INTO` a table variable is allowed there: the rules for an
 * INTO target (no enabled trigger, no foreign key, no CHECK constraint) hold for a variable declared in the batch.
 * Every table takes this form, so a trigger added to any table later breaks no insert.
 *
 * node-mssql sends the batch in one request (sp_executesql when it has parameters) and answers every result set
 * in `recordsets`; the rows are read from the last one, the select's. No SQL Server runs in this project's tests:
 * the batch's text is checked by unit tests (mssql.test.ts), not by a server.
 */
import { Column, getTableColumns, is, SQL, type SQLChunk, StringChunk, sql, type Table } from 'drizzle-orm';
import type { MsSqlTable } from 'drizzle-orm/mssql-core';
import type { NodeMsSqlDatabase } from 'drizzle-orm/node-mssql';
import type { QueryDb, Selection } from '../dialect.js';

/** The table variable the OUTPUT rows go into; declared by the batch, so it lives only as long as the batch. */
const OUTPUT_TABLE = sql.raw('@inserted');

/**
 * Inserts `rows` into `table` in one statement and answers `fields` of every inserted row, keyed as in `fields`,
 * in no promised order. Every field must be a column of `table`: the table variable takes each column's own SQL
 * type (`bigint` for ids, `nvarchar(n)` for text), which an expression does not declare.
 */
export async function insertOutputInto(
  db: QueryDb,
  table: Table,
  rows: readonly object[],
  fields: Selection,
): Promise<Record<string, unknown>[]> {
  const own = new Set<unknown>(Object.values(getTableColumns(table)));
  const outputs = Object.entries(fields).map(([key, column]) => {
    if (!is(column, Column) || !own.has(column))
      throw new Error(`insertOutputInto: field '${key}' is not a column of the table`);
    return { key, column, name: sql.identifier(key) };
  });
  const list = (each: (o: (typeof outputs)[number]) => SQLChunk) => sql.join(outputs.map(each), sql`, `);

  // The variable's columns are named by the field keys, so the select answers rows keyed as `fields` are, and two
  // keys naming one column stay two columns. NULL explicitly: a nullable column outputs NULLs.
  const variableColumns = list((o) => sql`${o.name} ${sql.raw(o.column.getSQLType())} null`);
  const declare = sql`declare ${OUTPUT_TABLE} table (${variableColumns})`;
  const inserted = list((o) => sql`inserted.${sql.identifier(o.column.name)}`);
  const output = sql`output ${inserted} into ${OUTPUT_TABLE} (${list((o) => o.name)})`;
  const insert = (db as unknown as NodeMsSqlDatabase)
    .insert(table as unknown as MsSqlTable)
    .values(rows as never)
    .getSQL();
  const select = sql`select ${list((o) => o.name)} from ${OUTPUT_TABLE}`;

  const result = (await (db as unknown as NodeMsSqlDatabase).execute(
    sql`${declare}; ${beforeValues(insert, output)}; ${select}`,
  )) as unknown as { recordsets?: Array<Array<Record<string, unknown>>> };
  const recordsets = result.recordsets ?? [];
  const answered = recordsets[recordsets.length - 1] ?? [];
  // Executed as raw text, the rows hold the driver's values (a bigint as a string): decode them as drizzle would.
  return answered.map((row) =>
    Object.fromEntries(
      outputs.map(({ key, column }) => {
        const value = row[key];
        return [key, value === null || value === undefined ? value : column.mapFromDriverValue(value)];
      }),
    ),
  );
}

/**
 * drizzle's `insert into t (…) values …` with `clause` put before `values`, where T-SQL takes OUTPUT. drizzle's
 * `.output()` writes no INTO, so the clause is placed in the insert's top-level chunks; a drizzle whose insert no
 * longer has that one ` values ` chunk fails here (and in the unit tests) rather than sending something else.
 */
function beforeValues(insert: SQL, clause: SQL): SQL {
  const chunks = insert.queryChunks;
  const isValues = (chunk: unknown) => is(chunk, StringChunk) && chunk.value === ' values ';
  const at = chunks.findIndex(isValues);
  if (at < 0 || chunks.findLastIndex(isValues) !== at)
    throw new Error('insertOutputInto: the insert has no single VALUES keyword to put OUTPUT before');
  return new SQL([...chunks.slice(0, at), sql` `, clause, ...chunks.slice(at)]);
}

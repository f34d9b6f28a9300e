import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as mssql from './mssql/schema.js';
import * as mysql from './mysql/schema.js';
import * as pg from './pg/schema.js';
import * as sqlite from './sqlite/schema.js';
import { tableNames } from './tables.js';

/** Table key → SQL name and, per column property, its SQL name, nullability and primary-key flag. */
function shape(schema: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(schema as Record<string, Table>).map(([key, table]) => [
      key,
      {
        name: getTableName(table),
        columns: Object.fromEntries(
          Object.entries(getTableColumns(table)).map(([prop, c]) => [prop, [c.name, c.notNull, c.primary]]),
        ),
      },
    ]),
  );
}

describe('dialect schemas', () => {
  const canonical = shape(sqlite);

  it.each([
    ['mysql', mysql],
    ['pg', pg],
    ['mssql', mssql],
  ])('%s declares the same tables, column names, nullability and keys as sqlite', (_name, schema) => {
    expect(shape(schema)).toEqual(canonical);
  });

  it('uses snake_case sys_ table and column names', () => {
    const names = tableNames(sqlite);
    expect(names).toHaveLength(28);
    for (const [, table] of Object.entries(canonical)) {
      expect(table.name).toMatch(/^sys_[a-z0-9_]+$/);
      for (const [sqlName] of Object.values(table.columns)) expect(sqlName).toMatch(/^[a-z0-9_]+$/);
    }
    expect(names).not.toContain('sys_schema_version');
  });
});

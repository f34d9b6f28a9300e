/**
 * The dialect conformance of the shop's tables: `conformance.ts` proves at compile time that every dialect's
 * rows equal SQLite's (the build fails otherwise); here the same tables agree at run time on what the proof
 * cannot see: SQL table names and column names.
 */
import { getTableConfig as mssqlConfig } from 'drizzle-orm/mssql-core';
import { getTableConfig as mysqlConfig } from 'drizzle-orm/mysql-core';
import { getTableConfig as pgConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { mssqlConforms, mysqlConforms, pgConforms } from './conformance.js';
import { shopTables } from './index.js';
import * as mssql from './mssql.js';
import * as mysql from './mysql.js';
import * as pg from './pg.js';
import * as sqlite from './sqlite.js';

type Shape = { name: string; columns: { name: string; notNull: boolean }[]; indexes: string[] };
const shape = (config: {
  name: string;
  columns: { name: string; notNull: boolean }[];
  indexes: { config: { name?: string | undefined } }[];
}): Shape => ({
  name: config.name,
  columns: config.columns
    .map((c) => ({ name: c.name, notNull: c.notNull }))
    .sort((a, b) => a.name.localeCompare(b.name)),
  indexes: config.indexes.map((i) => i.config.name ?? '').sort(),
});

describe('shop tables on four dialects', () => {
  it('pass the compile-time check of TablesConform', () => {
    expect([pgConforms, mysqlConforms, mssqlConforms]).toEqual([true, true, true]);
  });

  it.each([
    ['PostgreSQL', pgConfig],
    ['MySql', mysqlConfig],
    ['SqlServer', mssqlConfig],
  ] as const)('%s has the SQLite tables, columns, nullability and indexes', (dialect, config) => {
    for (const key of ['shopCategory', 'shopProduct'] as const) {
      // biome-ignore lint/suspicious/noExplicitAny: each dialect's getTableConfig takes its own table type.
      const table = (shopTables[dialect] as any)[key];
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      expect(shape((config as any)(table))).toEqual(shape(sqliteConfig(shopTables.Sqlite[key])));
    }
  });

  it('are what the module declares, with a migrations folder per dialect', () => {
    expect(shopTables).toMatchObject({ Sqlite: sqlite, PostgreSQL: pg, MySql: mysql, SqlServer: mssql });
    expect(Object.keys(shopTables.migrations).sort()).toEqual(['MySql', 'PostgreSQL', 'SqlServer', 'Sqlite']);
  });
});

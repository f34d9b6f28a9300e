/**
 * The dialect conformance of the passkey table: `conformance.ts` proves at compile time that every dialect's row
 * equals SQLite's; here the tables agree at run time on what the proof cannot see: SQL names, nullability and
 * indexes.
 */
import { getTableConfig as mssqlConfig } from 'drizzle-orm/mssql-core';
import { getTableConfig as mysqlConfig } from 'drizzle-orm/mysql-core';
import { getTableConfig as pgConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { mssqlConforms, mysqlConforms, pgConforms } from './conformance.js';
import { passkeyTables } from './index.js';

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

describe('passkey table on four dialects', () => {
  it('passes the compile-time check of TablesConform', () => {
    expect([pgConforms, mysqlConforms, mssqlConforms]).toEqual([true, true, true]);
  });

  it.each([
    ['PostgreSQL', pgConfig],
    ['MySql', mysqlConfig],
    ['SqlServer', mssqlConfig],
  ] as const)('%s has the SQLite table, columns, nullability and indexes', (dialect, config) => {
    // biome-ignore lint/suspicious/noExplicitAny: each dialect's getTableConfig takes its own table type.
    const table = (passkeyTables[dialect] as any).sysUserPasskey;
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    expect(shape((config as any)(table))).toEqual(shape(sqliteConfig(passkeyTables.Sqlite.sysUserPasskey)));
  });

  it('is sys_user_passkey with the columns of the specification, unique by credential id', () => {
    const config = sqliteConfig(passkeyTables.Sqlite.sysUserPasskey);
    expect(config.name).toBe('sys_user_passkey');
    expect(config.columns.map((c) => c.name).sort()).toEqual(
      [
        'aaguid',
        'backed_up',
        'create_time',
        'credential_id',
        'id',
        'last_used_time',
        'name',
        'public_key',
        'sign_count',
        'transports',
        'user_id',
      ].sort(),
    );
    expect(
      config.indexes.find((i) => i.config.name === 'sys_user_passkey_credential_uq')?.config.unique,
    ).toBe(true);
    expect(Object.keys(passkeyTables.migrations).sort()).toEqual([
      'MySql',
      'PostgreSQL',
      'SqlServer',
      'Sqlite',
    ]);
  });
});

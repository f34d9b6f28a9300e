/**
 * The tables as repositories see them. Every dialect's `schema.ts` exports the same keys with the same column
 * names and row types (`rows.conformance.ts`, `tables.test.ts`), so the SQLite declarations serve as the one
 * static type; at run time `Database.tables` holds the connected dialect's own table objects.
 */
import { getTableName, type Table } from 'drizzle-orm';
import type * as canonical from './sqlite/schema.js';

/** Table key (`sysUser`) → table. */
export type Tables = typeof canonical;

/** Key of a table in `Tables`. */
export type TableKey = keyof Tables;

/** SQL names of the given tables (`sys_user`, …), in declaration order. */
export function tableNames(tables: Tables): string[] {
  return Object.values(tables as Record<string, Table>).map((table) => getTableName(table));
}

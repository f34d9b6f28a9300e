/**
 * Compile-time proof that the passkey table is the same on every dialect: same keys, and each table's
 * `$inferSelect` row the same type as on SQLite. `conformance.test.ts` keeps the proof from being dropped.
 */
import type { TablesConform } from '@svc/data';
import type * as mssql from './mssql.js';
import type * as mysql from './mysql.js';
import type * as pg from './pg.js';
import type * as sqlite from './sqlite.js';

export const pgConforms: TablesConform<typeof sqlite, typeof pg> = true;
export const mysqlConforms: TablesConform<typeof sqlite, typeof mysql> = true;
export const mssqlConforms: TablesConform<typeof sqlite, typeof mssql> = true;

/**
 * Compile-time proof that the shop's tables are the same on every dialect: same keys, and each table's
 * `$inferSelect` row the same type as on SQLite. A column that drifts in one dialect (type, nullability, a missing
 * or extra property) fails the build; `conformance.test.ts` keeps the proof from being dropped unnoticed.
 */
import type { TablesConform } from '@svc/server/data';
import type * as mssql from './mssql.js';
import type * as mysql from './mysql.js';
import type * as pg from './pg.js';
import type * as sqlite from './sqlite.js';

export const pgConforms: TablesConform<typeof sqlite, typeof pg> = true;
export const mysqlConforms: TablesConform<typeof sqlite, typeof mysql> = true;
export const mssqlConforms: TablesConform<typeof sqlite, typeof mssql> = true;

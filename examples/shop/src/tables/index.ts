/**
 * The shop's tables per dialect as the module declares them (`ModuleTables`), with drizzle-kit's migrations
 * folder of each, and the row types derived from the SQLite set (the one the module's services are typed with).
 */
import type { ModuleTables } from '@svc/server/http';
import * as mssql from './mssql.js';
import * as mysql from './mysql.js';
import * as pg from './pg.js';
import * as sqlite from './sqlite.js';

export type ShopTables = typeof sqlite;
export type CategoryRow = ShopTables['shopCategory']['$inferSelect'];
export type ProductRow = ShopTables['shopProduct']['$inferSelect'];

const migrations = (dialect: string) => new URL(`../../migrations/${dialect}`, import.meta.url);

export const shopTables: ModuleTables<ShopTables> = {
  Sqlite: sqlite,
  PostgreSQL: pg,
  MySql: mysql,
  SqlServer: mssql,
  migrations: {
    Sqlite: migrations('sqlite'),
    PostgreSQL: migrations('pg'),
    MySql: migrations('mysql'),
    SqlServer: migrations('mssql'),
  },
};

/**
 * The passkey table per dialect, with drizzle-kit's migrations folder of each (`packages/modules/migrations/passkey`,
 * shipped with the package), and the row type derived from the SQLite set the service is typed with.
 */
import * as mssql from './mssql.js';
import * as mysql from './mysql.js';
import * as pg from './pg.js';
import * as sqlite from './sqlite.js';

export type PasskeyTables = typeof sqlite;
export type PasskeyRow = PasskeyTables['sysUserPasskey']['$inferSelect'];

const migrations = (dialect: string) => new URL(`../../../migrations/passkey/${dialect}`, import.meta.url);

/** The tables of module `Passkey` on the four dialects, in the shape of `ModuleTables` of @svc/http. */
export const passkeyTables = {
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

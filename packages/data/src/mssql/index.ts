/**
 * The SQL Server dialect: tables, adapter and connection, loaded by `openDatabase` only when `DbType` is SqlServer.
 */
import type { DialectModule } from '../dialect-module.js';
import type { Tables } from '../tables.js';
import { mssqlAdapter } from './adapter.js';
import { connect } from './connect.js';
import * as schema from './schema.js';

export { mssqlAdapter as adapter } from './adapter.js';
export * as schema from './schema.js';

export const dialect: DialectModule = {
  dbType: 'SqlServer',
  migrationsFolder: 'mssql',
  // Same keys, column names and row types as the canonical tables (rows.conformance.ts, tables.test.ts).
  tables: schema as unknown as Tables,
  adapter: mssqlAdapter,
  connect,
};

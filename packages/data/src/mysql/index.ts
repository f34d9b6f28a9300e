/**
 * The MySQL/MariaDB dialect: tables, adapter and connection, loaded by `openDatabase` only when `DbType` is MySql.
 */
import type { DialectModule } from '../dialect-module.js';
import type { Tables } from '../tables.js';
import { mysqlAdapter } from './adapter.js';
import { connect } from './connect.js';
import * as schema from './schema.js';

export { mysqlAdapter as adapter } from './adapter.js';
export * as schema from './schema.js';

export const dialect: DialectModule = {
  dbType: 'MySql',
  migrationsFolder: 'mysql',
  // Same keys, column names and row types as the canonical tables (rows.conformance.ts, tables.test.ts).
  tables: schema as unknown as Tables,
  adapter: mysqlAdapter,
  connect,
};

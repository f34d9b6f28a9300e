/**
 * The SQLite dialect: tables, adapter and connection, loaded by `openDatabase` only when `DbType` is Sqlite.
 */
import type { DialectModule } from '../dialect-module.js';
import { sqliteAdapter } from './adapter.js';
import { connect } from './connect.js';
import * as schema from './schema.js';

export { sqliteAdapter as adapter } from './adapter.js';
export * as schema from './schema.js';

export const dialect: DialectModule = {
  dbType: 'Sqlite',
  migrationsFolder: 'sqlite',
  tables: schema,
  adapter: sqliteAdapter,
  connect,
};

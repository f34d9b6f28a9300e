/**
 * The PostgreSQL dialect: tables, adapter and connection, loaded by `openDatabase` only when `DbType` is
 * PostgreSQL.
 */
import type { DialectModule } from '../dialect-module.js';
import type { Tables } from '../tables.js';
import { pgAdapter } from './adapter.js';
import { connect } from './connect.js';
import * as schema from './schema.js';

export { pgAdapter as adapter } from './adapter.js';
export * as schema from './schema.js';

export const dialect: DialectModule = {
  dbType: 'PostgreSQL',
  migrationsFolder: 'pg',
  // Same keys, column names and row types as the canonical tables (rows.conformance.ts, tables.test.ts).
  tables: schema as unknown as Tables,
  adapter: pgAdapter,
  connect,
};

/**
 * What each dialect folder's `index.ts` exports: its tables, its adapter and how to connect. `openDatabase`
 * loads the module for the configured dialect lazily, so only that dialect's driver is ever imported.
 */
import type { DbType } from '@svc/kernel';
import type { ConnectionConfig } from './connection-string.js';
import type { DialectAdapter, QueryDb } from './dialect.js';
import type { Tables } from './tables.js';

/** Receives every SQL statement drizzle runs (drizzle's `Logger` shape). */
export interface QueryLogger {
  logQuery(query: string, params: unknown[]): void;
}

/** Options every dialect's `connect` understands. */
export interface ConnectOptions {
  /** Connection pool size for server databases. @default 10 */
  poolSize: number;
  queryLogger: QueryLogger | undefined;
}

/** A live connection (pool) to one database. */
export interface Connection {
  readonly db: QueryDb;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DialectModule {
  readonly dbType: DbType;
  /** Folder under `migrations/` holding this dialect's committed migrations. */
  readonly migrationsFolder: string;
  readonly tables: Tables;
  readonly adapter: DialectAdapter;
  /** Opens the connection; may fail lazily, so callers `ping()` before use. */
  connect(config: ConnectionConfig, options: ConnectOptions): Promise<Connection>;
}

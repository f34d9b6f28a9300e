/**
 * What each dialect folder's `index.ts` exports: its tables, its adapter and how to connect. `openDatabase`
 * loads the module for the configured dialect lazily, so only that dialect's driver is ever imported.
 */
import type { DbType, Logger } from '@svc/kernel';
import type { ConnectionConfig } from './connection-string.js';
import type { DialectAdapter, QueryDb } from './dialect.js';
import type { Tables } from './tables.js';

/** Receives every SQL statement drizzle runs (drizzle's `Logger` shape). */
export interface QueryLogger {
  logQuery(query: string, params: unknown[]): void;
}

/**
 * Time on top of a statement's server budget before a client-side deadline gives up (PostgreSQL and MySQL): the
 * server's own timeout must answer first whenever the server runs, also on a loaded machine whose event loop lags.
 */
export const DEADLINE_GRACE_MS = 1_000;

/** Options every dialect's `connect` understands. */
export interface ConnectOptions {
  /** Connection pool size for server databases. @default 10 */
  poolSize: number;
  queryLogger: QueryLogger | undefined;
  /**
   * Longest wait for a connection (`Service:Database:AcquireTimeoutSeconds`): the TCP connect timeout of server
   * databases unless the connection string sets `Timeout`, and SQLite's busy timeout.
   */
  acquireTimeoutMs: number;
  /** Longest a statement may run (`Service:Database:CommandTimeoutSeconds`); the server cancels it after that. */
  commandTimeoutMs: number;
  /** Connection lifecycle messages (PostgreSQL: a pool closed because the server stopped answering). */
  logger?: Logger | undefined;
}

/** A live connection (pool) to one database. */
export interface Connection {
  readonly db: QueryDb;
  ping(): Promise<void>;
  /**
   * The readiness probe, where a trivial query does not tell whether the database would serve a write (SQLite:
   * `select 1` answers while another process holds the file's write lock). @default `ping`
   */
  probe?(): Promise<void>;
  close(): Promise<void>;
  /** What the driver tells about its pool right now (metrics, read at scrape time). */
  pool(): PoolStats;
}

/**
 * Connection-pool use as far as the driver tells: `max` always; `open`, `idle` and `waiting` (requests queued
 * for a connection) only where the driver exposes them (postgres.js does not).
 */
export interface PoolStats {
  max: number;
  open?: number;
  idle?: number;
  waiting?: number;
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

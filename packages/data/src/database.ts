/**
 * Opening a database: parse the connection string, load the configured dialect (only its driver is imported),
 * connect and ping, so that a wrong host or password fails here with one clear `DatabaseUnavailableError`
 * naming the dialect and target (never the password) instead of a driver stack on the first request.
 */

import type { DbType, Logger } from '@svc/kernel';
import { type ConnectionConfig, describeTarget, parseConnectionString } from './connection-string.js';
import type { DialectAdapter, QueryDb } from './dialect.js';
import type { DialectModule, PoolStats, QueryLogger } from './dialect-module.js';
import { loadWithDriver } from './drivers.js';
import { DatabaseUnavailableError, describeCause } from './errors.js';
import { createQueryInstrumentation, type QueryObserver } from './query-observer.js';
import type { Tables } from './tables.js';

export interface OpenDatabaseOptions {
  dbType: DbType;
  /** ADO.NET `Key=Value;` form or a URL (`postgres://`, `mysql://`, `mssql://`). */
  connectionString: string;
  /** SQLite paths resolve against it. */
  contentRoot: string;
  /** Connection lifecycle messages (category e.g. `Service.Database`). */
  logger?: Logger;
  /** Receives every statement before it runs. */
  queryLogger?: QueryLogger;
  /** Told when each statement starts and ends (SQL console log, slow and failed SQL). */
  queryObserver?: QueryObserver;
  /** Pool size for server databases. @default 10 */
  poolSize?: number;
  /** `Service:Database:AcquireTimeoutSeconds` in milliseconds. @default 3000 */
  acquireTimeoutMs?: number;
  /** `Service:Database:CommandTimeoutSeconds` in milliseconds. @default 10000 */
  commandTimeoutMs?: number;
}

/** Defaults of the bounded waits (contract §10). */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 3_000;
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

/** An open database of one dialect. Repositories take it; nothing above it needs to know the dialect. */
export interface Database {
  readonly dbType: DbType;
  /** Answers every dialect difference (ids, counts, paging, transactions, locks). */
  readonly adapter: DialectAdapter;
  readonly db: QueryDb;
  readonly tables: Tables;
  /** Where the database is, without credentials: `127.0.0.1:5432/svc` or the SQLite file. */
  readonly target: string;
  /** Folder under `migrations/` for this dialect. */
  readonly migrationsFolder: string;
  /** Resolves when a trivial query succeeds. */
  ping(): Promise<void>;
  /**
   * Readiness probe: resolves when the database would serve a write now, rejects when it cannot (on SQLite, also
   * while another process holds the file's write lock past the acquire timeout). The caller bounds how long it
   * waits (the readiness route: `AcquireTimeoutSeconds`).
   */
  probe(): Promise<void>;
  /** Closes the connection pool. Idempotent. */
  close(): Promise<void>;
  /** Pool use as far as the driver tells (for the metrics gauge, read at scrape time). */
  poolStats(): PoolStats;
}

/** Each dialect's module, loaded on selection with its driver (an optional peer; see drivers.ts). */
const DIALECTS: Record<DbType, () => Promise<DialectModule>> = {
  Sqlite: async () => (await load('Sqlite', () => import('./sqlite/index.js'))).dialect,
  PostgreSQL: async () => (await load('PostgreSQL', () => import('./pg/index.js'))).dialect,
  MySql: async () => (await load('MySql', () => import('./mysql/index.js'))).dialect,
  SqlServer: async () => (await load('SqlServer', () => import('./mssql/index.js'))).dialect,
};

function load<T>(dbType: DbType, importer: () => Promise<T>): Promise<T> {
  return loadWithDriver(dbType, 'Service:Database:DbType', importer);
}

/**
 * Opens and pings the database.
 * @throws InvalidConnectionStringError when the string cannot be parsed for `dbType`.
 * @throws DatabaseUnavailableError when the database cannot be reached or refuses the login.
 * @example const database = await openDatabase({ dbType: 'Sqlite', connectionString: 'Data Source=./data/svc.db', contentRoot: process.cwd() });
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const config = parseConnectionString(options.dbType, options.connectionString, options.contentRoot);
  const target = describeTarget(config);
  const dialect = await DIALECTS[options.dbType]();
  const connection = await connectAndPing(dialect, config, target, options);
  options.logger?.debug(`Opened the ${options.dbType} database at ${target}.`);
  let closed = false;
  return {
    dbType: options.dbType,
    adapter: dialect.adapter,
    db: connection.db,
    tables: dialect.tables,
    target,
    migrationsFolder: dialect.migrationsFolder,
    ping: () => connection.ping(),
    probe: () => (connection.probe ? connection.probe() : connection.ping()),
    poolStats: () => connection.pool(),
    async close() {
      if (closed) return;
      closed = true;
      await connection.close();
    },
  };
}

async function connectAndPing(
  dialect: DialectModule,
  config: ConnectionConfig,
  target: string,
  options: OpenDatabaseOptions,
) {
  const password = config.dbType === 'Sqlite' ? undefined : config.password;
  let connection: Awaited<ReturnType<DialectModule['connect']>> | undefined;
  const observed = options.queryObserver
    ? createQueryInstrumentation(options.queryObserver, options.queryLogger)
    : undefined;
  try {
    connection = await dialect.connect(config, {
      poolSize: options.poolSize ?? 10,
      acquireTimeoutMs: options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
      commandTimeoutMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      queryLogger: observed?.logger ?? options.queryLogger,
      logger: options.logger,
    });
    observed?.instrument(connection.db);
    await connection.ping();
    return connection;
  } catch (error) {
    await connection?.close().catch(() => {});
    throw new DatabaseUnavailableError(options.dbType, target, describeCause(error, password), {
      cause: error,
    });
  }
}

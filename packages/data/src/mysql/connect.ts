/**
 * Opens a MySQL/MariaDB pool with mysql2. `timezone: 'Z'` keeps any Date parameter drizzle does not convert
 * itself in UTC; schema timestamps are DATETIME written and read as UTC text by drizzle.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/mysql2';
import { createPool, type Pool, type PoolOptions } from 'mysql2';
import { type ConnectionConfig, describeTarget } from '../connection-string.js';
import type { QueryDb } from '../dialect.js';
import type { Connection, ConnectOptions, PoolStats } from '../dialect-module.js';
import { isDatabaseUnavailable } from '../errors.js';
import { withDeadlines } from './deadline.js';

export async function connect(config: ConnectionConfig, options: ConnectOptions): Promise<Connection> {
  if (config.dbType !== 'MySql') throw new Error(`MySQL connect called with ${config.dbType} settings`);
  const ssl: PoolOptions['ssl'] =
    config.sslMode === 'require'
      ? { rejectUnauthorized: false }
      : config.sslMode === 'verify-full'
        ? { rejectUnauthorized: true }
        : undefined;
  const pool = createPool({
    host: config.host,
    port: config.port ?? 3306,
    database: config.database,
    ...(config.user ? { user: config.user } : {}),
    ...(config.password ? { password: config.password } : {}),
    ...(ssl ? { ssl } : {}),
    connectionLimit: options.poolSize,
    connectTimeout:
      config.connectTimeoutSeconds !== undefined
        ? config.connectTimeoutSeconds * 1000
        : options.acquireTimeoutMs,
    timezone: 'Z',
    charset: 'utf8mb4',
    supportBigNumbers: true,
  });
  const drizzleDb = drizzle({
    // Every statement, a transaction's too, and the wait for a pooled connection are bounded (deadline.ts).
    client: withDeadlines(pool.promise(), {
      commandTimeoutMs: options.commandTimeoutMs,
      acquireTimeoutMs: options.acquireTimeoutMs,
      target: describeTarget(config),
      // The server stops a statement at the command timeout too, so a statement the client gave up on does not
      // keep running there (holding locks): MariaDB's max_statement_time (seconds, every statement), else MySQL's
      // max_execution_time (milliseconds, SELECT only). Sent on each new connection before its first statement.
      async initialize(query) {
        try {
          await query(`SET SESSION max_statement_time = ${options.commandTimeoutMs / 1000}`);
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw error;
          await query(`SET SESSION max_execution_time = ${options.commandTimeoutMs}`).catch(
            (second: unknown) => {
              if (isDatabaseUnavailable(second)) throw second;
            },
          );
        }
      },
    }),
    ...(options.queryLogger ? { logger: options.queryLogger } : {}),
  });
  return {
    db: drizzleDb as unknown as QueryDb,
    async ping() {
      await drizzleDb.execute(sql`select 1`);
    },
    async close() {
      await pool.promise().end();
    },
    pool: () => mysqlPoolStats(pool, options.poolSize),
  };
}

/** mysql2 keeps its counts on (undocumented, long-stable) fields of the pool; absent fields are left out. */
function mysqlPoolStats(pool: Pool, max: number): PoolStats {
  const inner = pool as unknown as {
    _allConnections?: { length: number };
    _freeConnections?: { length: number };
    _connectionQueue?: { length: number };
  };
  return {
    max,
    ...(inner._allConnections ? { open: inner._allConnections.length } : {}),
    ...(inner._freeConnections ? { idle: inner._freeConnections.length } : {}),
    ...(inner._connectionQueue ? { waiting: inner._connectionQueue.length } : {}),
  };
}

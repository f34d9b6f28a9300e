/**
 * Opens a PostgreSQL pool with postgres-js. Server notices (e.g. "already exists, skipping" from migrations)
 * are dropped rather than printed; the pool connects lazily, so `openDatabase` pings before use. Statements get a
 * client-side deadline on top of the server's statement timeout (deadline.ts): a frozen server enforces nothing.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { type ConnectionConfig, describeTarget, type SslMode } from '../connection-string.js';
import type { QueryDb } from '../dialect.js';
import type { Connection, ConnectOptions } from '../dialect-module.js';
import { socketPool, withDeadlines } from './deadline.js';

const SSL: Record<SslMode, false | 'prefer' | 'require' | 'verify-full'> = {
  disable: false,
  prefer: 'prefer',
  require: 'require',
  'verify-full': 'verify-full',
};

export async function connect(config: ConnectionConfig, options: ConnectOptions): Promise<Connection> {
  if (config.dbType !== 'PostgreSQL')
    throw new Error(`PostgreSQL connect called with ${config.dbType} settings`);
  const host = config.host;
  const port = config.port ?? 5432;
  const sockets = socketPool(host, port);
  const server = {
    host,
    port,
    database: config.database,
    ...(config.user ? { username: config.user } : {}),
    ...(config.password ? { password: config.password } : {}),
    ...(config.sslMode ? { ssl: SSL[config.sslMode] } : {}),
    // Bounded waits (contract §10): a connect gives up after the acquire timeout.
    connect_timeout: config.connectTimeoutSeconds ?? Math.ceil(options.acquireTimeoutMs / 1000),
    socket: sockets.open,
    onnotice: () => {},
  };
  const client = postgres({
    ...server,
    max: options.poolSize,
    // The server cancels a statement after the command timeout (SQLSTATE 57014); the client-side deadline
    // (withDeadlines below) covers a server that cannot.
    connection: { statement_timeout: options.commandTimeoutMs },
    // postgres-js waits before reconnecting a closed connection, growing to 20 s after repeated failures,
    // and queries queued on it wait as long (requests hung up to 26 s in a database stop). Capped at a
    // quarter of the acquire timeout, a query meets the outage within about that timeout and answers 503.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, options.acquireTimeoutMs / 4000),
  });
  const bounded = withDeadlines(
    client,
    {
      commandTimeoutMs: options.commandTimeoutMs,
      checkTimeoutMs: options.acquireTimeoutMs,
      target: describeTarget(config),
      logger: options.logger,
      // Its sockets are the pool's too: a check that hangs is destroyed with them.
      openCheck: () => postgres({ ...server, max: 1, fetch_types: false }),
    },
    sockets.destroyAll,
  );
  const drizzleDb = drizzle({
    client: bounded,
    ...(options.queryLogger ? { logger: options.queryLogger } : {}),
  });
  return {
    db: drizzleDb as unknown as QueryDb,
    async ping() {
      await drizzleDb.execute(sql`select 1`);
    },
    async close() {
      await client.end({ timeout: 5 });
    },
    // postgres.js keeps its connection queues private: only the configured size is known.
    pool: () => ({ max: options.poolSize }),
  };
}

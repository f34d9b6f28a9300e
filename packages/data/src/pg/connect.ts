/**
 * Opens a PostgreSQL pool with postgres-js. Server notices (e.g. "already exists, skipping" from migrations)
 * are dropped rather than printed; the pool connects lazily, so `openDatabase` pings before use.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { ConnectionConfig, SslMode } from '../connection-string.js';
import type { QueryDb } from '../dialect.js';
import type { Connection, ConnectOptions } from '../dialect-module.js';

/** Seconds to wait for a TCP connection when the connection string does not say. */
export const DEFAULT_CONNECT_TIMEOUT_SECONDS = 10;

const SSL: Record<SslMode, false | 'prefer' | 'require' | 'verify-full'> = {
  disable: false,
  prefer: 'prefer',
  require: 'require',
  'verify-full': 'verify-full',
};

export async function connect(config: ConnectionConfig, options: ConnectOptions): Promise<Connection> {
  if (config.dbType !== 'PostgreSQL')
    throw new Error(`PostgreSQL connect called with ${config.dbType} settings`);
  const client = postgres({
    host: config.host,
    port: config.port ?? 5432,
    database: config.database,
    ...(config.user ? { username: config.user } : {}),
    ...(config.password ? { password: config.password } : {}),
    ...(config.sslMode ? { ssl: SSL[config.sslMode] } : {}),
    max: options.poolSize,
    connect_timeout: config.connectTimeoutSeconds ?? DEFAULT_CONNECT_TIMEOUT_SECONDS,
    onnotice: () => {},
  });
  const drizzleDb = drizzle({ client, ...(options.queryLogger ? { logger: options.queryLogger } : {}) });
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

/**
 * Opens a SQL Server pool with node-mssql (tedious). `useUTC` (the driver default, set explicitly here) makes
 * `datetime2` values UTC on the way in and out.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-mssql';
import mssql from 'mssql';
import type { ConnectionConfig } from '../connection-string.js';
import type { QueryDb } from '../dialect.js';
import type { Connection, ConnectOptions } from '../dialect-module.js';

export async function connect(config: ConnectionConfig, options: ConnectOptions): Promise<Connection> {
  if (config.dbType !== 'SqlServer')
    throw new Error(`SQL Server connect called with ${config.dbType} settings`);
  const pool = new mssql.ConnectionPool({
    server: config.host,
    ...(config.port !== undefined ? { port: config.port } : {}),
    database: config.database,
    ...(config.user ? { user: config.user } : {}),
    ...(config.password ? { password: config.password } : {}),
    connectionTimeout:
      config.connectTimeoutSeconds !== undefined
        ? config.connectTimeoutSeconds * 1000
        : options.acquireTimeoutMs,
    requestTimeout: options.commandTimeoutMs,
    pool: { max: options.poolSize, min: 0, acquireTimeoutMillis: options.acquireTimeoutMs },
    options: {
      useUTC: true,
      encrypt: config.encrypt ?? config.sslMode !== 'disable',
      trustServerCertificate: config.trustServerCertificate ?? false,
      ...(config.instanceName ? { instanceName: config.instanceName } : {}),
    },
  });
  await pool.connect();
  const drizzleDb = drizzle({
    client: pool,
    ...(options.queryLogger ? { logger: options.queryLogger } : {}),
  });
  return {
    db: drizzleDb as unknown as QueryDb,
    async ping() {
      await drizzleDb.execute(sql`select 1`);
    },
    async close() {
      await pool.close();
    },
    pool: () => ({ max: options.poolSize, open: pool.size, idle: pool.available, waiting: pool.pending }),
  };
}

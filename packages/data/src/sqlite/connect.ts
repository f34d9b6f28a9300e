/**
 * Opens an SQLite file with better-sqlite3: creates the parent folder, then sets the pragmas a small server
 * database wants. WAL lets readers proceed while one writer commits; `foreign_keys` is on for any future
 * constraint; the busy timeout (`AcquireTimeoutSeconds`) makes a second process wait for the write lock instead of
 * failing at once, and no longer than that (SQLITE_BUSY then answers 503 with 50003).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { ConnectionConfig } from '../connection-string.js';
import type { QueryDb } from '../dialect.js';
import type { Connection, ConnectOptions } from '../dialect-module.js';
import { gateStatements, registerGate } from './gate.js';
import { useKeptStatements } from './statements.js';

export async function connect(config: ConnectionConfig, options: ConnectOptions): Promise<Connection> {
  if (config.dbType !== 'Sqlite') throw new Error(`SQLite connect called with ${config.dbType} settings`);
  const memory = config.filename === ':memory:';
  if (!memory) mkdirSync(dirname(config.filename), { recursive: true });
  const client = new BetterSqlite3(config.filename, { timeout: options.acquireTimeoutMs });
  try {
    if (!memory) client.pragma('journal_mode = WAL');
    client.pragma('synchronous = NORMAL');
    client.pragma('foreign_keys = ON');
  } catch (error) {
    client.close();
    throw error;
  }
  const drizzleDb = drizzle({ client, ...(options.queryLogger ? { logger: options.queryLogger } : {}) });
  useKeptStatements(drizzleDb, client);
  const db = drizzleDb as unknown as QueryDb;
  // Statements outside a transaction wait while one of this process's transactions holds the file (gate.ts).
  gateStatements(drizzleDb, registerGate(db, config.filename, options.acquireTimeoutMs, !memory));
  return {
    db,
    async ping() {
      // Awaited: while a transaction is open, the gate answers a promise (gate.ts).
      await drizzleDb.get(sql`select 1`);
    },
    async close() {
      if (client.open) client.close();
    },
    // One synchronous connection: never waited for, idle whenever a scrape can run.
    pool: () => ({ max: 1, open: client.open ? 1 : 0, idle: client.open ? 1 : 0, waiting: 0 }),
  };
}

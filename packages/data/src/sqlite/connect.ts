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
import { DatabaseUnavailableError } from '../errors.js';
import { type FileGate, gateStatements, outsideTransaction, registerGate } from './gate.js';
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
  const gate = registerGate(db, config.filename, options.acquireTimeoutMs, !memory);
  gateStatements(drizzleDb, gate);
  return {
    db,
    async ping() {
      // Awaited: while a transaction is open, the gate answers a promise (gate.ts).
      await drizzleDb.get(sql`select 1`);
    },
    probe: () => probeWriteLock(client, gate, options.acquireTimeoutMs),
    async close() {
      if (client.open) client.close();
    },
    // One synchronous connection: never waited for, idle whenever a scrape can run.
    pool: () => ({ max: 1, open: client.open ? 1 : 0, idle: client.open ? 1 : 0, waiting: 0 }),
  };
}

/** How long the probe waits between two tries for the write lock (it never blocks the event loop meanwhile). */
const PROBE_RETRY_MS = 25;

/**
 * Readiness on SQLite: `select 1` answers in WAL mode even while another process holds the write lock, when every
 * write waits its busy timeout and answers 503. So the probe takes the lock itself (`BEGIN IMMEDIATE`, then
 * `ROLLBACK`: nothing is written) with the busy timeout at 0 for that one try, so the event loop is never held,
 * and tries again every few milliseconds until the lock is free or `timeoutMs` has passed (then
 * `DatabaseUnavailableError`). Each try is one synchronous step in this process's turn on the file (gate.ts): it
 * never runs inside one of its transactions, and never holds a real write up longer than that step.
 */
async function probeWriteLock(
  client: BetterSqlite3.Database,
  gate: FileGate,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy = await outsideTransaction(gate, () => tryWriteLock(client));
    if (busy === undefined) return;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new DatabaseUnavailableError(
        'Sqlite',
        gate.target,
        `the write lock was not free within ${timeoutMs} ms (another connection holds the file)`,
        { cause: busy },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(PROBE_RETRY_MS, left)));
  }
}

/** One try for the write lock without waiting: undefined when it was free, else the driver's SQLITE_BUSY error. */
function tryWriteLock(client: BetterSqlite3.Database): Error | undefined {
  const busyTimeout = client.pragma('busy_timeout', { simple: true }) as number;
  client.pragma('busy_timeout = 0');
  try {
    client.exec('BEGIN IMMEDIATE');
    client.exec('ROLLBACK');
    return undefined;
  } catch (error) {
    if (/^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown }).code))) return error as Error;
    throw error;
  } finally {
    client.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

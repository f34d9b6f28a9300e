/**
 * Renames a table through the driver's own client (better-sqlite3, postgres-js, mysql2): a test makes the
 * statements on it fail on purpose, then renames it back.
 */
import type { Database } from '@svc/data';

interface DriverClient {
  exec(sql: string): unknown;
  unsafe(sql: string): Promise<unknown>;
  query(sql: string): Promise<unknown>;
}

/** @example await renameTable(database, 'sys_notice_read', 'sys_notice_read_away'); */
export async function renameTable(database: Database, from: string, to: string): Promise<void> {
  const client = (database.db as unknown as { $client: DriverClient }).$client;
  if (database.dbType === 'Sqlite') client.exec(`ALTER TABLE ${from} RENAME TO ${to}`);
  else if (database.dbType === 'PostgreSQL') await client.unsafe(`ALTER TABLE ${from} RENAME TO ${to}`);
  else if (database.dbType === 'MySql') await client.query(`RENAME TABLE ${from} TO ${to}`);
  else throw new Error(`no DDL helper for ${database.dbType}`);
}

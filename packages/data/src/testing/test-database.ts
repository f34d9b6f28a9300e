/**
 * Fresh databases for tests: every call creates a new, empty database (an SQLite file in a temp folder, or
 * `CREATE DATABASE svc_t_<random>` on the PostgreSQL / MariaDB / SQL Server given by environment variables)
 * and returns its connection string plus `drop()`. Tests therefore never share state and may run in parallel.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DbType } from '@svc/kernel';
import { type Database, openDatabase } from '../database.js';
import { migrateDatabase } from '../migrate.js';
import { adminDriver } from './admin-drivers.js';

/** Default server URLs (override with `SVC_TEST_PG_URL`, `SVC_TEST_MYSQL_URL`, `SVC_TEST_MSSQL_URL`). */
export const TEST_SERVER_URLS = {
  PostgreSQL: { env: 'SVC_TEST_PG_URL', fallback: 'postgres://postgres@127.0.0.1:5432/test' },
  MySql: { env: 'SVC_TEST_MYSQL_URL', fallback: 'mysql://root@127.0.0.1:3306/test' },
  SqlServer: { env: 'SVC_TEST_MSSQL_URL', fallback: undefined },
} as const;

const ALL_DIALECTS: readonly DbType[] = ['Sqlite', 'PostgreSQL', 'MySql', 'SqlServer'];

/** A fresh, empty test database. */
export interface TestDatabase {
  readonly dbType: DbType;
  /** Pass to `openDatabase` (any `contentRoot`: SQLite paths are absolute). */
  readonly connectionString: string;
  /** Deletes the database (or the SQLite folder). Close every connection to it first. */
  drop(): Promise<void>;
}

/**
 * Creates a new, empty database of `dbType`.
 * @example const t = await createTestDatabase('PostgreSQL'); try { … } finally { await t.drop(); }
 */
export async function createTestDatabase(dbType: DbType): Promise<TestDatabase> {
  if (dbType === 'Sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
    return {
      dbType,
      connectionString: `Data Source=${join(dir, 'svc.db')}`,
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const { env, fallback } = TEST_SERVER_URLS[dbType];
  const serverUrl = process.env[env] || fallback;
  if (!serverUrl) throw new Error(`Set ${env} to run ${dbType} tests`);
  const name = `svc_t_${randomBytes(6).toString('hex')}`;
  const admin = adminDriver(dbType, serverUrl);
  await admin.createDatabase(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    dbType,
    connectionString: url.toString(),
    drop: () => admin.dropDatabase(name),
  };
}

/** A migrated, open database on a fresh test database; `cleanup()` closes and drops it. */
export interface OpenTestDatabase {
  readonly database: Database;
  readonly connectionString: string;
  cleanup(): Promise<void>;
}

/**
 * `createTestDatabase` + `openDatabase` + (unless `migrate: false`) `migrateDatabase`.
 * @example const { database, cleanup } = await openTestDatabase('Sqlite'); afterAll(cleanup);
 */
export async function openTestDatabase(
  dbType: DbType,
  options: { migrate?: boolean } = {},
): Promise<OpenTestDatabase> {
  const created = await createTestDatabase(dbType);
  let database: Database | undefined;
  try {
    database = await openDatabase({
      dbType,
      connectionString: created.connectionString,
      contentRoot: tmpdir(),
    });
    if (options.migrate !== false) await migrateDatabase(database);
  } catch (error) {
    await database?.close();
    await created.drop();
    throw error;
  }
  const opened = database;
  return {
    database: opened,
    connectionString: created.connectionString,
    async cleanup() {
      await opened.close();
      await created.drop();
    },
  };
}

/**
 * The dialects the test run covers: `SVC_TEST_DIALECTS` (comma-separated, case-insensitive), default
 * `Sqlite,PostgreSQL,MySql`.
 */
export function testDialects(): DbType[] {
  const raw = process.env.SVC_TEST_DIALECTS?.trim() || 'Sqlite,PostgreSQL,MySql';
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = ALL_DIALECTS.find((d) => d.toLowerCase() === part.toLowerCase());
      if (!match)
        throw new Error(`SVC_TEST_DIALECTS: unknown dialect "${part}" (use ${ALL_DIALECTS.join(', ')})`);
      return match;
    });
}

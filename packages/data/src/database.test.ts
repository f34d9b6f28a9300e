import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DbType } from '@svc/kernel';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { DatabaseUnavailableError, InvalidConnectionStringError } from './errors.js';
import { findMissingTables, migrateDatabase } from './migrate.js';
import { createRepositories } from './repositories/index.js';
import { runSeed } from './seed/run-seed.js';

const root = mkdtempSync(join(tmpdir(), 'svc-open-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('openDatabase: SQLite', () => {
  it('migrates and seeds an in-memory database', async () => {
    const database = await openDatabase({
      dbType: 'Sqlite',
      connectionString: 'Data Source=:memory:',
      contentRoot: root,
    });
    try {
      expect(await findMissingTables(database)).toHaveLength(28);
      await migrateDatabase(database);
      expect(await findMissingTables(database)).toEqual([]);
      await expect(
        runSeed(database, { adminAccount: 'superAdmin', adminPasswordHash: 'h', configs: [] }),
      ).resolves.toEqual({
        created: true,
      });
      expect((await createRepositories(database).users.findByAccount('SUPERADMIN'))?.isSuperAdmin).toBe(true);
    } finally {
      await database.close();
      await database.close();
    }
  });

  it('resolves a relative file against the content root, creates its folder and enables WAL', async () => {
    const database = await openDatabase({
      dbType: 'Sqlite',
      connectionString: 'Data Source=./data/svc.db',
      contentRoot: root,
    });
    try {
      expect(database.target).toBe(join(root, 'data', 'svc.db'));
      expect(existsSync(join(root, 'data', 'svc.db'))).toBe(true);
      const native = database.db as unknown as { get<T>(q: unknown): T };
      expect(native.get<{ journal_mode: string }>(sql`pragma journal_mode`).journal_mode).toBe('wal');
      expect(native.get<{ foreign_keys: number }>(sql`pragma foreign_keys`).foreign_keys).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('reports a file that cannot be created as DatabaseUnavailableError', async () => {
    writeFileSync(join(root, 'blocker'), '');
    const error = await openDatabase({
      dbType: 'Sqlite',
      connectionString: 'Data Source=blocker/sub/svc.db',
      contentRoot: root,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as Error).message).toContain('Sqlite');
    expect((error as Error).message).toContain(join(root, 'blocker/sub/svc.db'));
  });
});

describe('openDatabase: unreachable servers', () => {
  it.each<[DbType, string]>([
    ['PostgreSQL', 'Host=127.0.0.1;Port=1;Database=svc;Username=app;Password=topsecret;Timeout=3'],
    ['MySql', 'Server=127.0.0.1;Port=1;Database=svc;Uid=app;Pwd=topsecret;Connect Timeout=3'],
    ['SqlServer', 'Server=127.0.0.1,1;Database=svc;User Id=sa;Password=topsecret;Connect Timeout=3'],
  ])(
    '%s: a clear DatabaseUnavailableError naming dialect and host, never the password',
    async (dbType, cs) => {
      const error = await openDatabase({ dbType, connectionString: cs, contentRoot: root }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      const message = (error as Error).message;
      expect(message).toContain(`Cannot open the ${dbType} database at 127.0.0.1:1/svc`);
      expect(message).not.toContain('topsecret');
      expect((error as DatabaseUnavailableError).dbType).toBe(dbType);
    },
  );

  it('rejects a malformed connection string before connecting', async () => {
    await expect(
      openDatabase({ dbType: 'PostgreSQL', connectionString: 'Host=db;Password=x', contentRoot: root }),
    ).rejects.toBeInstanceOf(InvalidConnectionStringError);
  });
});

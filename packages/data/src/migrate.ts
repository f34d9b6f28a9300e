/**
 * Schema management: apply the committed, versioned migrations of the connected dialect (journal table
 * `sys_schema_version`), and list expected tables that are missing, which is what the Production gate checks
 * when code-first creation is off there.
 */
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';
import { tableNames } from './tables.js';

/** Journal table of applied migrations (contract §2). */
export const MIGRATIONS_TABLE = 'sys_schema_version';

/** Absolute path of the committed migrations of one dialect folder (`sqlite`, `pg`, `mysql`, `mssql`). Works
 * from `src/` and `dist/` alike: both sit next to `migrations/` in the package. */
export function migrationsPath(folder: string): string {
  return fileURLToPath(new URL(`../migrations/${folder}`, import.meta.url));
}

/** Applies every committed migration the journal does not list yet. Safe to run at every start. */
export async function migrateDatabase(database: Database): Promise<void> {
  await database.adapter.migrate(database.db, {
    folder: migrationsPath(database.migrationsFolder),
    table: MIGRATIONS_TABLE,
  });
}

/** SQL names of the tables this package expects, absent from the connected database. Empty when the schema
 * is complete. The migration journal itself is not listed: a DBA may have applied the SQL files by hand. */
export async function findMissingTables(database: Database): Promise<string[]> {
  const present = new Set((await database.adapter.listTables(database.db)).map((name) => name.toLowerCase()));
  return tableNames(database.tables).filter((name) => !present.has(name.toLowerCase()));
}

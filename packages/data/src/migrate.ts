/**
 * Schema management: apply the committed, versioned migrations of the connected dialect (journal table
 * `sys_schema_version`), and list expected tables that are missing, which is what the Production gate checks
 * when code-first creation is off there.
 */
import { fileURLToPath } from 'node:url';
import { getTableName, type Table } from 'drizzle-orm';
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

/** A module's own tables: their migrations folder for the connected dialect and the journal they are listed in. */
export interface ModuleMigrationTarget {
  /** drizzle-kit's output folder for this dialect (a path, or a `file:` URL such as `new URL('./migrations/sqlite', import.meta.url)`). */
  folder: string | URL;
  /** Journal table of the module's migrations, apart from the kernel's. */
  table: string;
}

/** Applies a module's migrations the journal does not list yet (its own folder and journal). */
export async function migrateModuleTables(database: Database, target: ModuleMigrationTarget): Promise<void> {
  const folder = target.folder instanceof URL ? fileURLToPath(target.folder) : target.folder;
  await database.adapter.migrate(database.db, { folder, table: target.table });
}

/** SQL names of the given tables (a module's) that the connected database lacks. */
export async function findMissingTablesOf(
  database: Database,
  tables: Readonly<Record<string, unknown>>,
): Promise<string[]> {
  const present = new Set((await database.adapter.listTables(database.db)).map((name) => name.toLowerCase()));
  return Object.values(tables)
    .map((table) => getTableName(table as Table))
    .filter((name) => !present.has(name.toLowerCase()));
}

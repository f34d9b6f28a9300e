/**
 * Opens the configured database and makes it ready: applies migrations when code-first creation is allowed
 * (on by default, never in Production unless `EnableCodeFirstInProduction`), otherwise checks that every table
 * exists and stops naming the missing ones; then runs the first-start seed and prints the generated
 * super-admin password once, in the run that created the account.
 */
import {
  createRepositories,
  type Database,
  defaultSeedMenus,
  ensureSeedMenus,
  ensureSystemModule,
  findMissingTables,
  migrateDatabase,
  openDatabase,
  type QueryObserver,
  type Repositories,
  runSeed,
  type SeedMenu,
} from '@svc/data';
import type { Configuration, Logger } from '@svc/kernel';
import { generateSeedPassword, hashPassword, runtimeSeedRows } from '@svc/kernel';
import { prepareModuleTables } from '../module/compose.js';
import type { AnyModule } from '../module/define.js';
import { seedPasswordBanner } from './banner.js';
import { asStartupError, StartupError } from './startup-error.js';

export interface OpenedDatabase {
  database: Database;
  repos: Repositories;
  /** True when this start brought the seeded menu tree up to this release (permission caches must reload). */
  menusUpgraded: boolean;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The default connection string of the embedded database. */
export const defaultConnectionString = (name: string): string => `Data Source=./data/${name}.db`;

export interface SeedOptions {
  /** Menus added to the default tree (consumer permission routes). */
  extraMenus: readonly SeedMenu[];
  now: () => Date;
  /** The enabled modules: those with tables of their own get them migrated (or checked) after the kernel's. */
  modules?: readonly AnyModule[];
}

export async function prepareDatabase(
  config: Configuration,
  logger: Logger,
  seed: SeedOptions,
  /** Told about every statement (SQL console log, slow and failed SQL). */
  queryObserver?: QueryObserver,
): Promise<OpenedDatabase> {
  const { service, environment } = config;
  const log = logger.child('Service.Startup');
  let database: Database;
  try {
    database = await openDatabase({
      dbType: service.Database.DbType,
      connectionString: service.Database.ConnectionString ?? defaultConnectionString(service.Name),
      contentRoot: environment.contentRoot,
      poolSize: service.Database.PoolSize,
      acquireTimeoutMs: service.Database.AcquireTimeoutSeconds * 1000,
      commandTimeoutMs: service.Database.CommandTimeoutSeconds * 1000,
      ...(queryObserver ? { queryObserver } : {}),
    });
  } catch (error) {
    throw asStartupError(error, 'Service:Database');
  }
  try {
    const codeFirst =
      service.Database.EnableCodeFirst &&
      (!environment.isProduction || service.Database.EnableCodeFirstInProduction);
    if (codeFirst) {
      await migrateDatabase(database);
    } else {
      const missing = await findMissingTables(database);
      if (missing.length > 0) {
        const why = !service.Database.EnableCodeFirst
          ? 'Service:Database:EnableCodeFirst is false'
          : 'tables are not created in Production unless Service:Database:EnableCodeFirstInProduction is true';
        throw new StartupError(
          `The database lacks ${missing.length} table(s): ${missing.join(', ')}. They were not created because ${why}. ` +
            'Apply the migrations shipped in @svc/data/migrations, or enable code-first creation for one start.',
        );
      }
    }
    await prepareModuleTables(database, seed.modules ?? [], codeFirst);
    const repos = createRepositories(database);
    await seedIfEmpty(config, database, repos, log, seed);
    if (await ensureSystemModule(database, seed.now()))
      log.info('Portal upgrade: created the built-in "system" module and gave it the top-level menus.');
    const menusUpgraded = await upgradeMenus(database, seed, log);
    return { database, repos, menusUpgraded, ping: () => database.ping(), close: () => database.close() };
  } catch (error) {
    await database.close().catch(() => {});
    throw asStartupError(error, 'Service:Database');
  }
}

/**
 * The seeded menu tree brought up to this release (@svc/data `ensureSeedMenus`); true when it changed. A failure
 * (a runtime role without the right to move PostgreSQL's sequence, a lock timeout) is logged and the start goes
 * on: the tree stays as it was, which only keeps new routes to the super admin until the next start.
 */
async function upgradeMenus(database: Database, seed: SeedOptions, log: Logger): Promise<boolean> {
  try {
    const upgrade = await ensureSeedMenus(database, [...defaultSeedMenus, ...seed.extraMenus], seed.now());
    const changed = upgrade.inserted.length + upgrade.updated.length > 0;
    if (changed)
      log.info(
        `Menu upgrade: ${upgrade.inserted.length} seeded menu(s) or button(s) added, ${upgrade.updated.length} given this release's permission codes.`,
        { inserted: upgrade.inserted, updated: upgrade.updated },
      );
    return changed;
  } catch (error) {
    log.warn('Menu upgrade failed; the seeded menu tree stays as it was until the next start.', { error });
    return false;
  }
}

async function seedIfEmpty(
  config: Configuration,
  database: Database,
  repos: Repositories,
  log: Logger,
  seed: SeedOptions,
): Promise<void> {
  // Cheap check first, so that an ordinary restart never pays for a password hash.
  if ((await repos.users.countAll()) > 0) return;
  const { Seed, Security } = config.service;
  const generated = Seed.AdminPassword ? undefined : generateSeedPassword();
  const password = Seed.AdminPassword ?? (generated as string);
  const result = await runSeed(database, {
    adminAccount: Seed.AdminAccount,
    adminPasswordHash: await hashPassword(password, Security.Password.Pbkdf2Iterations),
    configs: runtimeSeedRows(config.service),
    menus: [...defaultSeedMenus, ...seed.extraMenus],
    now: seed.now(),
  });
  if (!result.created) return;
  log.info(
    `First start: seeded the super-admin account "${Seed.AdminAccount}", roles, menus, config and dictionaries.`,
  );
  if (generated) log.warn(seedPasswordBanner(Seed.AdminAccount, generated));
}

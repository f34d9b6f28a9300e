/**
 * @svc/data: schemas for SQLite, MySQL/MariaDB, PostgreSQL and SQL Server, versioned migrations, the dialect
 * adapters, repositories written once for every dialect, and the first-start seed.
 */

export * from './config/codes.js';
export * from './config/config-service.js';
export * from './config/dict-service.js';
export * from './config/site-info.js';
export * from './config-store.js';
export {
  type ConnectionConfig,
  describeTarget,
  parseConnectionString,
  type ServerConnectionConfig,
  type SqliteConnectionConfig,
  type SslMode,
} from './connection-string.js';
export { type Database, type OpenDatabaseOptions, openDatabase } from './database.js';
export type {
  DialectAdapter,
  FieldSelect,
  IdTable,
  MigrationTarget,
  QueryDb,
  RowSelect,
  Selection,
  SelectionField,
  SelectionRow,
  SelectQuery,
  StatementOptions,
  TransactionOptions,
  UpdateSet,
} from './dialect.js';
export type { PoolStats, QueryLogger } from './dialect-module.js';
export {
  checkDriverVersion,
  checkPeerVersion,
  DRIVER_PACKAGES,
  DRIVERS,
  type DriverBackend,
  DriverMissingError,
  type DriverProbe,
  DriverVersionError,
  driverNeed,
  findInstalledPackage,
  type InstalledPackage,
  loadWithPeers,
  type OptionalPeer,
  type PeerNeed,
  peerSpec,
  requirePeers,
  supportedSpec,
} from './drivers.js';
export {
  DatabaseUnavailableError,
  InvalidConnectionStringError,
  isDatabaseBusy,
  isDatabaseUnavailable,
  isTransactionConflict,
  isUniqueViolation,
  isUnstorableText,
  TransactionWaitTimeoutError,
  uniqueOr,
} from './errors.js';
export {
  findMissingTables,
  findMissingTablesOf,
  MIGRATIONS_TABLE,
  type ModuleMigrationTarget,
  migrateDatabase,
  migrateModuleTables,
  migrationsPath,
} from './migrate.js';
export {
  DEFAULT_PAGE_SIZE,
  findSortColumn,
  type NormalizedPaging,
  normalizePaging,
  type Page,
  type PageQuery,
  type PaginateOptions,
  paginate,
} from './paging.js';
export type { QueryObserver } from './query-observer.js';
export * from './repositories/configs.js';
export type { RepositoryContext } from './repositories/context.js';
export * from './repositories/dashboard.js';
export * from './repositories/data-scope.js';
export * from './repositories/dicts.js';
export * from './repositories/exception-logs.js';
export * from './repositories/files.js';
export { containsIgnoreCase, escapeLike, restrictSort } from './repositories/filters.js';
export * from './repositories/high-sensitivity.js';
export { createRepositories, type Repositories } from './repositories/index.js';
export * from './repositories/jobs.js';
export * from './repositories/login-logs.js';
export * from './repositories/menus.js';
export * from './repositories/modules.js';
export * from './repositories/notices.js';
export * from './repositories/online-sessions.js';
export * from './repositories/op-logs.js';
export * from './repositories/orgs.js';
export * from './repositories/password-history.js';
export * from './repositories/permissions.js';
export * from './repositories/phone-users.js';
export * from './repositories/positions.js';
export * from './repositories/refresh-tokens.js';
export * from './repositories/roles.js';
export * from './repositories/sessions.js';
export * from './repositories/totp.js';
export * from './repositories/trash.js';
export * from './repositories/user-external.js';
export * from './repositories/users.js';
export * from './rows.js';
export {
  ROOT_ORG,
  SEED_ADMIN_REAL_NAME,
  SEED_DICTIONARIES,
  SEED_MODULES,
  SEED_ROLES,
  SYSTEM_MODULE_CODE,
} from './seed/defaults.js';
export { ensureSeedMenus, type SeedMenuUpgrade } from './seed/ensure-menus.js';
export { ensureSystemModule } from './seed/ensure-modules.js';
export {
  defaultSeedMenus,
  type FlatSeedMenu,
  flattenSeedMenus,
  permissionCode,
  type SeedMenu,
  seedPermissionCodes,
} from './seed/menus.js';
export { runSeed, type SeedConfig, type SeedInput, type SeedResult } from './seed/run-seed.js';
export type { TablesConform } from './table-conformance.js';
export { type TableKey, type Tables, tableNames } from './tables.js';
export { TRANSACTION_ATTEMPTS } from './transactions.js';

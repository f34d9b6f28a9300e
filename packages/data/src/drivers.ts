/**
 * Database drivers and the Redis client are optional peer dependencies of `@svc/data`, as drizzle-orm has them:
 * a consumer installs only what it selects (a SQLite app never downloads the SQL Server driver and its Azure
 * SDK). Each is loaded when its dialect or provider is chosen; a missing one stops start-up with a message that
 * names the package to install instead of a module-resolution stack.
 */

/** The npm package each selectable backend loads. */
export const DRIVER_PACKAGES = {
  Sqlite: 'better-sqlite3',
  PostgreSQL: 'postgres',
  MySql: 'mysql2',
  SqlServer: 'mssql',
  Redis: '@keyv/redis',
} as const;

export type DriverBackend = keyof typeof DRIVER_PACKAGES;

/** A selected backend whose npm package is not installed. */
export class DriverMissingError extends Error {
  override readonly name = 'DriverMissingError';
  readonly packageName: string;

  constructor(backend: DriverBackend, setting: string, options?: { cause?: unknown }) {
    const pkg = DRIVER_PACKAGES[backend];
    super(
      `${setting} selects ${backend}, which needs the npm package "${pkg}". Install it beside @svc/server ` +
        `(npm install ${pkg}, or pnpm add ${pkg}${pkg === 'better-sqlite3' ? ' and allow its build: pnpm.onlyBuiltDependencies' : ''}).`,
      options,
    );
    this.packageName = pkg;
  }
}

/** Whether `error` says that `pkg` (not some other module) could not be found. */
function isMissing(error: unknown, pkg: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`));
}

/**
 * Imports the module that uses a backend's driver; a missing driver becomes a {@link DriverMissingError}.
 * @example const dialect = await loadWithDriver('PostgreSQL', 'Service:Database:DbType', () => import('./pg/index.js'));
 */
export async function loadWithDriver<T>(
  backend: DriverBackend,
  setting: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, DRIVER_PACKAGES[backend]))
      throw new DriverMissingError(backend, setting, { cause: error });
    throw error;
  }
}

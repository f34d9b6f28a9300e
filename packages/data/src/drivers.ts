/**
 * Database drivers and the Redis client are optional peer dependencies of `@svc/data`, as drizzle-orm has them:
 * a consumer installs only what it selects (a SQLite app never downloads the SQL Server driver and its Azure
 * SDK). Each is loaded when its dialect or provider is chosen; a missing one stops start-up with a message that
 * names the package to install instead of a module-resolution stack.
 *
 * Before a driver is loaded its package.json is read (never imported) and checked: its version against the
 * supported range (the peer range in package.json) and its `engines.node` against the running Node.js. A native
 * driver built for a newer Node.js can crash the process when it is loaded (better-sqlite3 13 on Node 20 dies
 * with SIGSEGV), so an unsupported one is refused with a message naming the installed and the supported version.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { satisfiesRange } from '@svc/kernel';

/**
 * Each selectable backend's npm package and the versions supported: the same ranges as the peer dependencies in
 * package.json (the workspace catalog; packaging.test.ts keeps them equal).
 */
export const DRIVERS = {
  Sqlite: { package: 'better-sqlite3', range: '^12.11.1' },
  PostgreSQL: { package: 'postgres', range: '^3.4.9' },
  MySql: { package: 'mysql2', range: '^3.24.6' },
  SqlServer: { package: 'mssql', range: '^11.0.1' },
  Redis: { package: '@keyv/redis', range: '^5.1.6' },
} as const;

export type DriverBackend = keyof typeof DRIVERS;

/** The npm package each selectable backend loads. */
export const DRIVER_PACKAGES = Object.fromEntries(
  Object.entries(DRIVERS).map(([backend, driver]) => [backend, driver.package]),
) as { readonly [B in DriverBackend]: (typeof DRIVERS)[B]['package'] };

/** `better-sqlite3@12`: what to install for a supported version (the range's major). */
export function supportedSpec(backend: DriverBackend): string {
  const { package: pkg, range } = DRIVERS[backend];
  return `${pkg}@${/\d+/.exec(range)?.[0] ?? 'latest'}`;
}

const installHint = (spec: string, pkg: string) =>
  `(npm install ${spec}, or pnpm add ${spec}${pkg === 'better-sqlite3' ? ' and allow its build: pnpm.onlyBuiltDependencies' : ''})`;

/** A selected backend whose npm package is not installed. */
export class DriverMissingError extends Error {
  override readonly name = 'DriverMissingError';
  readonly packageName: string;

  constructor(backend: DriverBackend, setting: string, options?: { cause?: unknown }) {
    const pkg = DRIVER_PACKAGES[backend];
    super(
      `${setting} selects ${backend}, which needs the npm package "${pkg}". Install it beside @svc/server ` +
        `${installHint(supportedSpec(backend), pkg)}.`,
      options,
    );
    this.packageName = pkg;
  }
}

/** A selected backend whose installed driver is outside the supported range or needs another Node.js. */
export class DriverVersionError extends Error {
  override readonly name = 'DriverVersionError';
  readonly packageName: string;
  readonly installed: string;
  readonly supported: string;

  constructor(backend: DriverBackend, setting: string, installed: InstalledPackage, nodeVersion: string) {
    const { package: pkg, range } = DRIVERS[backend];
    const node = installed.engines?.node;
    const inRange = satisfiesRange(installed.version, range) === true;
    const needs = node ? ` ${installed.version} needs Node.js ${node}; this is Node.js ${nodeVersion}` : '';
    const why = inRange
      ? needs.trim()
      : `@svc/data supports ${pkg} ${range}${node && satisfiesRange(nodeVersion, node) === false ? ` (and${needs})` : ''}`;
    super(
      `${setting} selects ${backend}, but the installed "${pkg}" ${installed.version} is not supported: ${why}. ` +
        `It was not loaded. Install a supported version beside @svc/server ${installHint(supportedSpec(backend), pkg)}` +
        `${inRange ? ` on a Node.js that satisfies ${node}` : ''}.`,
    );
    this.packageName = pkg;
    this.installed = installed.version;
    this.supported = range;
  }
}

/** What start-up reads from an installed package's package.json. */
export interface InstalledPackage {
  version: string;
  engines?: { node?: string };
}

/**
 * Reads `pkg`'s package.json as Node.js would find the package from `from`, without importing it; null when it is
 * not installed there. Some drivers do not export `./package.json`, so the node_modules folders Node.js searches
 * are tried when the direct resolution is refused.
 */
export function findInstalledPackage(
  pkg: string,
  from: string | URL = import.meta.url,
): InstalledPackage | null {
  const require = createRequire(from);
  const candidates: string[] = [];
  try {
    candidates.push(require.resolve(`${pkg}/package.json`));
  } catch {
    // Not exported, or not installed: look in the search path below.
  }
  for (const dir of require.resolve.paths(pkg) ?? []) candidates.push(join(dir, pkg, 'package.json'));
  for (const file of candidates) {
    let manifest: { name?: unknown; version?: unknown; engines?: { node?: unknown } };
    try {
      manifest = JSON.parse(readFileSync(file, 'utf8')) as typeof manifest;
    } catch {
      continue;
    }
    if (manifest.name !== pkg || typeof manifest.version !== 'string') continue;
    const node = manifest.engines?.node;
    return { version: manifest.version, ...(typeof node === 'string' ? { engines: { node } } : {}) };
  }
  return null;
}

/** How {@link loadWithDriver} finds and judges the installed driver (tests fake both). */
export interface DriverProbe {
  /** Where the driver is resolved from. @default this module */
  from?: string | URL;
  /** The running Node.js version. @default process.versions.node */
  nodeVersion?: string;
}

/**
 * Refuses an installed driver outside the supported range, or one whose `engines.node` the running Node.js does
 * not satisfy; an unreadable `engines` range is not a reason to refuse. A driver that is not found is left to the
 * import, which reports it as missing.
 * @throws DriverVersionError
 */
export function checkDriverVersion(backend: DriverBackend, setting: string, probe: DriverProbe = {}): void {
  const installed = findInstalledPackage(DRIVERS[backend].package, probe.from);
  if (!installed) return;
  const nodeVersion = probe.nodeVersion ?? process.versions.node;
  const node = installed.engines?.node;
  if (
    satisfiesRange(installed.version, DRIVERS[backend].range) !== true ||
    (node !== undefined && satisfiesRange(nodeVersion, node) === false)
  )
    throw new DriverVersionError(backend, setting, installed, nodeVersion);
}

/** Whether `error` says that `pkg` (not some other module) could not be found. */
function isMissing(error: unknown, pkg: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`));
}

/**
 * Checks the installed driver's version, then imports the module that uses it; a missing driver becomes a
 * {@link DriverMissingError}, an unsupported one a {@link DriverVersionError} without being loaded.
 * @example const dialect = await loadWithDriver('PostgreSQL', 'Service:Database:DbType', () => import('./pg/index.js'));
 */
export async function loadWithDriver<T>(
  backend: DriverBackend,
  setting: string,
  load: () => Promise<T>,
  probe: DriverProbe = {},
): Promise<T> {
  checkDriverVersion(backend, setting, probe);
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, DRIVER_PACKAGES[backend]))
      throw new DriverMissingError(backend, setting, { cause: error });
    throw error;
  }
}

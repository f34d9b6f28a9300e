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
 *
 * The same check serves the optional peers of other @svc packages (a module's library, such as exceljs for the
 * Import module of @svc/http): they describe what they need as a {@link PeerNeed} and load through
 * {@link loadWithPeers}, or check at start-up what they load later with {@link requirePeers}.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * An optional peer dependency: its npm package and the versions supported (the peer range in the package.json of
 * the @svc package declaring it).
 */
export interface OptionalPeer {
  readonly package: string;
  readonly range: string;
}

/** An optional peer the configuration needs now: the package, and what selected it, for the messages. */
export interface PeerNeed extends OptionalPeer {
  /** Opens the messages: the key and what it selects, e.g. `Service:Database:DbType selects Sqlite`. */
  readonly selectedBy: string;
  /** The @svc package declaring the peer, named beside the supported range. */
  readonly owner: string;
}

/** What `setting` selecting `backend` needs: its driver, declared by @svc/data. */
export function driverNeed(backend: DriverBackend, setting: string): PeerNeed {
  return { ...DRIVERS[backend], selectedBy: `${setting} selects ${backend}`, owner: '@svc/data' };
}

/** `better-sqlite3@12`: what to install for a supported version (the range's major). */
export function peerSpec(peer: OptionalPeer): string {
  return `${peer.package}@${/\d+/.exec(peer.range)?.[0] ?? 'latest'}`;
}

/** `better-sqlite3@12`: what to install for a backend's supported driver (the range's major). */
export function supportedSpec(backend: DriverBackend): string {
  return peerSpec(DRIVERS[backend]);
}

const installHint = (spec: string, pkg: string) =>
  `(npm install ${spec}, or pnpm add ${spec}${pkg === 'better-sqlite3' ? ' and allow its build: pnpm.onlyBuiltDependencies' : ''})`;

/** A selected backend (or module library) whose npm package is not installed. */
export class DriverMissingError extends Error {
  override readonly name = 'DriverMissingError';
  readonly packageName: string;

  constructor(need: PeerNeed, options?: { cause?: unknown }) {
    const pkg = need.package;
    super(
      `${need.selectedBy}, which needs the npm package "${pkg}". Install it beside @svc/server ` +
        `${installHint(peerSpec(need), pkg)}.`,
      options,
    );
    this.packageName = pkg;
  }
}

/** A selected backend (or module library) installed outside the supported range or needing another Node.js. */
export class DriverVersionError extends Error {
  override readonly name = 'DriverVersionError';
  readonly packageName: string;
  readonly installed: string;
  readonly supported: string;

  constructor(need: PeerNeed, installed: InstalledPackage, nodeVersion: string) {
    const { package: pkg, range } = need;
    const node = installed.engines?.node;
    const inRange = satisfiesRange(installed.version, range) === true;
    const needs = node ? ` ${installed.version} needs Node.js ${node}; this is Node.js ${nodeVersion}` : '';
    const why = inRange
      ? needs.trim()
      : `${need.owner} supports ${pkg} ${range}${node && satisfiesRange(nodeVersion, node) === false ? ` (and${needs})` : ''}`;
    super(
      `${need.selectedBy}, but the installed "${pkg}" ${installed.version} is not supported: ${why}. ` +
        `It was not loaded. Install a supported version beside @svc/server ${installHint(peerSpec(need), pkg)}` +
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

/** The node_modules folders an ESM import from the file `from` searches: its folder's and every parent's. */
function importSearchPath(from: string | URL): string[] {
  const file = from instanceof URL || from.startsWith('file:') ? fileURLToPath(from) : from;
  const folders: string[] = [];
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') folders.push(join(dir, 'node_modules'));
    if (dirname(dir) === dir) return folders;
  }
}

/**
 * Reads `pkg`'s package.json as an `import()` from `from` would find the package, without importing it; null when
 * it is not installed there. The node_modules folders an import searches are read directly (some drivers do not
 * export `./package.json`); `NODE_PATH` and the global folders, which `require` searches and an import does not
 * (pnpm's bin shims point `NODE_PATH` at its whole store), are not. Under Yarn PnP, which has no node_modules,
 * `require.resolve` finds it.
 */
export function findInstalledPackage(
  pkg: string,
  from: string | URL = import.meta.url,
): InstalledPackage | null {
  const candidates = importSearchPath(from).map((dir) => join(dir, pkg, 'package.json'));
  if (process.versions.pnp) {
    try {
      candidates.push(createRequire(from).resolve(`${pkg}/package.json`));
    } catch {
      // Not exported, or not installed.
    }
  }
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

/** How {@link loadWithPeers} finds and judges the installed package (tests fake both). */
export interface DriverProbe {
  /** Where the package is resolved from: the module that imports it. @default this module */
  from?: string | URL;
  /** The running Node.js version. @default process.versions.node */
  nodeVersion?: string;
}

/**
 * Refuses an installed peer outside the supported range, or one whose `engines.node` the running Node.js does not
 * satisfy; an unreadable `engines` range is not a reason to refuse. Answers what is installed, or null when the
 * package is not found (left to the import, which reports it as missing).
 * @throws DriverVersionError
 */
export function checkPeerVersion(need: PeerNeed, probe: DriverProbe = {}): InstalledPackage | null {
  const installed = findInstalledPackage(need.package, probe.from);
  if (!installed) return null;
  const nodeVersion = probe.nodeVersion ?? process.versions.node;
  const node = installed.engines?.node;
  if (
    satisfiesRange(installed.version, need.range) !== true ||
    (node !== undefined && satisfiesRange(nodeVersion, node) === false)
  )
    throw new DriverVersionError(need, installed, nodeVersion);
  return installed;
}

/**
 * {@link checkPeerVersion} for a selectable backend's driver.
 * @throws DriverVersionError
 */
export function checkDriverVersion(backend: DriverBackend, setting: string, probe: DriverProbe = {}): void {
  checkPeerVersion(driverNeed(backend, setting), probe);
}

/** Whether `error` says that `pkg` (not some other module) could not be found. */
function isMissing(error: unknown, pkg: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`));
}

/**
 * Checks every needed peer's version, then runs `load` (the imports that use them); a missing peer becomes a
 * {@link DriverMissingError}, an unsupported one a {@link DriverVersionError} before anything is loaded.
 * @example await loadWithPeers([bullmq, ioredis], () => Promise.all([import('bullmq'), import('ioredis')]), { from: import.meta.url });
 */
export async function loadWithPeers<T>(
  needs: readonly PeerNeed[],
  load: () => Promise<T>,
  probe: DriverProbe = {},
): Promise<T> {
  for (const need of needs) checkPeerVersion(need, probe);
  try {
    return await load();
  } catch (error) {
    const missing = needs.find((need) => isMissing(error, need.package));
    if (missing) throw new DriverMissingError(missing, { cause: error });
    throw error;
  }
}

/**
 * Start-up's check of peers loaded later (on first use): every needed one must be installed in a supported
 * version. Their package.json files are read, nothing is imported; only when one is not found where Node.js looks
 * for it is `load` run, so that a layout this search does not know (a bundle, Yarn PnP) is judged by the import
 * itself and a missing package still ends in a {@link DriverMissingError}.
 * @throws DriverMissingError | DriverVersionError
 */
export async function requirePeers(
  needs: readonly PeerNeed[],
  load: () => Promise<unknown>,
  probe: DriverProbe = {},
): Promise<void> {
  const found = needs.map((need) => checkPeerVersion(need, probe));
  if (found.some((installed) => installed === null)) await loadWithPeers(needs, load, probe);
}

/**
 * Checks the installed driver's version, then imports the module that uses it; a missing driver becomes a
 * {@link DriverMissingError}, an unsupported one a {@link DriverVersionError} without being loaded.
 * @example const dialect = await loadWithDriver('PostgreSQL', 'Service:Database:DbType', () => import('./pg/index.js'));
 */
export function loadWithDriver<T>(
  backend: DriverBackend,
  setting: string,
  load: () => Promise<T>,
  probe: DriverProbe = {},
): Promise<T> {
  return loadWithPeers([driverNeed(backend, setting)], load, probe);
}

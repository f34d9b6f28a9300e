/**
 * The driver check before loading: a driver outside the supported range, or one whose `engines.node` the running
 * Node.js does not satisfy, is refused with a message naming both versions and is never imported. The packages are
 * faked as package.json files in a private node_modules, so no driver needs to be installed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkDriverVersion,
  DRIVERS,
  type DriverBackend,
  DriverMissingError,
  DriverVersionError,
  loadWithDriver,
} from './drivers.js';

const root = mkdtempSync(join(tmpdir(), 'svc-drivers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder whose node_modules holds `pkg` with the given manifest; answers a file URL to resolve from. */
function fakeInstall(name: string, pkg: string, manifest: Record<string, unknown>): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'node_modules', pkg), { recursive: true });
  writeFileSync(join(dir, 'node_modules', pkg, 'package.json'), JSON.stringify({ name: pkg, ...manifest }));
  return pathToFileURL(join(dir, 'app.js')).href;
}

const SETTING = 'Service:Database:DbType';

async function refusal(
  backend: DriverBackend,
  from: string,
  nodeVersion: string,
): Promise<DriverVersionError> {
  let loaded = false;
  const error = await loadWithDriver(
    backend,
    SETTING,
    async () => {
      loaded = true;
    },
    { from, nodeVersion },
  ).catch((e: unknown) => e);
  expect(loaded, 'the driver was loaded').toBe(false);
  expect(error).toBeInstanceOf(DriverVersionError);
  return error as DriverVersionError;
}

describe('driver versions are checked before loading', () => {
  it('refuses a major that needs a newer Node.js (better-sqlite3 13 on Node 20), naming both versions', async () => {
    const from = fakeInstall('sqlite13', 'better-sqlite3', { version: '13.2.0', engines: { node: '>=22' } });
    const error = await refusal('Sqlite', from, '20.20.2');
    expect(error.message).toContain('"better-sqlite3" 13.2.0 is not supported');
    expect(error.message).toContain(`supports better-sqlite3 ${DRIVERS.Sqlite.range}`);
    expect(error.message).toContain('13.2.0 needs Node.js >=22; this is Node.js 20.20.2');
    expect(error.message).toContain('npm install better-sqlite3@12');
    expect(error.message).toContain('pnpm add better-sqlite3@12');
    expect(error).toMatchObject({
      packageName: 'better-sqlite3',
      installed: '13.2.0',
      supported: '^12.11.1',
    });
  });

  it('refuses a newer major even where its engines allow the running Node.js', async () => {
    const from = fakeInstall('mssql12', 'mssql', { version: '12.7.16', engines: { node: '>=18.19.0' } });
    const error = await refusal('SqlServer', from, '22.12.0');
    expect(error.message).toMatch(
      /"mssql" 12\.7\.16 is not supported: @svc\/data supports mssql \^11\.0\.1\./,
    );
    expect(error.message).toContain('npm install mssql@11');
  });

  it('refuses an older version of the supported major', async () => {
    const from = fakeInstall('pg-old', 'postgres', { version: '3.3.0' });
    const error = await refusal('PostgreSQL', from, '20.20.2');
    expect(error.message).toContain('"postgres" 3.3.0 is not supported');
  });

  it('refuses a supported version whose engines the running Node.js does not satisfy', async () => {
    const from = fakeInstall('redis-engines', '@keyv/redis', { version: '5.9.0', engines: { node: '>=99' } });
    const error = await refusal('Redis', from, '20.20.2');
    expect(error.message).toContain('5.9.0 needs Node.js >=99; this is Node.js 20.20.2');
    expect(error.message).toContain('on a Node.js that satisfies >=99');
  });

  it('loads a supported driver, and one whose engines range cannot be read', async () => {
    const ok = fakeInstall('mysql-ok', 'mysql2', { version: '3.24.6', engines: { node: '>= 8.0' } });
    await expect(
      loadWithDriver('MySql', SETTING, async () => 'loaded', { from: ok, nodeVersion: '20.19.0' }),
    ).resolves.toBe('loaded');
    const odd = fakeInstall('mysql-odd', 'mysql2', { version: '3.30.0', engines: { node: 'current' } });
    expect(() => checkDriverVersion('MySql', SETTING, { from: odd, nodeVersion: '20.19.0' })).not.toThrow();
  });

  it('leaves a driver that is not installed to the import, which names the package to install', async () => {
    const from = pathToFileURL(join(root, 'empty', 'app.js')).href;
    const missing = Object.assign(new Error("Cannot find package 'better-sqlite3' imported from x"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await loadWithDriver('Sqlite', SETTING, () => Promise.reject(missing), { from }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(DriverMissingError);
    expect((error as Error).message).toContain('npm install better-sqlite3@12');
  });

  it('passes every driver installed in this workspace on this Node.js', () => {
    for (const backend of Object.keys(DRIVERS) as DriverBackend[])
      expect(() => checkDriverVersion(backend, SETTING), backend).not.toThrow();
  });
});

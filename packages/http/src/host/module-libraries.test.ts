/**
 * The libraries of optional modules (bullmq with ioredis for Job on BullMQ, exceljs for Import, openid-client for
 * ExternalAuth with a provider) are checked at start-up as the database drivers are: an enabled module whose
 * library is missing or outside the supported major is refused with the package to install, before anything is
 * loaded; a disabled module, or one not using its library, needs nothing. The packages are faked as package.json
 * files in a private node_modules (drivers.test.ts does the same), and the import that confirms a missing one is
 * stood in for.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DriverMissingError, DriverVersionError } from '@svc/data';
import { loadConfiguration } from '@svc/kernel';
import { afterAll, describe, expect, it } from 'vitest';
import { planModules } from '../module/compose.js';
import type { ModuleLibrary } from '../module/define.js';
import { BUILT_IN_MODULES } from '../modules/index.js';
import { checkModuleLibraries, MODULE_LIBRARIES } from './module-libraries.js';

const root = mkdtempSync(join(tmpdir(), 'svc-module-libraries-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder whose node_modules holds the given packages and versions; answers a file URL to resolve from. */
function fakeInstall(name: string, packages: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [pkg, version] of Object.entries(packages)) {
    mkdirSync(join(dir, 'node_modules', pkg), { recursive: true });
    writeFileSync(join(dir, 'node_modules', pkg, 'package.json'), JSON.stringify({ name: pkg, version }));
  }
  return pathToFileURL(join(dir, 'app.js')).href;
}

/** Every library in a supported version: a test then takes one away or changes one. */
const SUPPORTED = {
  bullmq: '6.7.0',
  ioredis: '5.11.1',
  exceljs: '4.4.0',
  'openid-client': '6.9.0',
  '@simplewebauthn/server': '13.3.0',
};

const config = (env: Record<string, string> = {}) =>
  loadConfiguration({
    contentRoot: root,
    env,
    moduleSections: BUILT_IN_MODULES.flatMap((m) => m.options?.section ?? []),
  });
/** What the built-in modules declare they load with this configuration (`libraries` of each enabled one). */
const librariesOf = (env: Record<string, string>, off: readonly string[] = []) =>
  planModules(
    BUILT_IN_MODULES,
    config({ ...env, ...Object.fromEntries(off.map((m, i) => [`Service__Api__DisabledModules__${i}`, m])) }),
  ).libraries;
const PROVIDER = {
  Service__ExternalAuth__Oidc__0__Code: 'corp',
  Service__ExternalAuth__Oidc__0__Authority: 'https://idp.example.com',
  Service__ExternalAuth__Oidc__0__ClientId: 'svc',
  Service__ExternalAuth__CallbackBaseUrl: 'https://admin.example.com',
};
/** The passkeys' deploy floor on (the WebAuthn library is needed only then). */
const PASSKEY = {
  Service__Security__Passkey__Enabled: 'true',
  Service__Security__Passkey__RpId: 'localhost',
};
const BULLMQ = {
  Service__Jobs__Engine: 'BullMQ',
  Service__Cache__Provider: 'Redis',
  Service__Cache__Redis__Configuration: 'redis://127.0.0.1:1',
};

/** Runs the check; answers its error (or undefined) and the modules whose import it ran. */
async function check(
  env: Record<string, string>,
  from: string,
  off: readonly string[] = [],
): Promise<{ error: unknown; imported: string[] }> {
  const imported: string[] = [];
  const libraries = librariesOf(env, off);
  const load = async (library: ModuleLibrary & { module: string }) => {
    imported.push(library.module);
    // As Node.js reports a package it cannot find: the first of the module's packages not installed at `from`.
    const absent = library.needs.find((need) => !installed(from, need.package));
    if (absent)
      throw Object.assign(new Error(`Cannot find package '${absent.package}' imported from ${from}`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
  };
  const error = await checkModuleLibraries(libraries, { from, nodeVersion: '20.19.0' }, load).catch(
    (e: unknown) => e,
  );
  return { error, imported };
}

function installed(from: string, pkg: string): boolean {
  try {
    return statSync(join(dirname(fileURLToPath(from)), 'node_modules', pkg, 'package.json')).isFile();
  } catch {
    return false;
  }
}

const without = (pkg: keyof typeof SUPPORTED) =>
  Object.fromEntries(Object.entries(SUPPORTED).filter(([name]) => name !== pkg));

describe('module libraries are checked at start-up like the database drivers', () => {
  it('refuses module Import on without exceljs, naming the package and the major to install', async () => {
    const { error } = await check({}, fakeInstall('no-exceljs', without('exceljs')));
    expect(error).toBeInstanceOf(DriverMissingError);
    const message = (error as Error).message;
    expect(message).toContain(
      'Module Import is on (Service:Api:DisabledModules does not list it), which needs the npm package "exceljs"',
    );
    expect(message).toContain('npm install exceljs@4');
    expect(message).toContain('pnpm add exceljs@4');
  });

  it('refuses an exceljs outside the supported major without loading it', async () => {
    const { error, imported } = await check({}, fakeInstall('exceljs5', { ...SUPPORTED, exceljs: '5.0.0' }));
    expect(error).toBeInstanceOf(DriverVersionError);
    expect((error as Error).message).toContain(
      'the installed "exceljs" 5.0.0 is not supported: @svc/modules supports exceljs ^4.4.0',
    );
    expect((error as Error).message).toContain('npm install exceljs@4');
    expect(imported).toEqual([]);
  });

  it('refuses module Passkey with passkeys on without @simplewebauthn/server (or another major); none needs it with Passkey off or its floor off', async () => {
    const from = fakeInstall('no-webauthn', without('@simplewebauthn/server'));
    const missing = await check(PASSKEY, from, ['Import']);
    expect(missing.error).toBeInstanceOf(DriverMissingError);
    expect((missing.error as Error).message).toContain(
      'Module Passkey is on (Service:Api:DisabledModules does not list it), which needs the npm package "@simplewebauthn/server"',
    );
    expect((missing.error as Error).message).toContain('npm install @simplewebauthn/server@13');
    const newer = await check(
      PASSKEY,
      fakeInstall('webauthn14', { ...SUPPORTED, '@simplewebauthn/server': '14.1.0' }),
    );
    expect(newer.error).toBeInstanceOf(DriverVersionError);
    expect((newer.error as Error).message).toContain('"@simplewebauthn/server" 14.1.0 is not supported');
    expect((await check(PASSKEY, from, ['Import', 'Passkey'])).error).toBeUndefined();
    expect((await check({}, from, ['Import'])).error, 'the floor off by default').toBeUndefined();
  });

  it('needs no exceljs with module Import off', async () => {
    const { error, imported } = await check({}, fakeInstall('import-off', without('exceljs')), [
      'Import',
      'Passkey',
    ]);
    expect(error).toBeUndefined();
    expect(imported).toEqual([]);
  });

  it('refuses module Job on the BullMQ engine without bullmq or ioredis, or with another major', async () => {
    const noBull = await check(BULLMQ, fakeInstall('no-bullmq', without('bullmq')));
    expect(noBull.error).toBeInstanceOf(DriverMissingError);
    expect((noBull.error as Error).message).toContain(
      'Service:Jobs:Engine selects BullMQ for module Job, which needs the npm package "bullmq"',
    );
    expect((noBull.error as Error).message).toContain('npm install bullmq@6');
    const noRedis = await check(BULLMQ, fakeInstall('no-ioredis', without('ioredis')));
    expect((noRedis.error as Error).message).toContain('needs the npm package "ioredis"');
    expect((noRedis.error as Error).message).toContain('npm install ioredis@5');
    const oldBull = await check(BULLMQ, fakeInstall('bullmq5', { ...SUPPORTED, bullmq: '5.58.0' }));
    expect(oldBull.error).toBeInstanceOf(DriverVersionError);
    expect((oldBull.error as Error).message).toContain(
      '"bullmq" 5.58.0 is not supported: @svc/modules supports bullmq ^6.7.0',
    );
    expect(oldBull.imported).toEqual([]);
  });

  it('needs BullMQ with Engine Auto only on the Redis cache, never in-process or with module Job off', async () => {
    const from = fakeInstall('no-job-libraries', without('bullmq'));
    const auto = await check(
      { Service__Cache__Provider: 'Redis', Service__Cache__Redis__Configuration: 'redis://127.0.0.1:1' },
      from,
    );
    expect((auto.error as Error).message).toContain(
      'Service:Jobs:Engine Auto with Service:Cache:Provider Redis selects BullMQ for module Job',
    );
    expect((await check({}, from)).error).toBeUndefined();
    expect((await check({ Service__Jobs__Engine: 'InProcess' }, from)).error).toBeUndefined();
    const off = await check(BULLMQ, from, ['Job']);
    expect(off.error).toBeUndefined();
    expect(off.imported).toEqual([]);
  });

  it('refuses module ExternalAuth with a provider and no openid-client (or another major); none needs it without one', async () => {
    const from = fakeInstall('no-openid', without('openid-client'));
    const missing = await check(PROVIDER, from);
    expect(missing.error).toBeInstanceOf(DriverMissingError);
    expect((missing.error as Error).message).toContain(
      'Service:ExternalAuth:Oidc configures an OpenID provider for module ExternalAuth, which needs the npm package "openid-client"',
    );
    expect((missing.error as Error).message).toContain('npm install openid-client@6');
    const old = await check(PROVIDER, fakeInstall('openid5', { ...SUPPORTED, 'openid-client': '5.7.1' }));
    expect(old.error).toBeInstanceOf(DriverVersionError);
    expect((old.error as Error).message).toContain('"openid-client" 5.7.1 is not supported');
    expect((await check({}, from)).error).toBeUndefined();
    expect((await check(PROVIDER, from, ['ExternalAuth'])).error).toBeUndefined();
  });

  it('needs none of them with only login and administration', async () => {
    const { error, imported } = await check({ ...BULLMQ, ...PROVIDER }, fakeInstall('none', {}), [
      'Job',
      'Import',
      'ExternalAuth',
      'Passkey',
    ]);
    expect(error).toBeUndefined();
    expect(imported).toEqual([]);
  });

  it('passes the libraries installed in this workspace, every module on and using its library', async () => {
    const env = { ...BULLMQ, ...PROVIDER, ...PASSKEY };
    let imported = false;
    await expect(
      checkModuleLibraries(librariesOf(env), undefined, async () => {
        imported = true;
      }),
    ).resolves.toBeUndefined();
    expect(imported, 'found by their package.json, nothing is imported').toBe(false);
    expect(MODULE_LIBRARIES.map((l) => l.package)).toEqual(Object.keys(SUPPORTED));
  });

  it('resolves each library from the package declaring it as an optional peer (@svc/modules)', () => {
    const uses = librariesOf({ ...BULLMQ, ...PROVIDER, ...PASSKEY });
    expect(uses.map((u) => u.module)).toEqual(['Import', 'ExternalAuth', 'Passkey', 'Job']);
    for (const use of uses) {
      // The package.json of the package `from` lies in: under pnpm only its own peers are linked beside it.
      let dir = dirname(fileURLToPath(use.from));
      while (!statSync(join(dir, 'package.json'), { throwIfNoEntry: false })?.isFile()) dir = dirname(dir);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string;
        peerDependencies?: Record<string, string>;
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      expect(manifest.name, use.module).toBe('@svc/modules');
      for (const need of use.needs) {
        expect(manifest.peerDependencies?.[need.package], need.package).toBeDefined();
        expect(manifest.peerDependenciesMeta?.[need.package]?.optional, need.package).toBe(true);
        expect(need.owner, need.package).toBe(manifest.name);
      }
    }
  });
});

describe('no path loaded with a module off imports its library', () => {
  const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? files(join(dir, entry.name))
        : /\.ts$/.test(entry.name) && !/\.(test|contract|test-d)\.ts$|\.int\.test\.ts$/.test(entry.name)
          ? [join(dir, entry.name)]
          : [],
    );

  it('names bullmq, ioredis, exceljs and openid-client only in type imports and dynamic import() in @svc/modules, @svc/http and @svc/server', () => {
    const LIBRARY = `(?:bullmq|ioredis|exceljs|openid-client)(?:/[^'"]*)?`;
    const anyImport = new RegExp(
      String.raw`(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]${LIBRARY}['"]`,
      'g',
    );
    const sources = ['modules', 'http', 'server'].flatMap((pkg) => files(join(SRC, pkg, 'src')));
    expect(sources.length).toBeGreaterThan(100);
    const offending: string[] = [];
    let dynamic = 0;
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(anyImport)) {
        if (/^import\s*\(/.test(match[0])) {
          dynamic += 1;
          continue;
        }
        // The statement this clause ends (from the last line opening with import/export) must import types only.
        const head = text.slice(0, match.index);
        const start = head.slice(Math.max(head.lastIndexOf('\nimport'), head.lastIndexOf('\nexport')) + 1);
        if (!/^(?:import|export)\s+type\b/.test(start)) offending.push(`${file}: ${start}${match[0]}`);
      }
    }
    expect(offending).toEqual([]);
    expect(dynamic, 'the loaders of Job, Import and ExternalAuth').toBeGreaterThanOrEqual(4);
  });
});

/**
 * The packages as a consumer gets them: every public package packed to a tarball (`pnpm pack`, which runs
 * `prepack`), installed into an empty app outside the workspace with npm and with pnpm, the README's "Using it in
 * your own host" example taken from the README text itself, compiled with strict TypeScript against the published
 * types, started, and its route called. Fails when a tarball misses a file, a dependency is undeclared, the
 * published types do not compile, or the README example drifted from the API.
 *
 * Both consumers do what the README says, taken from its text: the npm consumer runs its `npm install @svc/server
 * ...` line with the PostgreSQL driver it names (no native build, no SQL Server driver or Azure SDK), is told which
 * package the default SQLite needs, and runs on PostgreSQL; the pnpm consumer puts the README's `pnpm` settings in
 * its package.json, runs its `pnpm add` line and runs on SQLite. Then it adds the newest better-sqlite3 major,
 * which needs a newer Node.js than 20 (without its build, which could not succeed there): start-up refuses it with
 * the installed and the supported version and exits 1, where loading it used to end the process with SIGSEGV.
 * Both keep the default modules, so both install exceljs (module Import) as the README says, and neither gets
 * bullmq, ioredis or openid-client.
 *
 * The footprint consumer installs with pnpm for a host of login and administration alone (every module of
 * `Service:Api:DisabledModules` listed) on SQLite: it gets none of the module libraries, is refused with the
 * package to install when it turns a module on without its library, logs in, and prints its node_modules size and
 * package count. It shares the pnpm store with the pnpm consumer, so the SQLite driver is built once.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@svc/data/testing';
import { API_MODULES } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PUBLIC = ['kernel', 'data', 'security', 'logging', 'modules', 'http', 'server'] as const;
const PNPM = ['-y', 'pnpm@10.34.9'];
const INSTALL_TIMEOUT_MS = 8 * 60_000;

/** The first ```ts block under the README's "Using it in your own host" heading. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## Using it in your own host\s*$/m)[1] ?? '';
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README: no ```ts block under "## Using it in your own host".');
  return code;
}

/** The README's "Using it in your own host" section. */
function readmeUsing(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return readme.split(/^## Using it in your own host\s*$/m)[1]?.split(/^## /m)[0] ?? '';
}

/** The arguments of the README's `npm install @svc/server ...` line and the PostgreSQL driver its comment names. */
function readmeNpmInstall(): { args: string[]; postgres: string } {
  const line = /^npm install (@svc\/server [^#\n]*)#([^\n]*)$/m.exec(readmeUsing());
  const postgres = /\bpostgres@\d+/.exec(line?.[2] ?? '')?.[0];
  if (!line?.[1] || !postgres)
    throw new Error('README: no "npm install @svc/server ... # ... postgres@N" line.');
  return { args: line[1].trim().split(/\s+/), postgres };
}

/** The arguments of the README's `npm install <first> ...` line (a module library's). */
function readmeNpmLine(first: string): string[] {
  const line = new RegExp(`^npm install (${first}[^#\\n]*)#`, 'm').exec(readmeUsing());
  if (!line?.[1]) throw new Error(`README: no "npm install ${first}... #" line.`);
  return line[1].trim().split(/\s+/);
}

/** The optional libraries of modules Job, Import, ExternalAuth and Passkey. */
const MODULE_LIBRARIES = ['bullmq', 'ioredis', 'exceljs', 'openid-client', '@simplewebauthn/server'] as const;

/** The README's `pnpm add @svc/server ...` arguments and its `"pnpm": {...}` package.json settings. */
function readmePnpm(): { args: string[]; settings: Record<string, unknown> } {
  const section = readmeUsing();
  const add = /`pnpm add (@svc\/server [^`]*)`/.exec(section)?.[1];
  const settings = /`("pnpm": \{[^`]*\})`/.exec(section)?.[1];
  if (!add || !settings)
    throw new Error('README: no `pnpm add @svc/server ...` or `"pnpm": {...}` for pnpm.');
  return { args: add.trim().split(/\s+/), settings: JSON.parse(`{${settings}}`) as Record<string, unknown> };
}

/** `name: range` from the workspace catalog, for the consumer's own copies of the drivers and tools. */
function catalogRange(name: string): string {
  const text = readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const line = new RegExp(`^\\s+"?${name.replace('/', '\\/')}"?:\\s*(\\S+)`, 'm').exec(text);
  if (!line?.[1]) throw new Error(`catalog has no ${name}`);
  return line[1];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `node main.js` and resolves with its URL once it logs that it listens. */
async function startApp(
  dir: string,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['main.js'], {
    cwd: dir,
    env: {
      ...process.env,
      ASPNETCORE_ENVIRONMENT: 'Development',
      ASPNETCORE_URLS: `http://127.0.0.1:${port}`,
      ASPNETCORE_CONTENTROOT: dir,
      NO_COLOR: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Now listening on')) resolve(`http://127.0.0.1:${port}`);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the consumer app exited with ${code}:\n${output}`)));
  });
  return { url, child, output: () => output };
}

/** Runs `node main.js` expecting it to stop at start-up; answers its output, exit code and signal. */
function startFailure(
  dir: string,
  env: Record<string, string> = {},
): { output: string; status: number | null; signal: string | null } {
  try {
    execFileSync(process.execPath, ['main.js'], {
      cwd: dir,
      env: {
        ...process.env,
        ASPNETCORE_ENVIRONMENT: 'Development',
        ASPNETCORE_CONTENTROOT: dir,
        NO_COLOR: '1',
        ...env,
      },
      stdio: 'pipe',
      timeout: 60_000,
    });
  } catch (error) {
    const { stdout, stderr, status, signal } = error as {
      stdout?: Buffer;
      stderr?: Buffer;
      status?: number | null;
      signal?: string | null;
    };
    return {
      output: `${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`,
      status: status ?? null,
      signal: signal ?? null,
    };
  }
  throw new Error('the app started although a driver or module library is missing or unsupported');
}

/** The packages of a pnpm node_modules (`.pnpm/<name>@<version>[_peers]`), as `name@version`. */
function pnpmPackages(dir: string): string[] {
  const store = join(dir, 'node_modules', '.pnpm');
  const names = readdirSync(store, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => {
      const name = entry.name.replace('+', '/');
      const at = name.indexOf('@', 1);
      return `${name.slice(0, at)}@${name.slice(at + 1).split('_')[0]}`;
    });
  return [...new Set(names)].sort();
}

describe('consumer install from packed tarballs', () => {
  let work: string;
  const tarballs = new Map<string, string>();

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-consumer-'));
    const packs = join(work, 'packs');
    mkdirSync(packs);
    for (const name of PUBLIC) {
      execFileSync('npx', [...PNPM, 'pack', '--pack-destination', packs], {
        cwd: join(ROOT, 'packages', name),
        stdio: 'pipe',
      });
    }
    for (const file of readdirSync(packs)) {
      const name = PUBLIC.find((p) => file.startsWith(`svc-${p}-`));
      if (name) tarballs.set(`@svc/${name}`, join(packs, file));
    }
  }, INSTALL_TIMEOUT_MS);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs every public package without build info', () => {
    expect([...tarballs.keys()].sort()).toEqual(PUBLIC.map((p) => `@svc/${p}`).sort());
    for (const tarball of tarballs.values()) {
      const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' });
      expect(files).toContain('package/LICENSE');
      expect(files).toContain('package/README.md');
      expect(files).not.toMatch(/tsbuildinfo|\.d\.ts\.map|\.test\.|\.contract\./);
    }
  });

  for (const manager of ['npm', 'pnpm'] as const) {
    it(
      `installs with ${manager} as the README says, compiles its example against the published types and answers its route`,
      async () => {
        const dir = join(work, manager);
        mkdirSync(dir);
        const server = tarballs.get('@svc/server') ?? '';
        // The packages name each other by version; point the ones @svc/server pulls in at their tarballs.
        const local = Object.fromEntries(
          [...tarballs]
            .filter(([name]) => name !== '@svc/server')
            .map(([name, file]) => [name, `file:${file}`]),
        );
        const npm = readmeNpmInstall();
        // The default modules: Import is on, so its library is installed as the README says.
        const excel = readmeNpmLine('exceljs@');
        const pnpm = readmePnpm();
        expect(pnpm.args).toEqual(expect.arrayContaining(excel));
        const readmeSettings = pnpm.settings.pnpm as Record<string, unknown>;
        writeFileSync(
          join(dir, 'package.json'),
          JSON.stringify({
            name: `svc-consumer-${manager}`,
            private: true,
            type: 'module',
            devDependencies: {
              typescript: catalogRange('typescript'),
              '@types/node': catalogRange('@types/node'),
            },
            overrides: local,
            pnpm: { overrides: local, ...(manager === 'pnpm' ? readmeSettings : {}) },
          }),
        );
        writeFileSync(
          join(dir, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
              target: 'ES2022',
              strict: true,
              skipLibCheck: true,
              types: ['node'],
            },
            files: ['main.ts'],
          }),
        );
        writeFileSync(join(dir, 'main.ts'), readmeExample());
        const withTarball = (args: string[]) => args.map((arg) => (arg === '@svc/server' ? server : arg));
        const install =
          manager === 'npm'
            ? ([
                'npm',
                [
                  'install',
                  ...withTarball(
                    npm.args.map((arg) => (arg.startsWith('better-sqlite3') ? npm.postgres : arg)),
                  ),
                  ...excel,
                  '--no-audit',
                  '--no-fund',
                  '--loglevel=error',
                ],
              ] as const)
            : (['npx', [...PNPM, 'add', ...withTarball(pnpm.args), '--reporter=silent']] as const);
        execFileSync(install[0], [...install[1]], { cwd: dir, stdio: 'pipe', timeout: INSTALL_TIMEOUT_MS });
        execFileSync(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: dir, stdio: 'pipe' });

        // Only the selected driver is installed: no SQL Server driver, no Azure SDK, no unselected native build.
        // The default modules use no BullMQ (in-process jobs) and no OpenID provider.
        for (const absent of [
          'mssql',
          'tedious',
          '@azure/identity',
          'mysql2',
          '@keyv/redis',
          'bullmq',
          'ioredis',
          'openid-client',
        ]) {
          expect(existsSync(join(dir, 'node_modules', absent)), absent).toBe(false);
        }
        let env: Record<string, string> = {};
        let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
        if (manager === 'npm') {
          expect(existsSync(join(dir, 'node_modules', 'better-sqlite3'))).toBe(false);
          // The default dialect's driver is missing: start-up names the package to install.
          const missing = startFailure(dir);
          expect(missing.output).toMatch(/needs the npm package "better-sqlite3"/);
          expect(missing.output).toContain('npm install better-sqlite3@12');
          database = await createTestDatabase('PostgreSQL');
          env = {
            Service__Database__DbType: 'PostgreSQL',
            Service__Database__ConnectionString: database.connectionString,
          };
        }
        const app = await startApp(dir, env);
        try {
          const res = await fetch(`${app.url}/api/v1/shop/hello`);
          expect(res.status).toBe(200);
          expect(await res.json()).toEqual({ code: 0, msgKey: 'common.success', data: 'hi' });
          const codes = (await (await fetch(`${app.url}/api/v1/meta/error-codes`)).json()) as {
            data: { code: number }[];
          };
          expect(codes.data.map((c) => c.code)).toContain(60101);
        } finally {
          const exited = new Promise((done) => app.child.once('exit', done));
          app.child.kill('SIGTERM');
          await exited;
          await database?.drop();
        }
        if (manager === 'pnpm') {
          // A major that needs a newer Node.js (13 needs 22): refused before it is loaded, never a crash.
          execFileSync(
            'npx',
            [...PNPM, 'add', 'better-sqlite3@13', '--ignore-scripts', '--reporter=silent'],
            {
              cwd: dir,
              stdio: 'pipe',
              timeout: INSTALL_TIMEOUT_MS,
            },
          );
          const refused = startFailure(dir);
          expect(refused.signal, refused.output).toBeNull();
          expect(refused.status, refused.output).toBe(1);
          expect(refused.output).toMatch(/the installed "better-sqlite3" 13\.\d+\.\d+ is not supported/);
          expect(refused.output).toContain('supports better-sqlite3 ^12');
          expect(refused.output).toContain('pnpm add better-sqlite3@12');
        }
      },
      INSTALL_TIMEOUT_MS + 60_000,
    );
  }
  it(
    'installs for login and administration alone without the module libraries, refuses a module without its library, logs in, and prints its footprint',
    async () => {
      const dir = join(work, 'footprint');
      mkdirSync(dir);
      const local = Object.fromEntries(
        [...tarballs]
          .filter(([name]) => name !== '@svc/server')
          .map(([name, file]) => [name, `file:${file}`]),
      );
      const pnpm = readmePnpm();
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          name: 'svc-consumer-footprint',
          private: true,
          type: 'module',
          pnpm: { overrides: local, ...(pnpm.settings.pnpm as Record<string, unknown>) },
        }),
      );
      // A host as plain JavaScript: no compiler in the footprint.
      writeFileSync(
        join(dir, 'main.js'),
        [
          "import { createServer, listen } from '@svc/server';",
          'const server = await createServer();',
          'const running = await listen(server, server.deps.logger);',
          "process.once('SIGTERM', () => running.shutdown().then(() => process.exit(0)));",
          '',
        ].join('\n'),
      );
      // The README's pnpm line without the libraries of the modules this host turns off.
      const args = pnpm.args
        .filter((arg) => !MODULE_LIBRARIES.some((lib) => arg.startsWith(`${lib}@`)))
        .map((arg) => (arg === '@svc/server' ? (tarballs.get('@svc/server') ?? '') : arg));
      execFileSync('npx', [...PNPM, 'add', ...args, '--reporter=silent'], {
        cwd: dir,
        stdio: 'pipe',
        timeout: INSTALL_TIMEOUT_MS,
      });

      const packages = pnpmPackages(dir);
      expect(packages.some((p) => p.startsWith('better-sqlite3@'))).toBe(true);
      for (const lib of MODULE_LIBRARIES) {
        expect(
          packages.filter((p) => p.startsWith(`${lib}@`)),
          lib,
        ).toEqual([]);
        expect(existsSync(join(dir, 'node_modules', lib)), lib).toBe(false);
      }

      // A module turned on without its library: refused before the database, naming the package to install.
      const onlyLoginAndAdmin = Object.fromEntries(
        API_MODULES.map((module, i) => [`Service__Api__DisabledModules__${i}`, module]),
      );
      const allBut = (module: string) =>
        Object.fromEntries(
          API_MODULES.filter((m) => m !== module).map((m, i) => [`Service__Api__DisabledModules__${i}`, m]),
        );
      const refusals = [
        { env: allBut('Import'), pkg: 'exceljs', spec: 'exceljs@4' },
        {
          // The library is needed once the deploy floor turns passkeys on.
          env: {
            ...allBut('Passkey'),
            Service__Security__Passkey__Enabled: 'true',
            Service__Security__Passkey__RpId: 'localhost',
          },
          pkg: '@simplewebauthn/server',
          spec: '@simplewebauthn/server@13',
        },
        {
          env: {
            ...allBut('Job'),
            Service__Jobs__Engine: 'BullMQ',
            Service__Cache__Provider: 'Redis',
            Service__Cache__Redis__Configuration: 'redis://127.0.0.1:6379',
          },
          pkg: 'bullmq',
          spec: 'bullmq@6',
        },
        {
          env: {
            ...allBut('ExternalAuth'),
            Service__ExternalAuth__Oidc__0__Code: 'corp',
            Service__ExternalAuth__Oidc__0__Authority: 'https://idp.example.com',
            Service__ExternalAuth__Oidc__0__ClientId: 'svc',
          },
          pkg: 'openid-client',
          spec: 'openid-client@6',
        },
      ];
      for (const refusal of refusals) {
        const failed = startFailure(dir, refusal.env);
        expect(failed.status, failed.output).toBe(1);
        expect(failed.output).toContain(`needs the npm package "${refusal.pkg}"`);
        expect(failed.output).toContain(`npm install ${refusal.spec}`);
      }

      const password = 'Footprint#Pass2345';
      const app = await startApp(dir, { ...onlyLoginAndAdmin, Service__Seed__AdminPassword: password });
      try {
        const login = (await (
          await fetch(`${app.url}/api/v1/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ account: 'superAdmin', password }),
          })
        ).json()) as { code: number; data: { accessToken: string } | null };
        expect(login.code, JSON.stringify(login)).toBe(0);
        const authorization = `Bearer ${login.data?.accessToken}`;
        const roles = await fetch(`${app.url}/api/v1/sys/role/page?pageIndex=1&pageSize=10`, {
          headers: { authorization },
        });
        expect(roles.status).toBe(200);
        expect(((await roles.json()) as { code: number }).code).toBe(0);
        // A module that is off has no route.
        expect((await fetch(`${app.url}/api/v1/sys/job/page`, { headers: { authorization } })).status).toBe(
          404,
        );
      } finally {
        const exited = new Promise((done) => app.child.once('exit', done));
        app.child.kill('SIGTERM');
        await exited;
      }

      const kb = Number(
        execFileSync('du', ['-sk', join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0],
      );
      const mb = Math.round(kb / 1024);
      console.log(
        `Footprint of a login-and-administration consumer on SQLite (pnpm): node_modules ${mb} MB, ${packages.length} packages`,
      );
      expect(mb).toBeGreaterThan(0);
    },
    INSTALL_TIMEOUT_MS + 60_000,
  );
});

/**
 * The packages as a consumer gets them: every public package packed to a tarball (`pnpm pack`, which runs
 * `prepack`), installed into an empty app outside the workspace with npm and with pnpm, the README's "Using it in
 * your own host" example taken from the README text itself, compiled with strict TypeScript against the published
 * types, started, and its route called. Fails when a tarball misses a file, a dependency is undeclared, the
 * published types do not compile, or the README example drifted from the API.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PUBLIC = ['kernel', 'data', 'security', 'logging', 'http', 'server'] as const;
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
async function startApp(dir: string): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['main.js'], {
    cwd: dir,
    env: {
      ...process.env,
      ASPNETCORE_ENVIRONMENT: 'Development',
      ASPNETCORE_URLS: `http://127.0.0.1:${port}`,
      ASPNETCORE_CONTENTROOT: dir,
      NO_COLOR: '1',
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
      `installs with ${manager}, compiles the README example against the published types and answers its route`,
      async () => {
        const dir = join(work, manager);
        mkdirSync(dir);
        const local = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
        writeFileSync(
          join(dir, 'package.json'),
          JSON.stringify({
            name: `svc-consumer-${manager}`,
            private: true,
            type: 'module',
            dependencies: { ...local, 'better-sqlite3': catalogRange('better-sqlite3') },
            devDependencies: {
              typescript: catalogRange('typescript'),
              '@types/node': catalogRange('@types/node'),
            },
            // The packages name each other by version; point every one at its tarball.
            overrides: local,
            pnpm: { overrides: local, onlyBuiltDependencies: ['better-sqlite3'] },
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
        const install =
          manager === 'npm'
            ? (['npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']] as const)
            : (['npx', [...PNPM, 'install', '--reporter=silent']] as const);
        execFileSync(install[0], [...install[1]], { cwd: dir, stdio: 'pipe', timeout: INSTALL_TIMEOUT_MS });
        execFileSync(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: dir, stdio: 'pipe' });

        const app = await startApp(dir);
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
        }
      },
      INSTALL_TIMEOUT_MS + 60_000,
    );
  }
});

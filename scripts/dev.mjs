#!/usr/bin/env node
/**
 * `pnpm dev`: build the workspace with visible progress (the first build takes about a minute on a small machine),
 * then run the reference host in Development. Ctrl-C stops the host gracefully and ends with exit code 0, so pnpm
 * prints no error for it.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let child;
let stopping = false;
// Ctrl-C reaches the whole process group: the host shuts down gracefully on its own copy of SIGINT (a second one
// would cut its drain short), so this script only waits. A SIGTERM is sent to this process alone: pass it on.
process.on('SIGINT', () => {
  stopping = true;
});
process.on('SIGTERM', () => {
  stopping = true;
  if (child && child.exitCode === null) child.kill('SIGTERM');
});

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    child = spawn(command, args, {
      cwd: options.cwd ?? root,
      stdio: options.stdio ?? 'inherit',
      env: options.env ?? process.env,
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    options.onStart?.(child);
  });
}

const started = Date.now();
console.log(
  'svc dev: building the packages (the first build takes about a minute; later ones are incremental)…',
);
let built = 0;
const buildCode = await run(process.execPath, [tsc, '-b', '--verbose', 'apps/host'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  onStart: (c) =>
    c.stdout.on('data', (chunk) => {
      for (const line of chunk.toString().split('\n')) {
        const project = /Building project '([^']+)'/.exec(line)?.[1];
        if (project) {
          built += 1;
          console.log(`svc dev:   building ${project.replace(`${root}/`, '').replace('/tsconfig.json', '')}`);
        } else if (/error TS\d+/.test(line)) console.log(line);
      }
    }),
});
if (stopping) process.exit(0);
if (buildCode !== 0) {
  console.error('svc dev: the build failed (see the errors above).');
  process.exit(buildCode);
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(built > 0 ? `svc dev: built ${built} project(s) in ${seconds} s.` : 'svc dev: up to date.');

// The console (apps/web + packages/web) the host serves at `/` in Development: rebuilt only when a source is
// newer than the last build (a build takes a few seconds).
const newest = (path) => {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
};
const consoleIndex = join(root, 'apps/web/dist/index.html');
const consoleSources = ['packages/web/src', 'apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts'];
const consoleBuilt = existsSync(consoleIndex) ? statSync(consoleIndex).mtimeMs : 0;
if (consoleSources.some((p) => newest(join(root, p)) > consoleBuilt)) {
  console.log('svc dev: building the console (apps/web)…');
  const vite = join(root, 'apps/web/node_modules/vite/bin/vite.js');
  const consoleCode = await run(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: join(root, 'apps/web'),
  });
  if (stopping) process.exit(0);
  if (consoleCode !== 0) {
    console.error('svc dev: the console build failed (see the errors above).');
    process.exit(consoleCode);
  }
}

const hostCode = await run(process.execPath, ['apps/host/dist/main.js'], {
  env: { ...process.env, ASPNETCORE_ENVIRONMENT: process.env.ASPNETCORE_ENVIRONMENT ?? 'Development' },
});
process.exit(stopping ? 0 : hostCode);

/**
 * E2E fixtures: the console built by `vite build` and the built reference host serving it from its web root, on
 * a throw-away content root (SQLite, in-process cache). Killed and removed by `stop()`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const HOST_MAIN = fileURLToPath(new URL('../../../host/dist/main.js', import.meta.url));
export const ADMIN_PASSWORD = 'E2e-Admin-Pass-1';

/**
 * Builds the console (a few seconds) into a directory of its own, so that E2E files running in parallel never
 * share one; the test runs against exactly what the host will serve. Returns the directory.
 */
export function buildConsole(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'svc-console-dist-'));
  execFileSync(
    process.execPath,
    [
      join(WEB_ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--outDir',
      outDir,
      '--emptyOutDir',
    ],
    // A production build, as users get it: vitest's NODE_ENV=test would otherwise bundle Vue's development build.
    { cwd: WEB_ROOT, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } },
  );
  return outDir;
}

export interface Host {
  url: string;
  /** What the host wrote to stdout and stderr so far (for a failing test's message). */
  log: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the built host on a throw-away content root serving the console from `webRoot`; `env` adds or
 * overrides host settings (e.g. `Service__Realtime__Enabled`).
 */
export async function startHost(webRoot: string, env: Record<string, string> = {}): Promise<Host> {
  if (!existsSync(HOST_MAIN))
    throw new Error('apps/host/dist/main.js is missing: build the workspace first.');
  const root = mkdtempSync(join(tmpdir(), 'svc-console-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [HOST_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      ASPNETCORE_ENVIRONMENT: 'Development',
      ASPNETCORE_CONTENTROOT: root,
      ASPNETCORE_URLS: 'http://127.0.0.1:0',
      Service__Web__Enabled: 'true',
      Service__Web__RootPath: webRoot,
      Service__Seed__AdminPassword: ADMIN_PASSWORD,
      Service__Security__Password__Pbkdf2Iterations: '100000',
      Service__Security__RateLimit__Enabled: 'false',
      // The TOTP capability on: high-risk writes then need re-authentication (the dialog under test).
      Service__Security__Totp__Enabled: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let text = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start in 60 s:\n${text}`)), 60_000);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /Now listening on: (http:\/\/[\w.:[\]]+)/.exec(text);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    exited.then(() => reject(new Error(`host exited:\n${text}`)));
  });
  return {
    url,
    log: () => text,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(root, { recursive: true, force: true });
      rmSync(webRoot, { recursive: true, force: true });
    },
  };
}

/** What a page's init scripts are added to: a Playwright page or browser context. */
interface InitScriptTarget {
  addInitScript(script: () => void): Promise<unknown>;
}

/**
 * The console's defaults for a test browser: English, and no motion. Transitions and animations last 0 s, so a
 * dialog or drop-down is in place the moment it appears: a click during an entry transition was lost twice in
 * CI (a confirm button that stayed, a select whose menu never opened), and no wait on time can rule that out.
 * `{ chooseLanguage: false }` leaves the language to the browser (and to what the user picks on the page).
 */
export async function consoleDefaults(
  target: InitScriptTarget,
  { chooseLanguage = true }: { chooseLanguage?: boolean } = {},
): Promise<void> {
  if (chooseLanguage) await target.addInitScript(() => localStorage.setItem('svc.locale', 'en-US'));
  await target.addInitScript(() => {
    const still = () => {
      const style = document.createElement('style');
      style.textContent =
        '*,*::before,*::after{transition-duration:0s!important;transition-delay:0s!important;' +
        'animation-duration:0s!important;animation-delay:0s!important}';
      document.documentElement.appendChild(style);
    };
    if (document.documentElement) still();
    else document.addEventListener('DOMContentLoaded', still, { once: true });
  });
}

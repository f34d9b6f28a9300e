/**
 * The README's run command as a user types it: `pnpm dev` prints build progress before the host starts, serves
 * the console at `/`, and Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops the host
 * gracefully with exit code 0 and no pnpm error message (the host reports `Stopped.` after its drain).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('pnpm dev', () => {
  it('shows progress, serves, and ends quietly on Ctrl-C', async () => {
    const contentRoot = mkdtempSync(join(tmpdir(), 'svc-dev-'));
    try {
      const child = spawn('npx', ['-y', 'pnpm@10.34.9', 'dev'], {
        cwd: ROOT,
        detached: true, // its own process group, like a terminal's foreground job
        env: {
          ...process.env,
          ASPNETCORE_CONTENTROOT: contentRoot,
          ASPNETCORE_URLS: 'http://127.0.0.1:0',
          NO_COLOR: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      // npx (the README's way to get pnpm) may itself end on the signal; what runs below it must end cleanly.
      const exit = new Promise<string>((resolve) =>
        child.once('exit', (code, signal) =>
          resolve(code === 0 || signal === 'SIGINT' ? 'clean' : `${code}/${signal}`),
        ),
      );
      const url = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const listening = /Now listening on: (http:\/\/\S+)/.exec(output)?.[1];
          if (listening) resolve(listening);
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        exit.then((code) => reject(new Error(`pnpm dev exited with ${code} before listening:\n${output}`)));
      });
      expect(output).toMatch(/svc dev: building the packages/);
      expect(output).toMatch(/svc dev: (up to date|built \d+ project)/);
      expect(await (await fetch(`${url}/health`)).text()).toBe('Healthy');
      // The console is at `/` (and at any client route) beside the API (contract §10).
      for (const path of ['/', '/system/user']) {
        const page = await fetch(`${url}${path}`);
        expect(page.headers.get('content-type')).toContain('text/html');
        expect(await page.text()).toContain('<div id="app"></div>');
      }
      expect((await fetch(`${url}/api/v1/not-a-route`)).status).toBe(404);

      process.kill(-(child.pid as number), 'SIGINT');
      expect(await exit).toBe('clean');
      expect(output).toContain('Stopped.');
      expect(output).not.toMatch(/ELIFECYCLE|Command failed/);
    } finally {
      rmSync(contentRoot, { recursive: true, force: true });
    }
  }, 240_000);
});

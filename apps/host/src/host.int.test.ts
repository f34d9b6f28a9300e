/**
 * The reference host as a user runs it: the built `dist/main.js` in its own process, on a fresh content root
 * with the embedded defaults (SQLite, in-process cache, Development). First start, banner, samples, graceful
 * SIGTERM, restart without a second banner, and an operator-readable start-up failure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const API_KEY = 'h'.repeat(40);

interface Host {
  child: ChildProcess;
  url: string;
  output: () => string;
  exit: Promise<number | null>;
}

function startHost(contentRoot: string, env: Record<string, string> = {}): Promise<Host> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      ASPNETCORE_ENVIRONMENT: 'Development',
      ASPNETCORE_CONTENTROOT: contentRoot,
      ASPNETCORE_URLS: 'http://127.0.0.1:0',
      Service__Security__Password__Pbkdf2Iterations: '100000',
      Service__Security__ApiKey__Keys__0__Name: 'ci-job',
      Service__Security__ApiKey__Keys__0__Key: API_KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (d: Buffer) => {
    text += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    text += d.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${text}`)), 20_000);
    const poll = setInterval(() => {
      const match = /Now listening on: (http:\/\/\S+)/.exec(text);
      if (match?.[1]) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => text, exit });
      }
    }, 25);
    exit.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      if (!/Now listening on/.test(text)) reject(new Error(`host exited with ${code}:\n${text}`));
    });
  });
}

async function stop(host: Host): Promise<number | null> {
  host.child.kill('SIGTERM');
  return host.exit;
}

describe('reference host', () => {
  let root: string;
  let host: Host;
  let password: string;

  beforeAll(async () => {
    if (!existsSync(MAIN))
      throw new Error('apps/host/dist/main.js is missing: run `pnpm build` (or `pnpm typecheck`) first.');
    root = mkdtempSync(join(tmpdir(), 'svc-host-e2e-'));
    host = await startHost(root);
    password = /Password: (\S+)/.exec(host.output())?.[1] ?? '';
  });
  afterAll(async () => {
    if (host && host.child.exitCode === null) await stop(host);
    rmSync(root, { recursive: true, force: true });
  });

  it('prints the generated super-admin password once in a banner and serves the probes and docs', async () => {
    expect(password).toMatch(/^\S{16}$/);
    expect(host.output()).toContain('FIRST START');
    const health = await fetch(`${host.url}/health`);
    expect(await health.text()).toBe('Healthy');
    expect(health.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
    const missing = await fetch(`${host.url}/api/v1/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(await (await fetch(`${host.url}/health/ready`)).text()).toBe('Healthy');
    expect((await fetch(`${host.url}/openapi/v1.json`)).status).toBe(200);
    expect((await fetch(`${host.url}/scalar`)).status).toBe(200);
    expect(existsSync(join(root, 'data', 'svc.db'))).toBe(true);
    expect(existsSync(join(root, 'data', 'dev-jwt.key'))).toBe(true);
  });

  it('logs in with the printed password and mounts the samples in Development', async () => {
    const login = await fetch(`${host.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'superAdmin', password }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const fail = (await (await fetch(`${host.url}/api/v1/sample/fail`)).json()) as {
      code: number;
      msgKey: string;
    };
    expect(fail).toMatchObject({ code: 60001, msgKey: 'sample.failure' });
    const crash = await fetch(`${host.url}/api/v1/sample/crash`);
    expect(crash.status).toBe(500);
    expect(await crash.text()).not.toContain('Sample crash');
    const machine = await fetch(`${host.url}/api/v1/sample/machine`, { headers: { 'x-api-key': API_KEY } });
    expect(((await machine.json()) as { data: unknown }).data).toEqual({ name: 'ci-job', userId: null });
    const refused = await fetch(`${host.url}/api/v1/sample/machine`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(401);
    const either = await fetch(`${host.url}/api/v1/sample/either`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await either.json()) as { data: unknown }).data).toEqual({
      scheme: 'Bearer',
      name: 'superAdmin',
    });
    const bare = await fetch(`${host.url}/api/v1/sample/bare`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await bare.json()).toEqual({ value: 42 });
    const catalog = (await (await fetch(`${host.url}/api/v1/meta/error-codes`)).json()) as {
      data: { code: number; source: string }[];
    };
    expect(catalog.data).toContainEqual(expect.objectContaining({ code: 60001, source: 'SampleErrorCode' }));
  });

  it('stops on SIGTERM with exit code 0, then restarts without a second banner', async () => {
    expect(await stop(host)).toBe(0);
    expect(host.output()).toContain('Stopped.');
    host = await startHost(root);
    expect(host.output()).not.toContain('FIRST START');
    expect(host.output()).not.toContain(password);
    const login = await fetch(`${host.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'superAdmin', password }),
    });
    expect(((await login.json()) as { code: number }).code).toBe(0);
  });

  it('explains a start-up failure in one line, without a stack trace, and exits 1', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'svc-host-bad-'));
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        ASPNETCORE_ENVIRONMENT: 'Production',
        ASPNETCORE_CONTENTROOT: bad,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stderr?.on('data', (d: Buffer) => {
      text += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    rmSync(bad, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(text).toContain('Start-up failed: Service:Jwt:SecretKey is not set');
    expect(text).not.toMatch(/\n\s+at /);
  });
});

// The built reference host in its own process, for the benchmark scripts: Production on a throw-away content
// root, PBKDF2 at the floor and rate limiting off (the scripts measure other things), listening on a free
// loopback port. Every host started here is killed and every content root removed when the script exits.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const HOST_MAIN = fileURLToPath(new URL('../apps/host/dist/main.js', import.meta.url));
export const PASSWORD = 'Bench-Admin-Pass-1';

const children = new Set();
const roots = [];
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Stops with a clear message when the host has not been built. */
export function requireBuiltHost() {
  if (!existsSync(HOST_MAIN)) {
    console.error('apps/host/dist/main.js is missing: run `npx tsc -b apps/host` first.');
    process.exit(1);
  }
}

/**
 * Starts the built host; `env` adds or overrides settings, `contentRoot` reuses a root (a restart), `nodeArgs`
 * go before the script (V8 flags), `launch.wrapper` runs Node under another program (`['valgrind', …]`), given
 * `launch.startSeconds` to listen. Resolves with `{ child, url, root, lines, exited }` once it listens.
 */
export function startHost(env = {}, contentRoot = undefined, nodeArgs = [], launch = {}) {
  const root = contentRoot ?? mkdtempSync(join(tmpdir(), 'svc-bench-'));
  if (!contentRoot) roots.push(root);
  const [command, ...wrapperArgs] = [...(launch.wrapper ?? []), process.execPath];
  const startSeconds = launch.startSeconds ?? 60;
  const child = spawn(command, [...wrapperArgs, ...nodeArgs, HOST_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      ASPNETCORE_ENVIRONMENT: 'Production',
      ASPNETCORE_CONTENTROOT: root,
      ASPNETCORE_URLS: 'http://127.0.0.1:0',
      Service__Database__EnableCodeFirstInProduction: 'true',
      Service__Jwt__SecretKey: 'b'.repeat(64),
      Service__Seed__AdminPassword: PASSWORD,
      Service__Security__Password__Pbkdf2Iterations: '100000',
      Service__Security__RateLimit__Enabled: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines = [];
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  exited.then(() => children.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`host did not start in ${startSeconds} s`)),
      startSeconds * 1000,
    );
    const onLine = (line) => {
      lines.push(line);
      const match = /Now listening on: (http:\/\/[\w.:[\]]+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], root, lines, exited });
      }
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`host exited (${code}):\n${lines.join('\n')}`));
    });
  });
}

const testDatabases = [];

/**
 * Settings for a host on a fresh database: SQLite in the host's own content root, or a new test database on the
 * PostgreSQL or MySQL test server (`SVC_TEST_PG_URL` / `SVC_TEST_MYSQL_URL`), dropped by {@link dropTestDatabases}.
 */
export async function freshDatabaseEnv(dbType) {
  if (dbType === 'Sqlite') return { Service__Database__DbType: 'Sqlite' };
  const testing = await import('../packages/data/dist/testing/index.js');
  const test = await testing.createTestDatabase(dbType);
  testDatabases.push(test);
  return { Service__Database__DbType: dbType, Service__Database__ConnectionString: test.connectionString };
}

/** Drops the databases {@link freshDatabaseEnv} made (call before exiting; hosts stopped first). */
export async function dropTestDatabases() {
  for (const test of testDatabases.splice(0)) await test.drop().catch(() => {});
}

/** SIGTERM (graceful) and wait for the exit. */
export async function stopHost(host) {
  host.child.kill('SIGTERM');
  await host.exited;
}

/** Tracks another child process for the kill at exit (load generators). */
export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** A content root removed at exit, for scripts that make their own. */
export function tempRoot(prefix) {
  const root = mkdtempSync(join(tmpdir(), prefix));
  roots.push(root);
  return root;
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds (utime + stime, all threads) a process has used so far, from /proc (Linux). */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Waits (at most 20 s) until the process uses at most one clock tick per 200 ms: its in-flight work is done. */
export async function untilIdle(pid) {
  let last = cpuSeconds(pid);
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = cpuSeconds(pid);
    if (now - last <= 1 / TICKS_PER_SECOND) return;
    last = now;
  }
}

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Signs in to a host started here as the seeded super admin; answers the access token. */
export async function loginToken(host) {
  const login = await fetch(`${host.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
  }).then((r) => r.json());
  const token = login.data?.accessToken;
  if (!token) throw new Error(`login failed: ${JSON.stringify(login)}`);
  return token;
}

/**
 * The update of bench/oplog.mjs, the authenticated write: a position of its own, created on `host`, and
 * the request that updates it with the same body every time (`PUT /api/v1/sys/position/{id}`, a path parameter, a
 * validated JSON body, one row updated). `remark` names the benchmark. Answers `{ url, method, headers, body }`.
 */
export async function positionUpdate(host, token, remark) {
  const authorization = `Bearer ${token}`;
  const created = await fetch(`${host.url}/api/v1/sys/position`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench position', code: 'bench_position' }),
  }).then((r) => r.json());
  const id = created.data?.id;
  if (!id) throw new Error(`position not created: ${JSON.stringify(created)}`);
  return {
    url: `${host.url}/api/v1/sys/position/${id}`,
    method: 'PUT',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench position', sort: 10, remark }),
  };
}

/** Sends `count` requests like `target` over `connections` loops, each waiting for its answer; throws unless all were 200. */
export async function sendEach(target, count, connections) {
  let left = count;
  const failures = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (left > 0) {
        left--;
        const res = await fetch(target.url, {
          method: target.method,
          headers: target.headers,
          body: target.body,
        });
        await res.arrayBuffer();
        if (res.status !== 200) failures.push(res.status);
      }
    }),
  );
  if (failures.length > 0) throw new Error(`${failures.length} requests failed: ${failures.slice(0, 5)}`);
}

#!/usr/bin/env node
// Outage timings (issue 11), against the built packages: two reference hosts share a private PostgreSQL
// cluster and a private redis-server (the fault harness of @svc/data/testing, spare ports; the shared test
// servers are never touched). A steady stream of authenticated reads (GET /api/v1/personal/profile, a fixed
// number in flight, alternating hosts) runs while each fault is injected:
//  1. database stop: how long after the stop requests start answering 503/50003, the slowest answer during
//     the outage (goal: about the acquire timeout, never a hang), answers by status, and how long after the
//     restart until both hosts answer 200 again and readiness says Healthy (no host restart);
//  2. Redis stop: authenticated requests refused during the outage (goal 0), the slowest answer, readiness
//     during it (goal 200 Degraded), and how long after the restart until both hosts report Healthy.
// Noisy machines: compare numbers of one run only.
//
//   node bench/faults-outages.mjs [--outage 5] [--inflight 16] [--timeout 2]
//
// The scenarios are also exported (`outageScenarios`: `db-stop`, `redis-stop`, each answering lines to print),
// so bench/faults.mjs can list them in its SCENARIOS:
//   import { outageScenarios } from './faults-outages.mjs';  …  const SCENARIOS = { …, ...outageScenarios };
//
// Needs a built tree (`npx tsc -b apps/host`), PostgreSQL server binaries and redis-server.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HOST_MAIN = fileURLToPath(new URL('../apps/host/dist/main.js', import.meta.url));
const TESTING = new URL('../packages/data/dist/testing/index.js', import.meta.url);
const PASSWORD = 'Bench-Admin-Pass-1';

/** Defaults of the scenarios; the command line overrides them when this file is run directly. */
const settings = { outageMs: 5_000, inflight: 16, timeoutSeconds: 2 };

const children = new Set();
const roots = [];
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function startHost(pgUrl, redisUrl) {
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-faults-'));
  roots.push(root);
  const child = spawn(process.execPath, [HOST_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      ASPNETCORE_ENVIRONMENT: 'Production',
      ASPNETCORE_CONTENTROOT: root,
      ASPNETCORE_URLS: 'http://127.0.0.1:0',
      Service__Database__DbType: 'PostgreSQL',
      Service__Database__ConnectionString: pgUrl,
      Service__Database__EnableCodeFirstInProduction: 'true',
      Service__Database__AcquireTimeoutSeconds: String(settings.timeoutSeconds),
      Service__Database__CommandTimeoutSeconds: String(settings.timeoutSeconds),
      Service__Cache__Provider: 'Redis',
      Service__Cache__Redis__Configuration: redisUrl,
      Service__Jwt__SecretKey: 'b'.repeat(64),
      Service__Seed__AdminPassword: PASSWORD,
      Service__Security__Password__Pbkdf2Iterations: '100000',
      Service__Security__RateLimit__Enabled: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('host did not start in 60 s')), 60_000);
    const onLine = (line) => {
      const match = /Now listening on: (http:\/\/[\w.:[\]]+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('exit', (code) => reject(new Error(`host exited (${code})`)));
  });
}

/** Keeps `inflight` requests running against the hosts and records each answer with its times. */
function stream(hosts, token) {
  const answers = [];
  let running = true;
  let turn = 0;
  async function worker() {
    while (running) {
      const host = hosts[turn++ % hosts.length];
      const started = performance.now();
      let status = 0;
      let code;
      try {
        const res = await fetch(`${host.url}/api/v1/personal/profile`, {
          headers: { authorization: `Bearer ${token}` },
        });
        status = res.status;
        code = (await res.json()).code;
      } catch {
        status = -1;
      }
      answers.push({ host: host.url, started, ended: performance.now(), status, code });
    }
  }
  const workers = Array.from({ length: settings.inflight }, worker);
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

const ready = async (host) => {
  const res = await fetch(`${host.url}/health/ready`);
  return `${res.status} ${await res.text()}`;
};

async function until(check) {
  const started = performance.now();
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
  return performance.now() - started;
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = (value) => `${Math.round(value)} ms`;

function summary(answers, from, to) {
  const during = answers.filter((a) => a.started >= from && a.started < to);
  const byStatus = {};
  for (const a of during)
    byStatus[`${a.status}/${a.code ?? '-'}`] = (byStatus[`${a.status}/${a.code ?? '-'}`] ?? 0) + 1;
  const slowest = Math.max(0, ...during.map((a) => a.ended - a.started));
  return { count: during.length, byStatus, slowest };
}

/** Starts the private servers and two hosts, runs `body`, and tears everything down. */
async function withCluster(body) {
  if (!existsSync(HOST_MAIN))
    throw new Error('apps/host/dist/main.js is missing: run `npx tsc -b apps/host`');
  const testing = await import(TESTING);
  const [pgSetup, redisSetup] = await Promise.all([
    testing.startPrivatePostgres(),
    testing.startPrivateRedis({ persistent: true }),
  ]);
  try {
    if (pgSetup.skip || redisSetup.skip) return { skipped: pgSetup.skip ?? redisSetup.skip };
    const [pg, redis] = [pgSetup.server, redisSetup.server];
    const a = await startHost(pg.url, redis.url);
    const b = await startHost(pg.url, redis.url);
    const hosts = [a, b];
    try {
      const login = await fetch(`${a.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
      });
      const token = (await login.json()).data.accessToken;
      return await body({ pg, redis, hosts, token });
    } finally {
      for (const host of hosts) {
        host.child.kill('SIGTERM');
        children.delete(host.child);
      }
    }
  } finally {
    await Promise.allSettled([pgSetup.server?.destroy(), redisSetup.server?.destroy()]);
  }
}

/** Database stop under a steady authenticated read load on two hosts. */
function scenarioDbStop() {
  return withCluster(async ({ pg, hosts, token }) => {
    const load = stream(hosts, token);
    await pause(1000);
    const dbStop = performance.now();
    await pg.stop();
    const first503 = await until(async () =>
      load.answers.some((x) => x.started >= dbStop && x.status === 503),
    );
    const readyDuring = await Promise.all(hosts.map(ready));
    await pause(settings.outageMs);
    const dbStart = performance.now();
    await pg.start();
    const back = await until(
      async () =>
        hosts.every((h) =>
          load.answers.some((x) => x.host === h.url && x.started >= dbStart && x.status === 200),
        ) && (await Promise.all(hosts.map(ready))).every((r) => r === '200 Healthy'),
    );
    await load.stop();
    const db = summary(load.answers, dbStop, dbStart);
    return {
      setup: `${settings.outageMs / 1000} s outage, timeouts ${settings.timeoutSeconds} s, ${settings.inflight} in flight`,
      first503: `first 503 after the stop: ${ms(first503)}`,
      slowest: `slowest answer during the outage: ${ms(db.slowest)} (goal: about the acquire timeout)`,
      answers: `answers during the outage: ${JSON.stringify(db.byStatus)} (goal: all 503/50003)`,
      ready: `readiness during the outage: ${readyDuring.join(', ')}`,
      recovery: `from restart to 200 on both hosts and Healthy: ${ms(back)} (no host restart)`,
    };
  });
}

/** Redis stop under the same load. */
function scenarioRedisStop() {
  return withCluster(async ({ redis, hosts, token }) => {
    const load = stream(hosts, token);
    await pause(1000);
    const redisStop = performance.now();
    await redis.stop();
    await pause(200);
    const readyDegraded = await Promise.all(hosts.map(ready));
    await pause(settings.outageMs);
    const redisStart = performance.now();
    await redis.start();
    const healthy = await until(async () =>
      (await Promise.all(hosts.map(ready))).every((r) => r === '200 Healthy'),
    );
    await load.stop();
    const cache = summary(load.answers, redisStop, redisStart);
    const refused = Object.entries(cache.byStatus)
      .filter(([key]) => key !== '200/0')
      .reduce((sum, [, n]) => sum + n, 0);
    return {
      setup: `${settings.outageMs / 1000} s outage, ${settings.inflight} in flight`,
      refused: `authenticated requests refused: ${refused} of ${cache.count} (goal 0)`,
      slowest: `slowest answer during the outage: ${ms(cache.slowest)}`,
      ready: `readiness during the outage: ${readyDegraded.join(', ')} (goal 200 Degraded)`,
      recovery: `from restart to Healthy on both hosts: ${ms(healthy)}`,
    };
  });
}

/** Scenario name → run (answers lines to print), the shape of bench/faults.mjs's SCENARIOS. */
export const outageScenarios = {
  'db-stop': scenarioDbStop,
  'redis-stop': scenarioRedisStop,
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      outage: { type: 'string', default: '5' },
      inflight: { type: 'string', default: '16' },
      timeout: { type: 'string', default: '2' },
    },
  });
  settings.outageMs = Number(args.outage) * 1000;
  settings.inflight = Number(args.inflight);
  settings.timeoutSeconds = Number(args.timeout);
  for (const [name, run] of Object.entries(outageScenarios)) {
    process.stderr.write(`${name}…\n`);
    try {
      const result = await run();
      console.log(`\n${name}:`);
      for (const [key, value] of Object.entries(result)) console.log(`  ${key.padEnd(9)} ${value}`);
    } catch (error) {
      console.log(`\n${name}: failed: ${error.message}`);
    }
  }
  process.exit(0);
}

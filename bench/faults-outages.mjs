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
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PASSWORD, requireBuiltHost, startHost as startBenchHost } from './host.mjs';

const TESTING = new URL('../packages/data/dist/testing/index.js', import.meta.url);

/** Defaults of the scenarios; the command line overrides them when this file is run directly. */
const settings = { outageMs: 5_000, inflight: 16, timeoutSeconds: 2 };

function startHost(pgUrl, redisUrl) {
  return startBenchHost({
    Service__Database__DbType: 'PostgreSQL',
    Service__Database__ConnectionString: pgUrl,
    Service__Database__AcquireTimeoutSeconds: String(settings.timeoutSeconds),
    Service__Database__CommandTimeoutSeconds: String(settings.timeoutSeconds),
    Service__Cache__Provider: 'Redis',
    Service__Cache__Redis__Configuration: redisUrl,
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
  requireBuiltHost();
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

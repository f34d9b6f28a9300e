#!/usr/bin/env node
// Operation-log benchmark (issue 6), against the built packages:
//  1. Throughput of an authenticated write (POST /api/v1/sys/cache/rebuild-portal, a cheap route, so the
//     op-log share is as large as it gets) on the reference host with the asynchronous operation log on versus
//     off (`Service__Logging__OpLog__Enabled`), each host in its own process on 127.0.0.1, loaded by autocannon
//     from a separate process (bench/load.mjs). Goal: on >= 90 % of off.
//  2. Sustained op-log inserts per second per dialect: the writer (bounded queue, 200-row batches) over the
//     op-log repository on a fresh SQLite file, PostgreSQL and MariaDB database (the test servers,
//     SVC_TEST_PG_URL / SVC_TEST_MYSQL_URL), timed from the first write to the end of the drain.
// Prints ratios; noisy machines: compare numbers of one run only.
//
//   node bench/oplog.mjs [--duration 10] [--connections 50] [--rows 20000] [--dialects Sqlite,PostgreSQL,MySql]
//
// Needs a built tree (`npx tsc -b apps/host`).
import { fork } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PASSWORD, requireBuiltHost, startHost as startBenchHost, track } from './host.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const GOAL = 0.9;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rows: { type: 'string', default: '20000' },
    dialects: { type: 'string', default: 'Sqlite,PostgreSQL,MySql' },
  },
});
const seconds = Number(args.duration);
const connections = Number(args.connections);
const rows = Number(args.rows);
requireBuiltHost();

function startHost(opLogEnabled) {
  return startBenchHost({ Service__Logging__OpLog__Enabled: String(opLogEnabled) });
}

function load(options) {
  return new Promise((resolve, reject) => {
    const child = fork(join(HERE, 'load.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    track(child);
    child.on('message', (m) => (m.result ? resolve(m.result) : reject(new Error(m.error))));
    child.send(options);
  });
}

async function writeThroughput(opLogEnabled) {
  const host = await startHost(opLogEnabled);
  const login = await fetch(`${host.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
  });
  const token = (await login.json()).data.accessToken;
  const request = {
    url: `${host.url}/api/v1/sys/cache/rebuild-portal`,
    method: 'POST',
    // The route takes no body, so none is sent (a client of this action sends none either).
    headers: { authorization: `Bearer ${token}` },
    connections,
  };
  await load({ ...request, duration: 2 }); // warm-up
  process.stderr.write(
    `op log ${opLogEnabled ? 'on' : 'off'}: ${seconds} s at ${connections} connections…\n`,
  );
  const result = await load({ ...request, duration: seconds });
  host.child.kill('SIGTERM');
  await new Promise((r) => host.child.once('exit', r));
  return { rps: result.completed / result.seconds, p99: result.p99, statuses: result.statuses };
}

async function insertRate(dbType) {
  const data = await import('../packages/data/dist/index.js');
  const testing = await import('../packages/data/dist/testing/index.js');
  const logging = await import('../packages/logging/dist/index.js');
  const kernel = await import('../packages/kernel/dist/index.js');
  const test = await testing.createTestDatabase(dbType);
  const database = await data.openDatabase({
    dbType,
    connectionString: test.connectionString,
    contentRoot: tmpdir(),
  });
  try {
    await data.migrateDatabase(database);
    const repos = data.createRepositories(database);
    const writer = logging.createOpLogWriter({
      sink: repos.opLogs,
      logger: kernel.silentLogger,
      capacity: rows,
    });
    const param = logging.opLogParamText({ body: { name: 'x'.repeat(200), password: 'p' } }, 8192);
    const started = performance.now();
    for (let i = 0; i < rows; i++) {
      await writer.write({
        title: 'Bench',
        httpMethod: 'POST',
        path: '/api/v1/bench',
        paramJson: param,
        resultCode: 0,
        success: true,
        elapsedMs: 1,
        operatorId: 1,
        operatorName: 'bench',
        ip: '127.0.0.1',
        userAgent: 'bench',
        traceId: 'f'.repeat(32),
        createTime: new Date(),
      });
    }
    const left = await writer.drain(600_000);
    const ms = performance.now() - started;
    const stored = await repos.opLogs.count();
    return { rowsPerSecond: (left.written / ms) * 1000, stored, dropped: left.dropped };
  } finally {
    await database.close();
    await test.drop();
  }
}

const off = await writeThroughput(false);
const on = await writeThroughput(true);
const ratio = on.rps / off.rps;
console.log('\nAuthenticated write (POST /api/v1/sys/cache/rebuild-portal), SQLite, async op log:');
console.log(
  `  op log off: ${off.rps.toFixed(0)} req/s, p99 ${off.p99} ms, statuses ${JSON.stringify(off.statuses)}`,
);
console.log(
  `  op log on:  ${on.rps.toFixed(0)} req/s, p99 ${on.p99} ms, statuses ${JSON.stringify(on.statuses)}`,
);
console.log(
  `  on/off: ${(ratio * 100).toFixed(1)} % (goal >= ${GOAL * 100} %) ${ratio >= GOAL ? 'MET' : 'NOT MET'}`,
);

console.log(`\nSustained op-log inserts (${rows} rows through the writer, 200-row batches):`);
for (const dbType of args.dialects
  .split(',')
  .map((d) => d.trim())
  .filter(Boolean)) {
  try {
    const r = await insertRate(dbType);
    console.log(
      `  ${dbType.padEnd(10)} ${r.rowsPerSecond.toFixed(0)} rows/s (stored ${r.stored}, dropped ${r.dropped})`,
    );
  } catch (error) {
    console.log(`  ${dbType.padEnd(10)} skipped: ${error.message}`);
  }
}
process.exit(0);

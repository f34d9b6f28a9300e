#!/usr/bin/env node
// Operation-log benchmark (issue 6), against the built packages:
//  1. Throughput of authenticated writes on the reference host with the asynchronous operation log on versus
//     off (`Service__Logging__OpLog__Enabled`), on SQLite and on PostgreSQL (issue 16), for two writes
//     (`--writes`):
//       update  PUT /api/v1/sys/position/{id} with a JSON body: what an admin write is (path parameter, body
//               validated, masked and logged, one row updated), the issue's "authenticated write";
//       action  POST /api/v1/sys/cache/rebuild-portal without a body: a write that touches no table (it bumps a
//               counter in the cache), so the log's share is as large as it gets; reported as the worst case.
//     A pair of hosts runs at once, each in its own process on 127.0.0.1 on its own fresh database, loaded in turn
//     by autocannon from a separate process (bench/load.mjs); `--rounds` interleaved windows in all (off first in
//     even rounds, on first in odd ones), shared among `--pairs` pairs started one after the other (each process
//     optimises its own way, see writeThroughput); req/s and server CPU µs per request, medians. Goal: on >= 90 % of
//     off, judged on the median of the rounds' own on/off ratios (a drift of the machine within one round cancels
//     out in its ratio).
//  2. Sustained op-log inserts per second per dialect: the writer (bounded queue, 200-row batches) over the
//     op-log repository on a fresh SQLite file, PostgreSQL and MariaDB database (the test servers,
//     SVC_TEST_PG_URL / SVC_TEST_MYSQL_URL), timed from the first write to the end of the drain, and the CPU this
//     process spends per row: the floor of the log's cost, printed beside each write of part 1 on that dialect
//     (run first, so that part 1's summaries can show it).
// Prints ratios; noisy machines: compare numbers of one run only.
//
//   node bench/oplog.mjs [--duration 10] [--connections 50] [--rounds 6] [--pairs 3] [--warmup 10] [--host-dialects Sqlite,PostgreSQL]
//                        [--writes update,action] [--rows 20000] [--dialects Sqlite,PostgreSQL,MySql] [--rate N]
//                        [--node-arg=--max-semi-space-size=32 ...]
//
// Needs a built tree (`npx tsc -b apps/host`).
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  cpuSeconds,
  dropTestDatabases,
  freshDatabaseEnv,
  loginToken,
  median,
  positionUpdate,
  requireBuiltHost,
  startHost as startBenchHost,
  stopHost,
  track,
  untilIdle,
} from './host.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const GOAL = 0.9;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rows: { type: 'string', default: '20000' },
    dialects: { type: 'string', default: 'Sqlite,PostgreSQL,MySql' },
    // The hosts of the throughput comparison run on these (the issue's goal names SQLite and PostgreSQL).
    'host-dialects': { type: 'string', default: 'Sqlite,PostgreSQL' },
    writes: { type: 'string', default: 'update,action' },
    rounds: { type: 'string', default: '6' },
    // Host pairs the rounds are shared among (each pair started fresh and warmed up on its own).
    pairs: { type: 'string', default: '3' },
    // Requests per second of each window (autocannon's overall rate) instead of as many as the host answers: at a
    // rate below saturation the host's CPU per request is measured without the load generator crowding it, and
    // only the ratio by CPU means anything (both hosts answer the same rate).
    rate: { type: 'string' },
    // Seconds of load per host before the first round: V8 is still optimising the write path for the first
    // 6–9 s (hundreds of functions in the first 3 s, a handful after 9 s, `--trace-opt`), and a round that
    // measures compilation measures neither host.
    warmup: { type: 'string', default: '10' },
    // A V8 flag for both hosts of every pair (repeatable), e.g. `--node-arg=--max-semi-space-size=32`.
    'node-arg': { type: 'string', multiple: true, default: [] },
  },
});
const seconds = Number(args.duration);
const connections = Number(args.connections);
const rows = Number(args.rows);
const rounds = Number(args.rounds);
const pairs = Math.max(1, Math.min(Number(args.pairs), rounds));
const warmup = Number(args.warmup);
const rate = args.rate === undefined ? undefined : Number(args.rate);
if (rate !== undefined && !(rate >= 1))
  throw new Error('--rate must be at least 1 request per second (autocannon refuses less)');
requireBuiltHost();

function load(options) {
  return new Promise((resolve, reject) => {
    const child = fork(join(HERE, 'load.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    track(child);
    child.on('message', (m) => (m.result ? resolve(m.result) : reject(new Error(m.error))));
    child.send(options);
  });
}

/** The writes the benchmark can send: each answers the autocannon request for a host it has signed in to. */
const WRITES = {
  update: {
    label: 'PUT /api/v1/sys/position/{id}',
    // A position of its own, updated with the same body by every request (a steady-state UPDATE of one row).
    request: (host, token) => positionUpdate(host, token, 'Updated by bench/oplog.mjs'),
  },
  action: {
    label: 'POST /api/v1/sys/cache/rebuild-portal',
    async request(host, token) {
      // The route takes no body, so none is sent (a client of this action sends none either).
      return {
        url: `${host.url}/api/v1/sys/cache/rebuild-portal`,
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      };
    },
  },
};

/** Two fresh hosts on their own fresh databases, the op log off in one and on in the other, both signed in. */
async function hostPair(dbType, write) {
  return Promise.all(
    [false, true].map(async (enabled) => {
      const host = await startBenchHost(
        {
          ...(await freshDatabaseEnv(dbType)),
          Service__Logging__OpLog__Enabled: String(enabled),
        },
        undefined,
        args['node-arg'],
      );
      const token = await loginToken(host);
      const request = { ...(await write.request(host, token)), connections };
      return { enabled, host, request, runs: [] };
    }),
  );
}

/**
 * One window of load on one host: req/s, and CPU per request as the host's utime+stime (all threads, the writer's
 * inserts included) per request sent, read after it is idle again, so rows still queued at the end of the window
 * are paid inside it.
 */
async function window(h, dbType) {
  process.stderr.write(
    `${dbType}, op log ${h.enabled ? 'on' : 'off'}: ${seconds} s at ${connections} connections…\n`,
  );
  const pid = h.host.child.pid;
  const before = cpuSeconds(pid);
  const result = await load({
    ...h.request,
    duration: seconds,
    ...(rate === undefined ? {} : { overallRate: rate }),
  });
  await untilIdle(pid);
  return {
    rps: result.completed / result.seconds,
    // Per request answered: at a fixed rate autocannon counts requests it meant to send but did not as sent.
    cpuUs: ((cpuSeconds(pid) - before) * 1e6) / (rate === undefined ? result.sent : result.completed),
    p99: result.p99,
    statuses: result.statuses,
  };
}

/** The highest resident set the process has had (`VmHWM`), in MB: the young generation's size shows in it. */
const peakRssMb = (pid) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/**
 * `pairs` pairs of hosts in turn, each pair two hosts up at once and loaded in turn (its share of the `rounds`
 * interleaved windows), so that the drift of a shared machine stays out of each round's ratio. Several pairs
 * rather than one: V8 optimises each process its own way (which function got inlined where, which inline cache
 * went megamorphic first), and one process can run a few microseconds a request faster or slower than another of
 * the same build for its whole life; one pair measured that luck as much as the log (`--pairs 1` read 87–93 % for
 * the same build on one machine). Rounds alternate which host goes first.
 */
async function writeThroughput(dbType, write) {
  const rows = [];
  const runs = { off: [], on: [] };
  const perPair = [];
  const peakRss = { off: [], on: [] };
  let answered = 0;
  let logged = 0;
  for (let pair = 0; pair < pairs; pair++) {
    const hosts = await hostPair(dbType, write);
    try {
      for (const h of hosts) await load({ ...h.request, duration: warmup });
      const share = Math.floor(rounds / pairs) + (pair < rounds % pairs ? 1 : 0);
      const ratios = [];
      for (let round = 0; round < share; round++) {
        // Off first in even rounds, on first in odd ones: a host loaded right after the other one's window (a busy
        // database server, a warm or cold cache) is either host equally often.
        const order = (rows.length + round) % 2 === 0 ? hosts : [...hosts].reverse();
        const got = {};
        for (const h of order) got[h.enabled ? 'on' : 'off'] = await window(h, dbType);
        runs.off.push(got.off);
        runs.on.push(got.on);
        ratios.push({ byRate: got.on.rps / got.off.rps, byCpu: got.off.cpuUs / got.on.cpuUs });
      }
      rows.push(...ratios);
      perPair.push({
        byRate: median(ratios.map((r) => r.byRate)),
        byCpu: median(ratios.map((r) => r.byCpu)),
      });
      // The rows the logging host stored, against the writes it answered (a log that failed quietly would look cheap).
      const logging = hosts.find((h) => h.enabled);
      const page = await fetch(`${logging.host.url}/api/v1/sys/log/op/page?current=1&size=1`, {
        headers: { authorization: logging.request.headers.authorization },
      }).then((r) => r.json());
      logged += page.data?.total ?? 0;
      answered += runs.on.slice(-share).reduce((n, r) => n + (r.statuses['200'] ?? 0), 0);
      for (const h of hosts) peakRss[h.enabled ? 'on' : 'off'].push(peakRssMb(h.host.child.pid));
    } finally {
      await Promise.all(hosts.map((h) => stopHost(h.host)));
    }
  }
  // Each round's on/off ratio, then their median: a drift that slows both hosts in one round (the database
  // server's checkpoint, another process) moves that round's two numbers together and leaves its ratio.
  const ratios = {
    byRate: median(rows.map((r) => r.byRate)),
    byCpu: median(rows.map((r) => r.byCpu)),
  };
  const [off, on] = [runs.off, runs.on].map((list) => ({
    rps: median(list.map((r) => r.rps)),
    cpuUs: median(list.map((r) => r.cpuUs)),
    p99: median(list.map((r) => r.p99)),
    statuses: list.map((r) => JSON.stringify(r.statuses)).join(' '),
  }));
  return { off, on, ratios, perPair, peakRss, logged: { rows: logged, answered } };
}

/**
 * The writer over the op-log repository alone, on a fresh database: `rows` rows queued at once, then drained,
 * four times (the first pass warms the code up; the medians of the other three are answered).
 * Answers the sustained rate (wall time) and the CPU this process spent per row, building the rows included: what
 * storing a row costs without a request around it, the floor of what the log can cost a write.
 */
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
    // The row of the bodiless action above: no parameters, a time-ordered trace id as the host makes them.
    const row = () => ({
      title: 'Rebuild the portal cache',
      httpMethod: 'POST',
      path: '/api/v1/sys/cache/rebuild-portal',
      paramJson: null,
      resultCode: 0,
      success: true,
      elapsedMs: 1,
      operatorId: 1,
      operatorName: 'superAdmin',
      ip: '127.0.0.1',
      userAgent: null,
      traceId: kernel.traceIdAt(Date.now()),
      createTime: new Date(),
    });
    // Queued as the host queues them (`enqueue`), then drained; the first pass only warms the path up.
    const pass = async () => {
      for (let i = 0; i < rows; i++) {
        const r = row();
        if (!writer.enqueue(r)) await writer.write(r);
      }
      return writer.drain(600_000);
    };
    await pass();
    // Three measured passes, their medians (the machine drifts; one pass is ~0.1 s).
    const passes = [];
    for (let p = 0; p < 3; p++) {
      const writtenBefore = writer.stats().written;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const left = await pass();
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const written = left.written - writtenBefore;
      passes.push({
        rowsPerSecond: (written / ms) * 1000,
        cpuUsPerRow: (cpu.user + cpu.system) / written,
        left,
      });
    }
    const stored = await repos.opLogs.count();
    return {
      rowsPerSecond: median(passes.map((p) => p.rowsPerSecond)),
      cpuUsPerRow: median(passes.map((p) => p.cpuUsPerRow)),
      stored,
      dropped: passes.at(-1).left.dropped,
    };
  } finally {
    await database.close();
    await test.drop();
  }
}

const listOf = (text) =>
  text
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d && d !== 'none');
// The insert rates first: each host write's summary then shows the floor of its dialect, measured in this run.
const floors = new Map();
const insertLines = [];
for (const dbType of listOf(args.dialects)) {
  try {
    const r = await insertRate(dbType);
    floors.set(dbType, r.cpuUsPerRow);
    insertLines.push(
      `  ${dbType.padEnd(10)} ${r.rowsPerSecond.toFixed(0)} rows/s, ${r.cpuUsPerRow.toFixed(1)} CPU µs a row in this process (stored ${r.stored} over the four passes, dropped ${r.dropped})`,
    );
  } catch (error) {
    insertLines.push(`  ${dbType.padEnd(10)} skipped: ${error.message}`);
  }
}

for (const dbType of listOf(args['host-dialects']))
  for (const name of listOf(args.writes)) {
    const write = WRITES[name];
    if (!write) throw new Error(`unknown write ${name} (update, action)`);
    let result;
    try {
      result = await writeThroughput(dbType, write);
    } catch (error) {
      console.log(`\n${dbType}, ${name}: skipped (${error.message})`);
      continue;
    }
    const { off, on, ratios, perPair, peakRss, logged } = result;
    console.log(
      `\nAuthenticated write (${name}: ${write.label}), ${dbType}, async op log, medians of ${rounds} rounds over ${pairs} host pair(s):`,
    );
    for (const [label, m] of [
      ['off', off],
      ['on ', on],
    ]) {
      console.log(
        `  op log ${label}: ${m.rps.toFixed(0)} req/s, ${m.cpuUs.toFixed(0)} CPU µs/req, p99 ${m.p99} ms, statuses ${m.statuses}`,
      );
    }
    // Warm-up writes are logged too: at least one row per answered write of the rounds.
    console.log(
      `  rows in the log: ${logged.rows} (the rounds answered ${logged.answered} writes${logged.rows >= logged.answered ? '' : ': ROWS MISSING'})`,
    );
    const verdict = (x) => `${(x * 100).toFixed(1)} % ${x >= GOAL ? 'met' : 'MISSED'}`;
    console.log(
      // At a fixed rate both hosts answer the same rate: only the CPU ratio says anything.
      `  on/off, median of the rounds' ratios: ${rate === undefined ? `by req/s ${verdict(ratios.byRate)}, ` : ''}by CPU/req ${verdict(ratios.byCpu)} (goal >= ${GOAL * 100} %)`,
    );
    const pct = (x) => `${(x * 100).toFixed(1)} %`;
    console.log(
      // At a fixed rate only the CPU ratio says anything, as above.
      `  each pair's own median: ${rate === undefined ? `by req/s ${perPair.map((p) => pct(p.byRate)).join(', ')}; ` : ''}by CPU/req ${perPair.map((p) => pct(p.byCpu)).join(', ')}`,
    );
    console.log(
      `  (ratio of the medians above: by req/s ${((on.rps / off.rps) * 100).toFixed(1)} %, by CPU/req ${((off.cpuUs / on.cpuUs) * 100).toFixed(1)} %)`,
    );
    console.log(
      `  peak resident set of each host (MB): off ${peakRss.off.map((mb) => mb.toFixed(0)).join(', ')}; on ${peakRss.on.map((mb) => mb.toFixed(0)).join(', ')}`,
    );
    // The floor: a log that stores a row per write costs at least storing the row (the insert rate below, same
    // run). Against this write's own cost it is the best ratio any log of it could reach here.
    const floor = floors.get(dbType);
    if (floor !== undefined) {
      const best = off.cpuUs / (off.cpuUs + floor);
      console.log(
        `  the log costs ${(on.cpuUs - off.cpuUs).toFixed(1)} CPU µs a write; storing a row alone costs ${floor.toFixed(1)} (${dbType}, below): ` +
          `a log of this write could reach ${(best * 100).toFixed(1)} % at best${best < GOAL ? ', under the goal' : ''}`,
      );
    }
  }

console.log(
  `\nSustained op-log inserts (${rows} rows through the writer, 200-row batches, medians of 3 passes):`,
);
for (const line of insertLines) console.log(line);
await dropTestDatabases();
process.exit(0);

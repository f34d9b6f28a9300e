#!/usr/bin/env node
// Fault benchmark (issue 11), against the built reference host (`apps/host/dist/main.js`), each host in its own
// process on 127.0.0.1. Named scenarios, so further faults (database and Redis outages) are added as entries of
// SCENARIOS below:
//   uploads      RSS growth of the host under ten parallel 45 MB uploads (goal < 200 MB), SQLite.
//   oplog-table  The op-log table renamed away for --outage seconds under write load in the host's own
//                PostgreSQL database (the test server, SVC_TEST_PG_URL), then back; the host is stopped with
//                SIGTERM and restarted on the same content root. Counts answered writes and op-log rows
//                (goal: 0 answered writes without a row, 0 duplicates).
//   sigterm      Keep-alive clients writing in a loop, SIGTERM mid-load: requests cut (goal 0) and requests
//                sent on old connections after SIGTERM.
//
//   node bench/faults.mjs [--scenarios uploads,oplog-table,sigterm,db-stop,redis-stop] [--outage 2] [--uploads 10] [--upload-mb 45]
//
// Needs a built tree (`npx tsc -b apps/host`). Timings here are measurements, not assertions.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { outageScenarios } from './faults-outages.mjs';
import { PASSWORD, requireBuiltHost, startHost, stopHost } from './host.mjs';

const MIB = 1024 * 1024;

const { values: args } = parseArgs({
  options: {
    scenarios: { type: 'string', default: 'uploads,oplog-table,sigterm,db-stop,redis-stop' },
    outage: { type: 'string', default: '5' },
    uploads: { type: 'string', default: '10' },
    'upload-mb': { type: 'string', default: '45' },
  },
});
requireBuiltHost();

async function token(url) {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
  });
  return (await res.json()).data.accessToken;
}

/** Resident set size of a process in bytes (Linux). */
function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** One multipart upload of `size` bytes over a raw socket, sent from one reused 1 MiB block. */
function upload(url, bearer, size) {
  const { hostname, port } = new URL(url);
  const boundary = 'svc-bench-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.zip"\r\n` +
      'Content-Type: application/zip\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, async () => {
      const write = (data) => new Promise((ok) => (socket.write(data) ? ok() : socket.once('drain', ok)));
      await write(
        `POST /api/v1/sys/file/upload HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer ${bearer}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nConnection: close\r\n` +
          `Content-Length: ${head.length + size + tail.length}\r\n\r\n`,
      );
      await write(head);
      const block = Buffer.alloc(MIB, 0x5a);
      for (let sent = 0; sent < size; sent += MIB) await write(block.subarray(0, Math.min(MIB, size - sent)));
      await write(tail);
    });
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(/"code":(\d+)/.exec(answer)?.[1] ?? 'none'));
  });
}

async function scenarioUploads() {
  const host = await startHost({ Service__Upload__MaxSizeMb: '50' });
  const bearer = await token(host.url);
  const size = Number(args['upload-mb']) * MIB;
  const before = rssOf(host.child.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(host.child.pid));
  }, 20);
  const started = performance.now();
  const codes = await Promise.all(
    Array.from({ length: Number(args.uploads) }, () => upload(host.url, bearer, size)),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = rssOf(host.child.pid);
  await stopHost(host);
  const growth = (peak - before) / MIB;
  return {
    uploads: `${codes.length} x ${args['upload-mb']} MB, codes ${JSON.stringify(codes)}, ${seconds.toFixed(1)} s`,
    rss: `before ${(before / MIB).toFixed(0)} MB, peak ${(peak / MIB).toFixed(0)} MB, after ${(after / MIB).toFixed(0)} MB`,
    growth: `${growth.toFixed(0)} MB (goal < 200 MB) ${growth < 200 ? 'MET' : 'NOT MET'}`,
  };
}

/** Fires authenticated writes in a loop until `stop()`; counts answers by status. */
function writeLoad(url, bearer, connections, path = '/api/v1/sys/cache/rebuild-portal') {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const counts = { answered200: 0, other: 0, errors: 0, refused: 0, cut: 0, codes: {} };
  let running = true;
  const one = () =>
    new Promise((resolve) => {
      const req = request(`${url}${path}`, {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${bearer}` },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) counts.answered200++;
          else counts.other++;
          resolve();
        });
      });
      req.on('error', (error) => {
        counts.errors++;
        counts.codes[error.code ?? error.message] = (counts.codes[error.code ?? error.message] ?? 0) + 1;
        // Refused: a new connection after the listener closed (by design). Cut: a request that was sent and
        // lost its connection before an answer.
        if (error.code === 'ECONNREFUSED') counts.refused++;
        else counts.cut++;
        resolve();
      });
      req.end();
    });
  const loops = Array.from({ length: connections }, async () => {
    while (running) await one();
  });
  return {
    counts,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

async function scenarioOpLogTable() {
  const data = await import('../packages/data/dist/index.js');
  const testing = await import('../packages/data/dist/testing/index.js');
  const test = await testing.createTestDatabase('PostgreSQL');
  const env = {
    Service__Database__DbType: 'PostgreSQL',
    Service__Database__ConnectionString: test.connectionString,
  };
  let host = await startHost(env);
  const side = await data.openDatabase({
    dbType: 'PostgreSQL',
    connectionString: test.connectionString,
    contentRoot: host.root,
  });
  const sql = (text) => side.db.$client.unsafe(text);
  try {
    const bearer = await token(host.url);
    const load = writeLoad(host.url, bearer, 20);
    await new Promise((r) => setTimeout(r, 1000));
    await sql('ALTER TABLE sys_op_log RENAME TO sys_op_log_away');
    await new Promise((r) => setTimeout(r, Number(args.outage) * 1000));
    await sql('ALTER TABLE sys_op_log_away RENAME TO sys_op_log');
    await new Promise((r) => setTimeout(r, 1000));
    await load.stop();
    // Stop and start again on the same content root: whatever is still spilled is replayed at start.
    await stopHost(host);
    const spilledAtStop = host.lines.filter((l) => /spilled, not written/.test(l)).join(' ') || 'nothing';
    const firstRun = host.lines.filter((l) => /Service\.OpLog/.test(l));
    host = await startHost(env, host.root);
    const rowsOf = async () =>
      Number(
        (
          await sql(
            "select count(*)::int as n, count(distinct trace_id)::int as d from sys_op_log where path = '/api/v1/sys/cache/rebuild-portal'",
          )
        )[0].n,
      );
    let rows = 0;
    for (let i = 0; i < 100; i++) {
      rows = await rowsOf();
      if (rows >= load.counts.answered200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const [dup] = await sql(
      "select count(*)::int - count(distinct trace_id)::int as d from sys_op_log where path = '/api/v1/sys/cache/rebuild-portal'",
    );
    return {
      outage: `${args.outage} s with sys_op_log renamed away, 20 keep-alive writers`,
      answered: `${load.counts.answered200} writes answered 200 (${load.counts.other} other, ${load.counts.errors} socket errors)`,
      rows: `${rows} op-log rows, ${dup.d} duplicates; answered writes without a row: ${Math.max(0, load.counts.answered200 - rows)} (goal 0)`,
      shutdown: `spill at stop: ${spilledAtStop}`,
      live: firstRun.map((l) => /"msg":"([^"]+)"/.exec(l)?.[1] ?? l).join(' | ') || 'no failure seen',
      restart:
        host.lines.filter((l) => /replayed|spilled row/.test(l)).length > 0
          ? 'replayed the spill'
          : 'nothing left to replay',
    };
  } finally {
    await stopHost(host).catch(() => {});
    await side.close();
    await test.drop();
  }
}

async function scenarioSigterm() {
  const data = await import('../packages/data/dist/index.js');
  const testing = await import('../packages/data/dist/testing/index.js');
  const test = await testing.createTestDatabase('PostgreSQL');
  const host = await startHost({
    Service__Database__DbType: 'PostgreSQL',
    Service__Database__ConnectionString: test.connectionString,
    Service__Shutdown__DrainSeconds: '5',
  });
  const side = await data.openDatabase({
    dbType: 'PostgreSQL',
    connectionString: test.connectionString,
    contentRoot: host.root,
  });
  try {
    const bearer = await token(host.url);
    const load = writeLoad(host.url, bearer, 20);
    await new Promise((r) => setTimeout(r, 1500));
    const before = { ...load.counts };
    const sentAt = performance.now();
    host.child.kill('SIGTERM');
    await host.exited;
    const exitMs = performance.now() - sentAt;
    await load.stop();
    // Every write the server processed has its op-log row (drained or spilled at shutdown; the spill is not
    // replayed here, so it is counted from the log line). Processed but not answered = cut.
    const [row] = await side.db.$client.unsafe(
      "select count(*)::int as n from sys_op_log where path = '/api/v1/sys/cache/rebuild-portal'",
    );
    const spilled = Number(/(\d+) Operation-log row\(s\) were spilled/.exec(host.lines.join('\n'))?.[1] ?? 0);
    const processed = row.n + spilled;
    return {
      before: `${before.answered200} answered before SIGTERM`,
      after: `${load.counts.answered200 - before.answered200} answered after SIGTERM (Connection: close); new connections refused: ${load.counts.refused}`,
      cut: `processed but not answered: ${Math.max(0, processed - load.counts.answered200)} (goal 0)`,
      race: `${load.counts.cut} requests sent on a keep-alive socket as the server closed it, never received (${JSON.stringify(load.counts.codes)})`,
      exit: `process exited ${exitMs.toFixed(0)} ms after SIGTERM (drain limit 5000 ms)`,
    };
  } finally {
    await side.close();
    await test.drop();
  }
}

/** Scenario name → run (answers lines to print); the outage scenarios live in faults-outages.mjs. */
const SCENARIOS = {
  uploads: scenarioUploads,
  'oplog-table': scenarioOpLogTable,
  sigterm: scenarioSigterm,
  ...outageScenarios,
};

for (const name of args.scenarios
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)) {
  const run = SCENARIOS[name];
  if (!run) {
    console.log(`${name}: unknown scenario (${Object.keys(SCENARIOS).join(', ')})`);
    continue;
  }
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

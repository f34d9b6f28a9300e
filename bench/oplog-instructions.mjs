#!/usr/bin/env node
// Operation-log cost in instructions (issue 16), a companion of bench/oplog.mjs that no other load on the machine
// moves. bench/oplog.mjs compares CPU seconds, whose noise between two host processes (±10 %) is as large as the log's
// share of a write: on one machine three runs of one build read 88.8 %, 93.0 % and 100.3 %. Here the reference host
// runs under valgrind's callgrind, which counts the instructions each thread executes: the same work counts the same
// whatever else the machine is doing. Two hosts, log off and on, run at once on their own fresh databases; each gets
// `--warmup` updates (PUT /api/v1/sys/position/{id}, the write of bench/oplog.mjs), then its counters are zeroed,
// `--requests` more are sent and the counters are dumped. Printed per host: instructions per request of the main thread
// (the event loop: routes, the log's capture, its batches and, on SQLite, the inserts) and of all threads (adds V8's
// compiler and garbage-collector helpers, which still vary with the moment the optimiser finishes), and the main
// thread's off/on ratio, the log's instructions per write.
//
// Under callgrind a host answers some 50 requests a second, so the log's batches would hold a few rows each
// (they leave every 100 ms): both hosts run with `Logging:OpLog:FlushIntervalMs` at its maximum, so a batch
// leaves when 200 rows are queued, as it does under real load. Warm-up and measured counts are multiples of 200
// (the position's creation is the first row, written alone after the quiet start), so the measured window holds
// exactly `requests / 200` full batches; the script checks that every row was stored.
// Instructions are not time: cache misses, system calls and the database server's own work (PostgreSQL) are not
// counted. Read it beside bench/oplog.mjs, not instead of it.
//
//   node bench/oplog-instructions.mjs [--warmup 16000] [--requests 2000] [--connections 10] [--dialects Sqlite]
//                                     [--node-flags=--predictable]   (--node-flags= runs without it)
//                                     [--out DIR]   (keeps the dumps, `DIR/<dialect>-off.1-01`…, for callgrind_annotate)
//
// Needs a built tree (`npx tsc -b apps/host`) and valgrind (Debian's package `valgrind`). About 6 minutes a dialect
// on a 2-core machine: the warm-up is long because after 4,000 requests V8 still spent about a quarter of a write's
// instructions optimising (off/on by instructions then read 80-84 %; after 16,000, 90-91 %).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  dropTestDatabases,
  freshDatabaseEnv,
  loginToken,
  positionUpdate,
  requireBuiltHost,
  sendEach,
  startHost,
  stopHost,
  tempRoot,
} from './host.mjs';

const { values: args } = parseArgs({
  options: {
    warmup: { type: 'string', default: '16000' },
    requests: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '10' },
    dialects: { type: 'string', default: 'Sqlite' },
    // V8's --predictable: compilation and garbage collection run on the main thread at points that depend on the
    // work alone, not on when a helper thread got a core, so two runs of the same code count nearly the same
    // (without it, the main thread's count of one build moved by 8 % between two runs). The main thread then also
    // holds the collector's work, which is part of what the log costs.
    'node-flags': { type: 'string', default: '--predictable' },
    out: { type: 'string' },
    // Callgrind's cache simulation as well (about twice as slow): first-level and L2-sized misses a write, which
    // time pays for and an instruction count does not see (a batch's statement evicting the request's working set).
    'cache-sim': { type: 'boolean', default: false },
  },
});
const BATCH = 200;
const warmup = Number(args.warmup);
const requests = Number(args.requests);
const connections = Number(args.connections);
for (const [name, n] of [
  ['--warmup', warmup],
  ['--requests', requests],
]) {
  if (!(Number.isInteger(n) && n >= BATCH && n % BATCH === 0))
    throw new Error(`${name} must be a positive multiple of ${BATCH} (the log's batch)`);
}
if (!(Number.isInteger(connections) && connections >= 1)) throw new Error('--connections must be at least 1');
requireBuiltHost();
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('valgrind is not installed (Debian: apt-get install valgrind).');
  process.exit(1);
}

/**
 * V8's compilers (TurboFan, Maglev, Sparkplug, the bytecode generator and parser, their zones). Under callgrind they
 * ran in the measured window long after the warm-up (about 45 % of its main-thread instructions on one machine,
 * where `--trace-opt` outside valgrind saw two or three functions optimised in as many requests): a one-off cost
 * whose timing, not the request's work, decides how much of it lands in the window.
 */
const COMPILER =
  /v8::internal::(?:compiler|maglev|baseline|interpreter)::|v8::internal::(?:Parser|Scanner|Zone|Compiler)\b/;

/**
 * Self instructions of the functions of a dump that match `pattern` (callgrind_annotate's per-function list; it
 * also lists the outermost frames at 100 %, which are skipped).
 */
function instructionsOf(file, pattern) {
  const text = execFileSync(
    'callgrind_annotate',
    ['--threshold=100', '--inclusive=no', '--auto=no', '--show=Ir', file],
    {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^\s*([\d,]+)\s+\(\s*([\d.]+)%\)\s+(.*)$/.exec(line);
    if (!match || match[2] === '100.0' || !pattern.test(match[3])) continue;
    total += Number(match[1].replaceAll(',', ''));
  }
  return total;
}

/** Instructions (Ir) of each thread's file of a callgrind dump, by thread number; `events` gets every event of thread 1. */
function dumpedInstructions(dir, prefix, events = {}) {
  const byThread = new Map();
  for (const file of readdirSync(dir)) {
    // `<prefix>.1-01`: the first dump, thread 1 (the main thread).
    const match = new RegExp(`^${prefix}\\.1-(\\d+)$`).exec(file);
    if (!match) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    const summary = /^summary:\s*([\d ]+)/m.exec(text);
    const counts = summary ? summary[1].trim().split(/\s+/).map(Number) : [0];
    byThread.set(Number(match[1]), counts[0]);
    if (match[1] === '01') {
      const names = /^events:\s*(.+)$/m.exec(text)?.[1].trim().split(/\s+/) ?? ['Ir'];
      names.forEach((name, i) => {
        events[name] = counts[i] ?? 0;
      });
    }
  }
  if (!byThread.has(1)) throw new Error(`no callgrind dump of ${prefix} in ${dir}`);
  return byThread;
}

async function measure(dbType) {
  const dir = args.out ?? tempRoot('svc-callgrind-');
  // A kept directory: this dialect's dumps of an earlier run would be summed with this run's threads.
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) {
    if (file.startsWith(`${dbType}-off`) || file.startsWith(`${dbType}-on`)) rmSync(join(dir, file));
  }
  const hosts = await Promise.all(
    [false, true].map(async (enabled) => {
      const name = enabled ? 'on' : 'off';
      const file = `${dbType}-${name}`;
      const host = await startHost(
        {
          ...(await freshDatabaseEnv(dbType)),
          Service__Logging__OpLog__Enabled: String(enabled),
          Service__Logging__OpLog__FlushIntervalMs: '60000',
        },
        undefined,
        args['node-flags'].split(' ').filter(Boolean),
        {
          wrapper: [
            'valgrind',
            '--tool=callgrind',
            '--separate-threads=yes',
            // V8 writes and rewrites machine code in anonymous memory.
            '--smc-check=all-non-file',
            `--callgrind-out-file=${join(dir, file)}`,
            // A Zen core's first level (32 KB, 8-way) and its L2 (512 KB, 8-way) as the last level.
            ...(args['cache-sim']
              ? ['--cache-sim=yes', '--I1=32768,8,64', '--D1=32768,8,64', '--LL=524288,8,64']
              : []),
          ],
          startSeconds: 600,
        },
      );
      const target = await positionUpdate(
        host,
        await loginToken(host),
        'Updated by bench/oplog-instructions.mjs',
      );
      const authorization = target.headers.authorization;
      return { name, file, enabled, host, target, authorization };
    }),
  );
  const logging = hosts[1];
  /**
   * Waits (polling every 250 ms, at most 2 minutes) until the logging host has stored `rows` rows: its last full
   * batch is written, and no insert of it runs on into the next window. Answers the rows stored. Both hosts answer
   * the same reads meanwhile (a few against thousands of writes).
   */
  async function untilStored(rows) {
    let stored;
    for (let polls = 0; polls < 480 && stored !== rows; polls++) {
      if (polls > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      const totals = await Promise.all(
        hosts.map((h) =>
          fetch(`${h.host.url}/api/v1/sys/log/op/page?current=1&size=1`, {
            headers: { authorization: h.authorization },
          })
            .then((r) => r.json())
            .then((page) => page.data?.total),
        ),
      );
      stored = totals[hosts.indexOf(logging)];
    }
    return stored;
  }
  const callgrind = (command) => {
    for (const h of hosts) execFileSync('callgrind_control', [command, String(h.host.child.pid)]);
  };
  try {
    process.stderr.write(`${dbType}: ${warmup} updates of warm-up per host…\n`);
    await Promise.all(hosts.map((h) => sendEach(h.target, warmup, connections)));
    // The creation and the warm-up fill whole batches (the creation's row is written alone, after the quiet start).
    const warmed = await untilStored(1 + warmup);
    if (warmed !== 1 + warmup) throw new Error(`the warm-up stored ${warmed} rows, not ${1 + warmup}`);
    callgrind('-z');
    process.stderr.write(`${dbType}: ${requests} measured updates per host…\n`);
    await Promise.all(hosts.map((h) => sendEach(h.target, requests, connections)));
    const expected = 1 + warmup + requests;
    const stored = await untilStored(expected);
    callgrind('-d');
    await Promise.all(hosts.map((h) => stopHost(h.host)));
    const counts = Object.fromEntries(
      hosts.map((h) => {
        const events = {};
        const byThread = dumpedInstructions(dir, h.file, events);
        const all = [...byThread.values()].reduce((sum, n) => sum + n, 0);
        const compiling = instructionsOf(join(dir, `${h.file}.1-01`), COMPILER);
        return [
          h.name,
          {
            main: byThread.get(1) / requests,
            all: all / requests,
            compiling: compiling / requests,
            events: Object.fromEntries(Object.entries(events).map(([name, n]) => [name, n / requests])),
          },
        ];
      }),
    );
    return { counts, stored, expected };
  } finally {
    await Promise.all(hosts.map((h) => (h.host.child.exitCode === null ? stopHost(h.host) : undefined)));
  }
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
let missing = false;
try {
  for (const dbType of args.dialects.split(',')) {
    const { counts, stored, expected } = await measure(dbType);
    const { off, on } = counts;
    console.log(
      `\nInstructions per update (PUT /api/v1/sys/position/{id}), ${dbType}, ${requests} measured:`,
    );
    console.log(`  op log off: main thread ${fmt(off.main)}, all threads ${fmt(off.all)}`);
    console.log(`  op log on : main thread ${fmt(on.main)}, all threads ${fmt(on.all)}`);
    console.log(
      `  main thread off/on ${((off.main / on.main) * 100).toFixed(1)} % (goal >= 90 %): the log costs ${fmt(on.main - off.main)} instructions a write; all threads ${((off.all / on.all) * 100).toFixed(1)} %`,
    );
    const work = (c) => c.main - c.compiling;
    console.log(
      `  main thread without V8's compilers: off ${fmt(work(off))}, on ${fmt(work(on))}, off/on ${((work(off) / work(on)) * 100).toFixed(1)} %: the log costs ${fmt(work(on) - work(off))} instructions a write (compiling in the window: off ${fmt(off.compiling)}, on ${fmt(on.compiling)})`,
    );
    if (args['cache-sim']) {
      // Reads and writes that missed the first level (D1mr + D1mw) and the L2-sized last level (DLmr + DLmw), a write.
      const misses = (c, level) => (c.events[`${level}mr`] ?? 0) + (c.events[`${level}mw`] ?? 0);
      for (const [label, level] of [
        ['first-level data misses', 'D1'],
        ['L2 data misses', 'DL'],
        ['first-level instruction misses', 'I1'],
        ['L2 instruction misses', 'IL'],
      ]) {
        const a = level.startsWith('I') ? (off.events[`${level}mr`] ?? 0) : misses(off, level);
        const b = level.startsWith('I') ? (on.events[`${level}mr`] ?? 0) : misses(on, level);
        console.log(`  ${label} a write (main thread): off ${fmt(a)}, on ${fmt(b)}, the log ${fmt(b - a)}`);
      }
    }
    console.log(`  rows in the log: ${stored} of ${expected}${stored === expected ? '' : ' (ROWS MISSING)'}`);
    if (stored !== expected) missing = true;
  }
} finally {
  await dropTestDatabases();
}
process.exit(missing ? 1 : 0);

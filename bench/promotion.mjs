#!/usr/bin/env node
// What the request path leaves to V8's old generation (issue 16): the reference host under bench/oplog.mjs's update
// (PUT /api/v1/sys/position/{id} with a JSON body), with V8's allocation-site pretenuring (`node
// --allocation-site-pretenuring`, V8's default) and without it (the host's own setting, @svc/server/v8), each with the
// operation log off and on. Each host runs with `--trace-gc-nvp`; after `--warmup` updates, `--requests` more are sent
// over `--connections` loops, and the young-generation collections of that window are summed from the host's output:
// bytes promoted to the old generation per request, collections, and their pause per 1,000 requests. Promoted bytes
// are counts, not times: a loaded machine moves them little. CPU µs per request is printed beside them (from /proc,
// noisy: read bench/oplog.mjs for throughput).
//
//   node bench/promotion.mjs [--warmup 6000] [--requests 6000] [--connections 16] [--dialect Sqlite]
//
// Needs a built tree (`npx tsc -b apps/host`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  cpuSeconds,
  dropTestDatabases,
  freshDatabaseEnv,
  loginToken,
  positionUpdate,
  requireBuiltHost,
  sendEach,
  startHost,
  stopHost,
  untilIdle,
} from './host.mjs';

const { values: args } = parseArgs({
  options: {
    warmup: { type: 'string', default: '6000' },
    requests: { type: 'string', default: '6000' },
    connections: { type: 'string', default: '16' },
    dialect: { type: 'string', default: 'Sqlite' },
  },
});
const warmup = Number(args.warmup);
const requests = Number(args.requests);
const connections = Number(args.connections);
for (const [name, n] of [
  ['--warmup', warmup],
  ['--requests', requests],
  ['--connections', connections],
]) {
  if (!(Number.isInteger(n) && n >= 1)) throw new Error(`${name} must be a positive integer`);
}
requireBuiltHost();
// The "host default" rows measure the host's own V8 setting, made in its first import.
if (!existsSync(fileURLToPath(new URL('../apps/host/dist/serving.js', import.meta.url)))) {
  console.error('apps/host/dist/serving.js is missing: rebuild with `npx tsc -b apps/host`.');
  process.exit(1);
}

/** `key=value` pairs of a `--trace-gc-nvp` line. */
const fields = (line) =>
  Object.fromEntries(
    line
      .split(/\s+/)
      .map((pair) => pair.split('='))
      .filter((pair) => pair.length === 2),
  );

const variants = [
  { name: 'pretenuring, log off', pretenuring: true, log: false },
  { name: 'pretenuring, log on', pretenuring: true, log: true },
  { name: 'host default, log off', pretenuring: false, log: false },
  { name: 'host default, log on', pretenuring: false, log: true },
];

const results = [];
try {
  for (const variant of variants) {
    const host = await startHost(
      {
        ...(await freshDatabaseEnv(args.dialect)),
        Service__Logging__OpLog__Enabled: String(variant.log),
      },
      undefined,
      ['--trace-gc-nvp', ...(variant.pretenuring ? ['--allocation-site-pretenuring'] : [])],
    );
    try {
      const target = await positionUpdate(host, await loginToken(host), 'Updated by bench/promotion.mjs');
      await sendEach(target, warmup, connections);
      await untilIdle(host.child.pid);
      const mark = host.lines.length;
      const cpuBefore = cpuSeconds(host.child.pid);
      await sendEach(target, requests, connections);
      await untilIdle(host.child.pid);
      const cpu = cpuSeconds(host.child.pid) - cpuBefore;
      const young = host.lines
        .slice(mark)
        .filter((line) => line.includes(' gc=s '))
        .map(fields);
      const sum = (key) => young.reduce((total, gc) => total + Number(gc[key] ?? 0), 0);
      results.push({
        variant: variant.name,
        'promoted B/req': Math.round(sum('promoted') / requests),
        'young GCs': young.length,
        'young GC ms/1k req': Number(((sum('pause') * 1000) / requests).toFixed(1)),
        'CPU µs/req': Math.round((cpu * 1e6) / requests),
      });
    } finally {
      await stopHost(host);
    }
  }
} finally {
  await dropTestDatabases();
}
console.log(
  `${args.dialect}, ${requests} updates after ${warmup} of warm-up, ${connections} connections (Node ${process.version})`,
);
console.table(results);

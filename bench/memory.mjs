// The reference host's resident memory (issue 16: idle ≤ 100 MB, ≤ 250 MB under 200 connections). Starts the
// built host (Production, SQLite, memory cache, as bench/host.mjs), reads VmRSS from /proc once a second while
// it is idle: 10 s after start (start-up's young generation still committed) and once settled (`--idle-seconds`,
// default 45: V8's memory reducer gives back the young generation's pages some 8–30 s after the last start-up
// collection, when the process allocates little). Then keeps 200 keep-alive connections busy with authenticated
// pings and reads the peak. `--node-arg=<flag>` (repeatable) passes a V8 flag to the host, e.g. `--node-arg=--max-semi-space-size=2`
// to see what the young generation's size costs at idle.
//
//   npx tsc -b apps/host && node bench/memory.mjs [--idle-seconds 45] [--connections 200] [--node-arg=...]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { loginToken, requireBuiltHost, startHost, stopHost } from './host.mjs';

const autocannon = createRequire(import.meta.url)('autocannon');
const { values } = parseArgs({
  options: {
    'idle-seconds': { type: 'string', default: '45' },
    connections: { type: 'string', default: '200' },
    duration: { type: 'string', default: '10' },
    'node-arg': { type: 'string', multiple: true, default: [] },
  },
});
requireBuiltHost();
const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const host = await startHost({ Service__Cache__Provider: 'Memory' }, undefined, values['node-arg']);
const pid = host.child.pid;
const idleSeconds = Number(values['idle-seconds']);
const curve = [];
for (let second = 1; second <= idleSeconds; second++) {
  await sleep(1000);
  curve.push(rssMb(pid));
}
const early = curve[Math.min(9, curve.length - 1)];
const idle = curve[curve.length - 1];

const token = await loginToken(host);
let peak = rssMb(pid);
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMb(pid));
}, 20);
const result = await autocannon({
  url: `${host.url}/api/v1/ping`,
  connections: Number(values.connections),
  duration: Number(values.duration),
  headers: { authorization: `Bearer ${token}` },
});
clearInterval(sampler);
peak = Math.max(peak, rssMb(pid));
await stopHost(host);

const flags = values['node-arg'].length ? values['node-arg'].join(' ') : '(none)';
console.log(`Node ${process.version}; host V8 flags ${flags}`);
console.log(`idle, 10 s after start: ${early.toFixed(1)} MB (start-up's young generation still committed)`);
console.log(
  `idle, settled after ${idleSeconds} s: ${idle.toFixed(1)} MB   goal ≤ 100 MB ${idle <= 100 ? 'met' : 'MISSED'}`,
);
console.log(`RSS each second, MB: ${curve.map((mb) => mb.toFixed(0)).join(' ')}`);
console.log(
  `peak under ${values.connections} connections (${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx): ` +
    `${peak.toFixed(1)} MB   goal ≤ 250 MB ${peak <= 250 ? 'met' : 'MISSED'}`,
);

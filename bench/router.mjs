#!/usr/bin/env node
// Router benchmark (issue 16: "a router that does not fall back to the trie for our route table"). Builds the
// reference host's app (Development, a throw-away content root, SQLite), takes its route table and matches
// requests of its shapes with Hono's TrieRouter (what SmartRouter falls back to for this table), with the
// SegmentRouter alone and with the app's own FusedRouter (segment router, memo of static paths, fused routes),
// in interleaved rounds in this process. Prints ns per match (medians of the rounds) and each router's cost
// against the trie's; compare numbers of one run only.
//
//   node bench/router.mjs [--rounds 7] [--matches 200000]
//
// Needs a built tree (`npx tsc -b apps/host`).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median, requireBuiltHost } from './host.mjs';

requireBuiltHost();
const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '7' }, matches: { type: 'string', default: '200000' } },
});
const rounds = Number(args.rounds);
const matches = Number(args.matches);

const require = createRequire(new URL('../packages/http/package.json', import.meta.url));
const { TrieRouter } = require('hono/router/trie-router');
const { createServer } = await import('../packages/server/dist/index.js');
const { SegmentRouter } = await import('../packages/http/dist/middleware/segment-router.js');
const { FusedRouter } = await import('../packages/http/dist/middleware/fused-router.js');

const root = mkdtempSync(join(tmpdir(), 'svc-bench-router-'));
const server = await createServer({
  contentRoot: root,
  env: { ASPNETCORE_ENVIRONMENT: 'Development', Logging__LogLevel__Default: 'Error' },
});
const table = server.app.routes.map((r) => [r.method, r.path, r.handler]);
await server.close();
rmSync(root, { recursive: true, force: true });

const trie = new TrieRouter();
const segments = new SegmentRouter();
const fused = new FusedRouter();
for (const [method, path, handler] of table) {
  trie.add(method, path, [handler, { method, path }]);
  segments.add(method, path, [handler, { method, path }]);
  fused.add(method, path, [handler, { method, path }]);
}
console.log(`${table.length} route entries; FusedRouter matches with its ${fused.matcher}`);

const probes = [
  ['PUT', '/api/v1/sys/position/123', 'a write with a path parameter (the op-log bench)'],
  ['DELETE', '/api/v1/sys/user/77', 'a delete with a path parameter'],
  ['GET', '/api/v1/sys/dict/type/5', 'a read with a path parameter'],
  ['GET', '/api/v1/sys/user/page', 'a static path beside a parameter'],
  ['POST', '/api/v1/sys/role/batch-delete', 'a static write'],
];
const routers = [
  ['TrieRouter', trie],
  ['SegmentRouter', segments],
  ['FusedRouter', fused],
];

let sink;
function nsPerMatch(router, method, path) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < matches; i++) sink = router.match(method, path);
  return Number(process.hrtime.bigint() - start) / matches;
}

// Warm-up: every router compiled on every probe before the first measured round.
for (const [, router] of routers) for (const [method, path] of probes) nsPerMatch(router, method, path);
const samples = new Map();
for (let round = 0; round < rounds; round++)
  for (const [method, path] of probes) {
    const order = round % 2 === 0 ? routers : [...routers].reverse();
    for (const [name, router] of order) {
      const key = `${name} ${method} ${path}`;
      samples.set(key, [...(samples.get(key) ?? []), nsPerMatch(router, method, path)]);
    }
  }

console.log(`\nns per match, medians of ${rounds} rounds of ${matches} matches (of the trie's cost):`);
for (const [method, path, what] of probes) {
  const base = median(samples.get(`TrieRouter ${method} ${path}`));
  const cells = routers.map(([name]) => {
    const ns = median(samples.get(`${name} ${method} ${path}`));
    return `${name} ${ns.toFixed(0)}${name === 'TrieRouter' ? '' : ` (${((ns / base) * 100).toFixed(0)} %)`}`;
  });
  console.log(`  ${method} ${path} — ${what}\n    ${cells.join(', ')}`);
}
if (sink === undefined) console.log('(no match)');

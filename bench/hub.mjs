#!/usr/bin/env node
// Realtime hub memory benchmark (issue 13): the built reference host (Production, SQLite, in-process cache, hub
// on) gets N idle authenticated WebSocket connections (default 1,000, one session, the per-user bound raised);
// prints the host's resident set (from /proc, Linux) before and after and the delta per connection. The second
// reading is taken once every connection is open and has answered a ping (no waiting on a clock).
//
//   node bench/hub.mjs [--connections 1000]
//
// Needs the built host (`npx -y pnpm@10.34.9 run build`). Not part of CI.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import WebSocket from '../packages/http/node_modules/ws/wrapper.mjs';
import { PASSWORD, requireBuiltHost, startHost, stopHost } from './host.mjs';

const { values: args } = parseArgs({ options: { connections: { type: 'string', default: '1000' } } });
const N = Number(args.connections);

requireBuiltHost();

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

function open(url, token) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    ws.once('open', () => {
      ws.once('message', () => resolve(ws));
      ws.send('{"type":"ping"}');
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const host = await startHost({
  Service__Realtime__Enabled: 'true',
  Service__Realtime__MaxConnectionsPerUser: String(N),
  Service__Realtime__MaxConnections: String(N + 10),
});
try {
  const login = await fetch(`${host.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
  });
  const body = await login.json();
  if (body.code !== 0) throw new Error(`login: ${JSON.stringify(body)}`);
  const token = body.data.accessToken;
  const hub = `${host.url.replace(/^http/, 'ws')}/hub/realtime`;
  // Warm the path once (first-use allocations are not per-connection cost).
  (await open(hub, token)).close();
  const before = rssKb(host.child.pid);
  const sockets = [];
  for (let i = 0; i < N; i += 50) {
    const batch = [];
    for (let j = i; j < Math.min(N, i + 50); j++) batch.push(open(hub, token));
    sockets.push(...(await Promise.all(batch)));
  }
  const after = rssKb(host.child.pid);
  console.log(`hub: ${N} idle authenticated connections on one host process`);
  console.log(`  RSS before ${(before / 1024).toFixed(1)} MiB, after ${(after / 1024).toFixed(1)} MiB`);
  console.log(`  per connection: ${((after - before) / N).toFixed(1)} KiB`);
  for (const ws of sockets) ws.terminate();
} finally {
  await stopHost(host);
}

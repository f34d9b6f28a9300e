#!/usr/bin/env node
// Against a peer (issue 16): the reference host's authenticated ping and its rejection of a forged token beside
// Better Auth's session check on the same stack (Hono, @hono/node-server, better-sqlite3; bench/peer/
// better-auth-server.mjs), and a bare Hono hello, all in one run: each server in its own process on 127.0.0.1,
// loaded in turn by autocannon from another process (bench/load.mjs) for `--rounds` interleaved windows. Prints
// medians of req/s and server CPU µs per request (utime+stime from /proc, all threads).
//
// Better Auth is installed on demand with npm into a folder of the system's temporary directory, kept for the
// next run (nothing of it enters the repository). Its session is the signed cookie its email sign-up sets; the
// forged cookie keeps the token and changes the signature.
//
//   npx tsc -b apps/host && node bench/peer.mjs [--version 1.7.25] [--duration 4] [--rounds 3] [--connections 50]
import { execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  cpuSeconds,
  loginToken,
  median,
  requireBuiltHost,
  startHost,
  stopHost,
  tempRoot,
  track,
  untilIdle,
} from './host.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const { values: args } = parseArgs({
  options: {
    version: { type: 'string', default: '1.7.25' },
    duration: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
  },
});
const seconds = Number(args.duration);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
requireBuiltHost();

/** Installs the peer once per version into the temporary directory; answers its folder. */
function installPeer(version) {
  if (!/^[\w.-]+$/.test(version)) throw new Error(`--version ${version} is not a version`);
  const dir = join(tmpdir(), `svc-peer-better-auth-${version}`);
  if (existsSync(join(dir, 'node_modules', 'better-auth', 'package.json'))) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "svc-peer", "private": true }\n');
  process.stderr.write(`Installing better-auth@${version} into ${dir}…\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', `better-auth@${version}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}

/** Starts a Node script and resolves with its URL once it prints `listening <url>`. */
function startScript(script, scriptArgs, env = {}) {
  const child = track(
    spawn(process.execPath, [script, ...scriptArgs], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const lines = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not listen:\n${lines.join('\n')}`)),
      60_000,
    );
    const onLine = (line) => {
      lines.push(line);
      const match = /^listening (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}):\n${lines.join('\n')}`)));
  });
}

function load(options) {
  return new Promise((resolve, reject) => {
    const child = track(fork(join(HERE, 'load.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    child.on('message', (m) => (m.result ? resolve(m.result) : reject(new Error(m.error))));
    child.send(options);
  });
}

async function expectStatus(url, headers, status) {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
  await response.arrayBuffer();
  if (response.status !== status) throw new Error(`GET ${url}: expected ${status}, got ${response.status}`);
}

const peerDir = installPeer(args.version);
const peerDatabase = join(tempRoot('svc-peer-db-'), 'better-auth.sqlite');
const [bare, peer, host] = await Promise.all([
  startScript(join(HERE, 'hello-server.mjs'), []),
  startScript(join(HERE, 'peer', 'better-auth-server.mjs'), [peerDir, peerDatabase], {
    PEER_SECRET: randomBytes(32).toString('base64url'),
  }),
  startHost({ Service__Cache__Provider: 'Memory' }),
]);

// Our ping: the bearer token of a password login; forged: the same token signed by another key.
const token = await loginToken(host);
const forgedToken = `${token.slice(0, token.lastIndexOf('.'))}.${randomBytes(32).toString('base64url')}`;

// The peer's session: the cookie its email sign-up sets; forged: same token, another signature.
const signUp = await fetch(`${peer.url}/api/auth/sign-up/email`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1' },
  body: JSON.stringify({ email: 'bench@example.com', password: 'Bench-Peer-Pass-1', name: 'Bench' }),
});
const cookie = signUp.headers
  .getSetCookie()
  .map((c) => c.split(';', 1)[0])
  .find((c) => c.includes('session_token='));
if (!cookie) throw new Error(`peer sign-up set no session cookie (${signUp.status}): ${await signUp.text()}`);
const [cookieName, cookieValue] = [
  cookie.slice(0, cookie.indexOf('=')),
  cookie.slice(cookie.indexOf('=') + 1),
];
const decoded = decodeURIComponent(cookieValue);
const forgedCookie = `${cookieName}=${encodeURIComponent(
  `${decoded.slice(0, decoded.lastIndexOf('.'))}.${randomBytes(32).toString('base64')}`,
)}`;

const cases = [
  { server: bare, label: '(a) bare Hono hello', url: `${bare.url}/`, headers: {}, status: 200 },
  {
    server: host,
    label: '(b) @svc ping, valid token',
    url: `${host.url}/api/v1/ping`,
    headers: { authorization: `Bearer ${token}` },
    status: 200,
  },
  {
    server: host,
    label: '(c) @svc ping, forged token',
    url: `${host.url}/api/v1/ping`,
    headers: { authorization: `Bearer ${forgedToken}` },
    status: 401,
  },
  {
    server: peer,
    label: `(p) Better Auth ${args.version} getSession`,
    url: `${peer.url}/ping`,
    headers: { cookie },
    status: 200,
  },
  {
    server: peer,
    label: '(q) Better Auth, forged cookie',
    url: `${peer.url}/ping`,
    headers: { cookie: forgedCookie },
    status: 401,
  },
];
for (const c of cases) await expectStatus(c.url, c.headers, c.status);
process.stderr.write('Warming up (3 s each)…\n');
for (const c of cases) await load({ url: c.url, headers: c.headers, connections, duration: 3 });

const runs = cases.map(() => []);
for (let round = 0; round < rounds; round++) {
  for (const [i, c] of cases.entries()) {
    process.stderr.write(`${c.label}: ${seconds} s at ${connections} connections…\n`);
    const pid = c.server.child.pid;
    const before = cpuSeconds(pid);
    const r = await load({ url: c.url, headers: c.headers, connections, duration: seconds, timeout: 30 });
    await untilIdle(pid);
    const statuses = Object.keys(r.statuses).map(Number);
    if (statuses.some((s) => s !== c.status) || r.errors > 0 || r.timeouts > 0)
      throw new Error(
        `${c.label}: expected only ${c.status}; got ${JSON.stringify(r.statuses)}, ${r.errors} errors`,
      );
    runs[i].push({ rps: r.completed / r.seconds, cpuUs: ((cpuSeconds(pid) - before) * 1e6) / r.sent });
  }
}

console.log(
  `\nNode ${process.version}; medians of ${rounds} interleaved rounds of ${seconds} s at ${connections} connections.`,
);
console.log(`${''.padEnd(40)}${'req/s'.padStart(10)}${'CPU µs/req'.padStart(12)}`);
const medians = runs.map((list) => ({
  rps: median(list.map((m) => m.rps)),
  cpuUs: median(list.map((m) => m.cpuUs)),
}));
for (const [i, c] of cases.entries())
  console.log(
    `${c.label.padEnd(40)}${medians[i].rps.toFixed(0).padStart(10)}${medians[i].cpuUs.toFixed(0).padStart(12)}`,
  );
const [a, b, c, p, q] = medians;
console.log(
  `\nBy CPU per request: @svc ping ${(p.cpuUs / b.cpuUs).toFixed(1)}× cheaper than Better Auth's getSession,`,
);
console.log(
  `rejection ${(q.cpuUs / c.cpuUs).toFixed(1)}× cheaper; against the bare hello: ping ${((a.cpuUs / b.cpuUs) * 100).toFixed(0)} %, Better Auth ${((a.cpuUs / p.cpuUs) * 100).toFixed(0)} %.`,
);

bare.child.kill('SIGTERM');
peer.child.kill('SIGTERM');
await stopHost(host);
process.exit(0);

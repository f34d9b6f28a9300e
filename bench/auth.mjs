#!/usr/bin/env node
// Authentication benchmark (issue 3): in one run, a bare Hono "hello" and the reference host, each in its own
// process on 127.0.0.1, are loaded by autocannon from a separate process; the machine's raw PBKDF2 rate is taken
// in another. Prints requests/s, latency p50/p99 and the server's CPU µs per request (utime+stime from
// /proc/<pid>/stat, so the load generator's own cost never counts), then the ratios against the issue's goals.
// With login: the login rate against the raw hash rate at `--login-connections`, and the login p99 with one and
// with two logins in flight against the median time of one hash computed alone.
//
//   node bench/auth.mjs [--duration 10] [--connections 50] [--login-connections 8] [--cpu-prof DIR] [--no-login]
//                       [--redis redis://127.0.0.1:6379] [--rounds 3] [--pairs 1] [--rate-limit] [--login-rounds 1]
//
// `--rounds` windows of (a)–(c) in all, interleaved, shared among `--pairs` sets of the three servers started one
// after the other (as bench/oplog.mjs shares its rounds among host pairs): V8 optimises each process its own way,
// and one bare hello or one host can run a few microseconds a request faster or slower than another process of the
// same build for its whole life, so one set measures that luck as much as the code. The goals are judged on the
// median of the rounds' own ratios (a drift of the machine within one round moves both sides of its ratio); the
// cases' medians are printed too. Rounds alternate the order of the cases.
//
// `--login-rounds` windows of the login (d) and of the raw hash (e), alternating which goes first; the login goal is
// judged on the median of the rounds' own ratios. One window of 4 s holds ~30-60 logins at 8 in flight, and the
// handful still hashing when it closes moves one window's rate by several percent either way.
//
// `--rate-limit` runs the host with rate limiting on, as deployed by default, its permits raised so far that the
// benchmark's one client address is never refused: every request is still counted against its bucket.
//
// Needs Linux and a built host (`npx tsc -b apps/host`). About 80 s with the defaults.
import { fork, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuSeconds, median, untilIdle } from './host.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const HOST_MAIN = fileURLToPath(new URL('../apps/host/dist/main.js', import.meta.url));
const ADMIN = 'superAdmin';
const PASSWORD = 'Bench-Admin-Pass-1';
/** The production default (`PBKDF2_DEFAULT_ITERATIONS`), pinned for the host and the raw-rate process alike. */
const ITERATIONS = 600_000;
const WARMUP_SECONDS = 3;
const GOALS = { ping: 0.7, invalid: 0.65, login: 0.9 };

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    // Throughput is bounded by the 4-thread libuv pool either way; 8 keeps it saturated while latency stays a
    // measure of the login rather than of a queue, and little hashing outlives the window.
    'login-connections': { type: 'string', default: '8' },
    'cpu-prof': { type: 'string' },
    // Only the request-path cases (a)–(c): a quicker loop while working on the pipeline.
    'no-login': { type: 'boolean', default: false },
    // The host on the Redis cache at this URL; the envelope baseline then reads one key per request there.
    redis: { type: 'string' },
    // Rounds of (a)–(c), interleaved; each case reports its medians. On a shared machine whose speed drifts
    // within minutes, interleaving keeps the drift out of the ratios.
    rounds: { type: 'string', default: '1' },
    // Sets of the three servers the rounds are shared among (each started fresh and warmed up on its own).
    pairs: { type: 'string', default: '1' },
    'rate-limit': { type: 'boolean', default: false },
    // Rounds of (d) and (e), alternating their order, judged on the median of the rounds' ratios.
    'login-rounds': { type: 'string', default: '1' },
  },
});
const seconds = positive('duration');
const connections = positive('connections');
const loginConnections = positive('login-connections');
const rounds = positive('rounds');
const pairs = Math.min(positive('pairs'), rounds);
const loginRounds = positive('login-rounds');

function positive(name) {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer`);
  return n;
}

if (!existsSync('/proc/self/stat')) fail('This benchmark reads server CPU time from /proc: it needs Linux.');
if (!existsSync(HOST_MAIN)) fail('apps/host/dist/main.js is missing: run `npx tsc -b apps/host` first.');

const children = new Set();
const contentRoot = mkdtempSync(join(tmpdir(), 'svc-bench-'));
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(contentRoot, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

function fail(message) {
  console.error(message);
  process.exit(1);
}

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Starts a server process and resolves with its URL once `pattern` shows it on stdout or stderr. */
function startServer(name, nodeArgs, env, pattern) {
  const child = track(spawn(process.execPath, nodeArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const tail = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not listen within 30 s:\n${tail.join('\n')}`)),
      30_000,
    );
    const onLine = (line) => {
      tail.push(line);
      if (tail.length > 30) tail.shift();
      const match = pattern.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ name, child, url: match[1] });
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? code}):\n${tail.join('\n')}`));
    });
  });
}

/** Runs a module of this folder in a child process, sends it `message`, resolves with its `result`. */
function runChild(file, message, limitSeconds) {
  return new Promise((resolve, reject) => {
    const child = track(fork(join(HERE, file), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitSeconds * 1000);
    let answer;
    child.on('message', (m) => {
      answer = m;
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (answer?.result) resolve(answer.result);
      else reject(new Error(answer?.error ?? `${file} ended (${signal ?? code}) without a result`));
    });
    child.send(message);
  });
}

/** One autocannon run against `server`; `expect` is the one status every response must have. */
async function measure(server, label, request, expect, conns = connections) {
  if (server.child.exitCode !== null) throw new Error(`${server.name} is no longer running`);
  process.stderr.write(`${label}: ${seconds} s at ${conns} connections…\n`);
  const pid = server.child.pid;
  const before = cpuSeconds(pid);
  const r = await runChild(
    'load.mjs',
    { ...request, connections: conns, duration: seconds, timeout: 30 },
    seconds + 60,
  );
  await untilIdle(pid);
  const used = cpuSeconds(pid) - before;
  const unexpected = Object.entries(r.statuses).filter(([status]) => Number(status) !== expect);
  if (unexpected.length > 0 || r.errors > 0 || r.timeouts > 0) {
    throw new Error(
      `${label}: expected only ${expect}; got ${JSON.stringify(r.statuses)}, ${r.errors} errors, ${r.timeouts} timeouts`,
    );
  }
  // Every request sent is finished by the server, the few still in flight when the window closed included
  // (untilIdle waited for them): they count in the CPU time, so they count in the divisor too.
  return { label, rps: r.completed / r.seconds, p50: r.p50, p99: r.p99, cpuUs: (used * 1e6) / r.sent };
}

/** Per-field medians of several measurements of one case. */
function medianOf(list) {
  const first = list[0];
  return {
    label: list.length > 1 ? `${first.label} (median of ${list.length})` : first.label,
    rps: median(list.map((m) => m.rps)),
    p50: median(list.map((m) => m.p50)),
    p99: median(list.map((m) => m.p99)),
    cpuUs: median(list.map((m) => m.cpuUs)),
  };
}

/** Per-ratio medians of rounds' ratios. */
function medianRatios(list) {
  const of = (key) => ({
    byRate: median(list.map((r) => r[key].byRate)),
    byCpu: median(list.map((r) => r[key].byCpu)),
  });
  return { ping: of('ping'), invalid: of('invalid'), same: of('same') };
}

async function expectJson(url, init, status, code) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const body = await response.json();
  if (response.status !== status || body.code !== code) {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: expected ${status}/${code}, got ${response.status} ${JSON.stringify(body)}`,
    );
  }
  return body;
}

/** The same header and payload with a signature made by another key: well-formed, and refused. */
function forge(token) {
  const signingInput = token.slice(0, token.lastIndexOf('.'));
  return `${signingInput}.${createHmac('sha256', randomBytes(32)).update(signingInput).digest('base64url')}`;
}

async function main() {
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(Service__|ASPNETCORE_|PORT$|NODE_OPTIONS$)/i.test(k)),
  );
  // Production: the configuration operators deploy (no samples, no docs, an explicit signing key), with
  // code-first allowed because the database is a fresh file in a temporary content root.
  const hostEnv = {
    ...baseEnv,
    ASPNETCORE_ENVIRONMENT: 'Production',
    ASPNETCORE_CONTENTROOT: contentRoot,
    ASPNETCORE_URLS: 'http://127.0.0.1:0',
    Service__Database__DbType: 'Sqlite',
    Service__Database__EnableCodeFirstInProduction: 'true',
    ...(args.redis
      ? { Service__Cache__Provider: 'Redis', Service__Cache__Redis__Configuration: args.redis }
      : { Service__Cache__Provider: 'Memory' }),
    ...(args['rate-limit']
      ? {
          Service__Security__RateLimit__Enabled: 'true',
          Service__Security__RateLimit__PermitPerWindow: '1000000000',
          Service__Security__RateLimit__AuthPermitPerWindow: '1000000000',
        }
      : { Service__Security__RateLimit__Enabled: 'false' }),
    // The login scenario signs in 8-wide as one account; attempts in flight are reserved on the login lock
    // before their hash, so a lock of 5 would answer the extras 40004 (HTTP 200) without hashing.
    Service__Security__LoginLock__MaxFailCount: '1000',
    Service__Security__Password__Pbkdf2Iterations: String(ITERATIONS),
    Service__Seed__AdminAccount: ADMIN,
    Service__Seed__AdminPassword: PASSWORD,
    Service__Jwt__SecretKey: randomBytes(48).toString('base64url'),
  };
  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  const envelopeArgs = [join(HERE, 'hello-envelope.mjs'), ...(args.redis ? ['--redis', args.redis] : [])];
  const login = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: ADMIN, password: PASSWORD }),
  };

  /** One set of the three servers, checked (a valid token answers 200, a forged one 40006) and warmed up. */
  async function startSet() {
    const [hello, envelope, host] = await Promise.all([
      startServer('hello server', [join(HERE, 'hello-server.mjs')], baseEnv, /^listening (\S+)/),
      startServer('envelope server', envelopeArgs, baseEnv, /^listening (\S+)/),
      startServer('host', [...profile, HOST_MAIN], hostEnv, /Now listening on: (http:\/\/[\w.:[\]-]+)/),
    ]);
    const token = (await expectJson(`${host.url}/api/v1/auth/login`, login, 200, 0)).data.accessToken;
    const valid = { authorization: `Bearer ${token}` };
    const invalid = { authorization: `Bearer ${forge(token)}` };
    await expectJson(`${host.url}/api/v1/ping`, { headers: valid }, 200, 0);
    await expectJson(`${host.url}/api/v1/ping`, { headers: invalid }, 401, 40006);
    const cases = [
      [hello, '(a) bare Hono hello', { url: `${hello.url}/`, headers: valid }, 200],
      [
        envelope,
        args.redis ? "(a') bare, ping's answer + 1 GET" : "(a') bare, ping's answer",
        { url: `${envelope.url}/`, headers: valid },
        200,
      ],
      [host, '(b) ping, valid token', { url: `${host.url}/api/v1/ping`, headers: valid }, 200],
      [host, '(c) ping, invalid token', { url: `${host.url}/api/v1/ping`, headers: invalid }, 401],
    ];
    process.stderr.write(`Warming up (${WARMUP_SECONDS} s each)…\n`);
    for (const [, , request] of cases) {
      await runChild('load.mjs', { ...request, connections, duration: WARMUP_SECONDS }, WARMUP_SECONDS + 60);
    }
    return { servers: [hello, envelope, host], host, cases };
  }

  async function stopSet(set) {
    for (const server of set.servers) server.child.kill('SIGTERM'); // graceful, so that --cpu-prof writes its profile
    await Promise.all(set.servers.map((server) => exited(server.child)));
  }

  const load = loadavg()[0];
  const runs = [[], [], [], []];
  // Each round's ratios against (a) and (a'), by req/s and by CPU per request.
  const rows = [];
  const perSet = [];
  let set;
  for (let pair = 0; pair < pairs; pair++) {
    if (set) await stopSet(set);
    set = await startSet();
    const share = Math.floor(rounds / pairs) + (pair < rounds % pairs ? 1 : 0);
    const setRows = [];
    for (let round = 0; round < share; round++) {
      // (a) first in even rounds, last in odd ones: no case is always measured right after another's window.
      const order = (rows.length + setRows.length) % 2 === 0 ? [0, 1, 2, 3] : [3, 2, 1, 0];
      const got = [];
      for (const i of order) got[i] = await measure(...set.cases[i]);
      for (const [i, m] of got.entries()) runs[i].push(m);
      const [a, same, b, c] = got;
      setRows.push({
        ping: { byRate: b.rps / a.rps, byCpu: a.cpuUs / b.cpuUs },
        invalid: { byRate: c.rps / a.rps, byCpu: a.cpuUs / c.cpuUs },
        same: { byRate: b.rps / same.rps, byCpu: same.cpuUs / b.cpuUs },
      });
    }
    rows.push(...setRows);
    perSet.push(medianRatios(setRows));
  }
  const host = set.host;
  const [bare, same, ping, rejected] = runs.map(medianOf);
  const loginRequest = { url: `${host.url}/api/v1/auth/login`, ...login };
  const withLogin = !args['no-login'];
  const hashWindow = () => {
    process.stderr.write(`(e) raw PBKDF2: ${seconds} s at ${loginConnections} in flight…\n`);
    return runChild(
      'hash-rate.mjs',
      { password: PASSWORD, iterations: ITERATIONS, concurrency: loginConnections, seconds },
      seconds + 60,
    );
  };
  const logins = [];
  const hashes = [];
  const loginRows = [];
  for (let round = 0; withLogin && round < loginRounds; round++) {
    let m;
    let h;
    if (round % 2 === 0) {
      m = await measure(host, '(d) password login', loginRequest, 200, loginConnections);
      h = await hashWindow();
    } else {
      h = await hashWindow();
      m = await measure(host, '(d) password login', loginRequest, 200, loginConnections);
    }
    logins.push(m);
    hashes.push(h);
    loginRows.push({ byRate: m.rps / h.perSecond, byCpu: h.cpuUsPerHash / m.cpuUs });
  }
  const loggedIn = withLogin ? medianOf(logins) : undefined;
  const hash = withLogin
    ? {
        perSecond: median(hashes.map((h) => h.perSecond)),
        cpuUsPerHash: median(hashes.map((h) => h.cpuUsPerHash)),
      }
    : undefined;

  // Latency with one or two logins in flight: the goal is p99 ≤ 2× the time of one hash (measured alone).
  const latency = [];
  if (withLogin) {
    for (const inFlight of [1, 2]) {
      latency.push(await measure(host, `(f) login, ${inFlight} in flight`, loginRequest, 200, inFlight));
    }
    process.stderr.write(`(g) one raw PBKDF2 at a time: ${seconds} s…\n`);
  }
  const single = withLogin
    ? await runChild(
        'hash-rate.mjs',
        { password: PASSWORD, iterations: ITERATIONS, concurrency: 1, seconds },
        seconds + 60,
      )
    : undefined;

  const cpu = cpus();
  console.log(
    `\nNode ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}; load average ${load.toFixed(2)} before, ` +
      `${loadavg()[0].toFixed(2)} after. Host: Production, SQLite, ${args.redis ? 'Redis' : 'memory'} cache, rate limiting ${args['rate-limit'] ? 'on (every request counted)' : 'off'}, PBKDF2 ${ITERATIONS}.\n`,
  );
  const row = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(44) : String(c).padStart(11))).join('');
  console.log(row(['', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req']));
  for (const m of [bare, same, ping, rejected, loggedIn]) {
    if (m) console.log(row([m.label, m.rps.toFixed(m.rps < 100 ? 1 : 0), m.p50, m.p99, m.cpuUs.toFixed(0)]));
  }
  if (hash) {
    console.log(
      row([
        `(e) raw PBKDF2 (hashes)${loginRounds > 1 ? ` (median of ${loginRounds})` : ''}`,
        hash.perSecond.toFixed(1),
        '',
        '',
        hash.cpuUsPerHash.toFixed(0),
      ]),
    );
  }
  for (const m of latency) console.log(row([m.label, m.rps.toFixed(1), m.p50, m.p99, m.cpuUs.toFixed(0)]));
  if (single) {
    console.log(
      row(['(g) one raw PBKDF2 at a time', single.perSecond.toFixed(1), single.msMedian.toFixed(0), '', '']),
    );
  }

  const ratio = (label, byRate, byCpu, goal) => {
    const verdict = (x) => `${(x * 100).toFixed(0)}% ${x >= goal ? 'met' : 'MISSED'}`;
    console.log(
      `${label.padEnd(34)}by req/s ${verdict(byRate).padEnd(12)} by CPU/req ${verdict(byCpu).padEnd(12)} goal ≥ ${Math.round(goal * 100)}%`,
    );
  };
  console.log('');
  // Judged on the median of the rounds' own ratios (one round's two sides were measured a few seconds apart).
  const judged = medianRatios(rows);
  ratio('(b) authenticated ping / (a) bare', judged.ping.byRate, judged.ping.byCpu, GOALS.ping);
  ratio('(c) invalid token / (a) bare', judged.invalid.byRate, judged.invalid.byCpu, GOALS.invalid);
  // The same answer from a bare route: what the response the rules require costs by itself (envelope, trace id,
  // secure headers; on Redis one round trip), so the rest of the distance is the pipeline's own.
  ratio("(b) ping / (a') same answer", judged.same.byRate, judged.same.byCpu, GOALS.ping);
  if (loginRows.length > 0) {
    ratio(
      '(d) login / (e) raw PBKDF2',
      median(loginRows.map((r) => r.byRate)),
      median(loginRows.map((r) => r.byCpu)),
      GOALS.login,
    );
  }

  if (single) {
    for (const m of latency) {
      const times = m.p99 / single.msMedian;
      console.log(
        `${`${m.label} p99 / (g)`.padEnd(34)}${times.toFixed(2)}× ${times <= 2 ? 'met' : 'MISSED'}${''.padEnd(33)}goal ≤ 2×`,
      );
    }
  }

  if (rows.length > 1) {
    console.log(
      `\nRatios by CPU/req, median of each round's (${rows.length} rounds over ${pairs} set(s) of servers):`,
    );
    const pct = (x) => `${(x * 100).toFixed(0)}%`;
    for (const [i, r] of perSet.entries()) {
      console.log(
        `  set ${i + 1}: ping/bare ${pct(r.ping.byCpu)}, invalid/bare ${pct(r.invalid.byCpu)}, ping/same answer ${pct(r.same.byCpu)}`,
      );
    }
    console.log(
      `  rounds: ping/bare ${rows.map((r) => pct(r.ping.byCpu)).join(' ')}; invalid/bare ${rows.map((r) => pct(r.invalid.byCpu)).join(' ')}`,
    );
  }

  if (loginRows.length > 1) {
    const pct = (x) => `${(x * 100).toFixed(0)}%`;
    console.log(
      `\nLogin / raw hash, each of ${loginRows.length} rounds: by req/s ${loginRows.map((r) => pct(r.byRate)).join(' ')}; by CPU ${loginRows.map((r) => pct(r.byCpu)).join(' ')}`,
    );
  }

  await stopSet(set);
}

/** Resolves when the child has exited, or after 10 s (the exit handler then kills it). */
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

main().then(
  () => process.exit(0),
  (error) => fail(error instanceof Error ? error.message : String(error)),
);

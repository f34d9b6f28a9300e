/**
 * A fault harness for outage tests: a private PostgreSQL cluster and a private redis-server, each on a spare
 * port in a temp folder, with `stop()` and `start()` so a test can take a dependency away and bring it back
 * without touching the shared servers, and a TCP proxy that turns any server into a black hole for the clients
 * connected through it (`startFreezableProxy`). PostgreSQL runs as the `postgres` OS user when the tests run as root
 * (initdb refuses root). Waits are on conditions (`pg_ctl -w`, Redis printing that it accepts connections),
 * never on time. When a binary is missing the helpers answer a reason to skip instead of a server.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A dependency a test can stop and start again on the same port. */
export interface FaultServer {
  readonly port: number;
  /** Connection URL (PostgreSQL: the cluster's `postgres` database; Redis: db 0). */
  readonly url: string;
  /** Stops the server; clients' connections are cut. Resolves once it is down. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it for good and removes its files. Idempotent. */
  destroy(): Promise<void>;
  /**
   * Freezes the server's processes (SIGSTOP): connections stay open but nothing answers, as with a hung host
   * or a network black hole. `destroy()` thaws first.
   */
  freeze?(): void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw?(): void;
}

/** A server, or why the environment cannot provide one (the test should skip with this message). */
export type FaultServerOrSkip =
  | { server: FaultServer; skip?: undefined }
  | { server?: undefined; skip: string };

/** A free TCP port on 127.0.0.1 (the OS picks it; a race with another process is unlikely and fails loudly). */
export async function sparePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The newest `/usr/lib/postgresql/<version>/bin`, or `SVC_TEST_PG_BIN`. */
function postgresBin(): string | undefined {
  const fromEnv = process.env.SVC_TEST_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** Runs a PostgreSQL tool, as the `postgres` user when we are root. */
async function asPostgres(command: string, args: string[]): Promise<void> {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  await run(file, argv, { timeout: 120_000 });
}

async function userIds(name: string): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/** The postmaster of `data` and its children (backends, background workers), from postmaster.pid and /proc. */
function postgresProcesses(data: string): number[] {
  const main = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent; the command name before it is in parentheses.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === main;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [main, ...children];
}

/**
 * Creates and starts a private PostgreSQL cluster (trust authentication, user `postgres`).
 * @example const pg = await startPrivatePostgres(); if (pg.skip) return; await pg.server.stop();
 */
export async function startPrivatePostgres(): Promise<FaultServerOrSkip> {
  const bin = postgresBin();
  if (bin === undefined) {
    return { skip: 'PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin or SVC_TEST_PG_BIN)' };
  }
  const isRoot = process.getuid?.() === 0;
  const owner = isRoot ? await userIds('postgres') : undefined;
  if (isRoot && owner === undefined) return { skip: 'running as root and there is no `postgres` OS user' };
  // The postgres user must reach the folder: a per-run tmpdir is private to us, so root uses /tmp itself.
  const dir = mkdtempSync(join(isRoot ? '/tmp' : tmpdir(), 'svc-fault-pg-'));
  if (owner) {
    chmodSync(dir, 0o700);
    chownSync(dir, owner.uid, owner.gid);
  }
  const data = join(dir, 'data');
  const port = await sparePort();
  const ctl = join(bin, 'pg_ctl');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  let running = false;
  let destroyed = false;
  let frozen: number[] = [];
  const signal = (pids: number[], name: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // Gone meanwhile (a backend that ended).
      }
    }
  };
  const server: FaultServer = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    freeze() {
      frozen = postgresProcesses(data);
      signal(frozen, 'SIGSTOP');
    },
    thaw() {
      signal(frozen, 'SIGCONT');
      frozen = [];
    },
    async stop() {
      if (!running) return;
      // Fast shutdown: the server ends every session now, as a crash or failover would for the clients.
      await asPostgres(ctl, ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    async start() {
      if (running) return;
      await asPostgres(ctl, ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
      running = true;
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      server.thaw?.();
      await server.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await asPostgres(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await server.start();
  } catch (error) {
    await server.destroy();
    throw error;
  }
  return { server };
}

/** The redis-server binary (`SVC_TEST_REDIS_SERVER`, else `redis-server` on the PATH). */
async function redisServerBin(): Promise<string | undefined> {
  const candidate = process.env.SVC_TEST_REDIS_SERVER ?? 'redis-server';
  try {
    await run(candidate, ['--version']);
    return candidate;
  } catch {
    return undefined;
  }
}

/** Resolves once `child` prints `marker`; rejects when it exits first. */
function waitForOutput(child: ChildProcess, marker: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(marker)) {
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`redis-server exited (${code}) before ready:\n${seen}`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Starts a private redis-server. Without `persistent` a restart comes back empty, as after a crash; with it
 * `stop()` is a clean shutdown that keeps the data (append-only file), as after a network partition heals.
 * @example const redis = await startPrivateRedis(); if (redis.skip) return; await redis.server.stop();
 */
export async function startPrivateRedis(options: { persistent?: boolean } = {}): Promise<FaultServerOrSkip> {
  const bin = await redisServerBin();
  if (bin === undefined) return { skip: 'redis-server not found (PATH or SVC_TEST_REDIS_SERVER)' };
  const dir = mkdtempSync(join(tmpdir(), 'svc-fault-redis-'));
  const port = await sparePort();
  let child: ChildProcess | undefined;
  let destroyed = false;
  const server: FaultServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const current = child;
      if (current === undefined) return;
      child = undefined;
      if (current.exitCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill(options.persistent ? 'SIGTERM' : 'SIGKILL');
      await exited;
    },
    async start() {
      if (child !== undefined) return;
      const started = spawn(
        bin,
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir],
          ...['--appendonly', options.persistent ? 'yes' : 'no', '--appendfsync', 'always'],
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      child = started;
      await waitForOutput(started, 'Ready to accept connections');
      started.stdout?.resume();
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      child?.kill('SIGCONT');
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
    freeze() {
      child?.kill('SIGSTOP');
    },
    thaw() {
      child?.kill('SIGCONT');
    },
  };
  await server.start();
  return { server };
}

/** A TCP proxy in front of a server that can turn into a black hole and back. */
export interface FreezableProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /**
   * From now on nothing passes in either direction, on open connections and new ones alike: sockets stay open
   * and nothing answers, as with a frozen server, a hung host or a network black hole.
   */
  freeze(): void;
  /** Delivers what was held, in order, and passes everything again. */
  thaw(): void;
  /** Closes the proxy and every connection through it. */
  close(): Promise<void>;
}

/**
 * Starts a {@link FreezableProxy} to `host:port`: a frozen server for a driver under test without freezing the
 * shared server (its other clients, the other test files, go on). Held bytes are delivered at `thaw()`.
 * @example const proxy = await startFreezableProxy('127.0.0.1', 3306); proxy.freeze(); … proxy.thaw();
 */
export async function startFreezableProxy(host: string, port: number): Promise<FreezableProxy> {
  let frozen = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
  };
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (frozen) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  const server = createServer((client) => {
    const upstream = netConnect({ host, port });
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as { port: number }).port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const deliver of held.splice(0)) deliver();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Makes the database "stuck" for the service's writes without stopping it: another connection takes the write
 * lock (SQLite: `BEGIN IMMEDIATE`) or locks every `sys_user` row in an open transaction (server databases) and
 * holds it until the returned function is called. Statements of the service that need it wait until their
 * busy or command timeout, as behind a long migration or a stuck batch job.
 * @example const release = await holdUserRowsLock('PostgreSQL', url); try { … } finally { await release(); }
 */
export async function holdUserRowsLock(
  dbType: 'Sqlite' | 'PostgreSQL' | 'MySql',
  connectionString: string,
): Promise<() => Promise<void>> {
  if (dbType === 'Sqlite') {
    const { default: BetterSqlite3 } = await import('better-sqlite3');
    const holder = new BetterSqlite3(connectionString.replace(/^Data Source=/, ''));
    holder.exec('BEGIN IMMEDIATE');
    return async () => {
      holder.exec('ROLLBACK');
      holder.close();
    };
  }
  const { openDatabase } = await import('../database.js');
  const { sql } = await import('drizzle-orm');
  const side = await openDatabase({ dbType, connectionString, contentRoot: tmpdir() });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked: () => void = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = side.adapter
    .transaction(side.db, async (tx) => {
      await (tx as unknown as { execute(q: unknown): Promise<unknown> }).execute(
        sql`update sys_user set real_name = real_name`,
      );
      locked();
      await released;
      // Roll back: the lock was the point, not the write.
      throw new Error('rollback');
    })
    .catch(() => {});
  await isLocked;
  return async () => {
    release();
    await done;
    await side.close();
  };
}

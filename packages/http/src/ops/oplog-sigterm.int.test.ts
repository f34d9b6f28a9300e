/**
 * No operation-log row is lost when the built reference host (`apps/host/dist/main.js`, run as its own
 * process on PostgreSQL) is stopped with SIGTERM under load: every write that was answered must be in
 * `sys_op_log` after the process exited. To make the queue hold rows at that moment, the test takes an
 * EXCLUSIVE lock on the table before sending SIGTERM and keeps it for 3.5 s: inserts wait, reads do not, so
 * requests finish and the listener closes while batches are still queued. (postgres-js also finishes queries
 * issued while its pool ends, so this guards the whole shutdown path; the drain's own timing is unit-tested
 * in @svc/logging.)
 *
 * The drain without resets (contract §11) runs on the same host: SIGTERM under keep-alive writers, then requests
 * sent on idle keep-alive connections once the host says it drains; every one is answered, none reset.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRepositories, type Database, openDatabase } from '@svc/data';
import { createTestDatabase, type TestDatabase } from '@svc/data/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { RawConnection } from '../host/raw-http.contract.js';

const MAIN = fileURLToPath(new URL('../../../../apps/host/dist/main.js', import.meta.url));
const PASSWORD = 'Admin#Pass2345';
/** Writes fired at once: several 200-row batches. */
const WRITES = 600;
const LOCK_MS = 3500;

function start(contentRoot: string, db: TestDatabase, env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      ASPNETCORE_ENVIRONMENT: 'Development',
      ASPNETCORE_CONTENTROOT: contentRoot,
      ASPNETCORE_URLS: 'http://127.0.0.1:0',
      Service__Database__DbType: db.dbType,
      Service__Database__ConnectionString: db.connectionString,
      Service__Security__Password__Pbkdf2Iterations: '100000',
      Service__Seed__AdminPassword: PASSWORD,
      Service__Security__RateLimit__Enabled: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (d: Buffer) => {
    text += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    text += d.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise<{
    child: ChildProcess;
    url: string;
    exit: Promise<number | null>;
    output: () => string;
  }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${text}`)), 30_000);
    const poll = setInterval(() => {
      const match = /Now listening on: (http:\/\/[\w.:[\]]+)/.exec(text);
      if (match?.[1]) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, url: match[1], exit, output: () => text });
      }
    }, 25);
  });
}

/** Holds an EXCLUSIVE lock on `sys_op_log` (inserts wait, selects do not) until `release` resolves. */
function lockOpLog(database: Database, release: Promise<void>): Promise<void> {
  return new Promise((locked, failed) => {
    database.adapter
      .transaction(database.db, async (tx) => {
        await (tx as unknown as { execute(q: string): Promise<unknown> }).execute(
          'lock table sys_op_log in exclusive mode',
        );
        locked();
        await release;
      })
      .catch(failed);
  });
}

describe('operation log at shutdown (built host, PostgreSQL)', () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-oplog-sigterm-'));
  let db: TestDatabase | undefined;
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await db?.drop();
  });

  it('stores every answered write when SIGTERM arrives while inserts are held up', async () => {
    if (!existsSync(MAIN))
      throw new Error('apps/host/dist/main.js is missing: run `npx tsc -b apps/host` first.');
    db = await createTestDatabase('PostgreSQL');
    const host = await start(root, db);
    const observer = await openDatabase({
      dbType: 'PostgreSQL',
      connectionString: db.connectionString,
      contentRoot: root,
    });
    try {
      const login = await fetch(`${host.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
      });
      const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
      let answered = 0;
      let release!: () => void;
      const released = new Promise<void>((r) => {
        release = r;
      });
      let locking: Promise<void> | undefined;
      const writes = Array.from({ length: WRITES }, () =>
        fetch(`${host.url}/api/v1/sys/cache/rebuild-portal`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        }).then(
          async (res) => {
            if (res.status === 200 && ((await res.json()) as { code: number }).code === 0) answered++;
            if (!locking && answered >= WRITES / 3) {
              locking = lockOpLog(observer, released).then(() => {
                host.child.kill('SIGTERM');
                setTimeout(release, LOCK_MS);
              });
            }
          },
          () => {
            // Refused once the listener closed: never answered, so nothing is owed to the log.
          },
        ),
      );
      await Promise.all(writes);
      await locking;
      expect(await host.exit).toBe(0);
      expect(answered).toBeGreaterThan(200);
      expect(host.output()).not.toMatch(/not written in time|Could not write/);
      expect(await createRepositories(observer).opLogs.count()).toBe(answered);
    } finally {
      await observer.close();
    }
  }, 60_000);

  it('answers every request sent after SIGTERM on open keep-alive connections, exits 0, logs every write', async () => {
    const drainDb = await createTestDatabase('PostgreSQL');
    const drainRoot = mkdtempSync(join(tmpdir(), 'svc-drain-sigterm-'));
    const host = await start(drainRoot, drainDb, { Service__Shutdown__DrainSeconds: '30' });
    const observer = await openDatabase({
      dbType: 'PostgreSQL',
      connectionString: drainDb.connectionString,
      contentRoot: drainRoot,
    });
    try {
      const login = await fetch(`${host.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
      });
      const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
      const auth = { authorization: `Bearer ${token}` };
      const write = async (c: RawConnection) => {
        await c.request('POST', '/api/v1/sys/cache/rebuild-portal', auth);
        return c.response();
      };
      let answered = 0;
      let terminated = false;
      let sentAfter = 0;
      let answeredAfter = 0;
      const count = (res: { status: number; body: string }, after: boolean) => {
        if (res.status === 200 && (JSON.parse(res.body) as { code: number }).code === 0) answered++;
        if (after) answeredAfter++;
      };
      const idle = await Promise.all([1, 2, 3].map(() => RawConnection.open(host.url)));
      for (const c of idle) count(await write(c), false);
      const writers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => RawConnection.open(host.url)));
      const loops = writers.map(async (c) => {
        for (;;) {
          const after = terminated;
          if (after) sentAfter++;
          const res = await write(c);
          count(res, after);
          if (res.headers.connection === 'close') return;
          if (!terminated && answered >= 150) {
            terminated = true;
            host.child.kill('SIGTERM');
          }
        }
      });
      // Once the host drains, a request on a connection that sat idle is answered with Connection: close.
      for (let i = 0; i < 400 && !/Shutting down: no new connections/.test(host.output()); i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(host.output()).toMatch(/Shutting down: no new connections/);
      const late = await Promise.all(
        idle.map(async (c) => {
          sentAfter++;
          const res = await write(c);
          count(res, true);
          return [res.status, res.headers.connection];
        }),
      );
      expect(late).toEqual([
        [200, 'close'],
        [200, 'close'],
        [200, 'close'],
      ]);
      await Promise.all(loops);
      expect(await host.exit).toBe(0);
      const sockets = [...idle, ...writers];
      expect(sockets.flatMap((c) => c.errors.map((e) => e.message))).toEqual([]);
      expect(sentAfter).toBeGreaterThanOrEqual(9);
      expect(answeredAfter).toBe(sentAfter);
      expect(await createRepositories(observer).opLogs.count()).toBe(answered);
    } finally {
      await observer.close();
      rmSync(drainRoot, { recursive: true, force: true });
      await drainDb.drop();
    }
  }, 60_000);
});

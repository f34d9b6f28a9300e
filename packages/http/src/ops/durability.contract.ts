/**
 * Audit durability against a real database (contract §10, issue 11): while the operation-log (or login-log)
 * table is renamed away in the test's own database, authenticated writes keep being answered; once it is back,
 * every answered write has exactly one operation-log row. A server stopped during the failure spills what it
 * could not write, and the next server on the same content root replays it. Counts, never clocks: the tests
 * wait for the writer's own counters.
 */
import { type Database, openDatabase } from '@svc/data';
import type { DbType } from '@svc/kernel';
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../app.js';
import { createRoute, z } from '../index.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { bearer, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';

const WRITE_PATH = '/api/v1/test/durable';

const configure: NonNullable<CreateAppOptions['configure']> = (ctx) => {
  registerRoute(
    ctx,
    createRoute({
      method: 'post',
      path: WRITE_PATH,
      summary: 'Durability test write',
      responses: envelopeResponses(z.null()),
    }),
    { auth: 'authenticated' },
    (c) => c.json(ok(null), 200),
  );
};

/** Runs one DDL statement through the driver's own client (better-sqlite3, postgres-js, mysql2). */
async function exec(database: Database, statement: string): Promise<void> {
  const client = (database.db as unknown as { $client: DriverClient }).$client;
  if (database.dbType === 'Sqlite') client.exec(statement);
  else if (database.dbType === 'PostgreSQL') await client.unsafe(statement);
  else if (database.dbType === 'MySql')
    await client.query(statement); // the promise pool (with its query timeout)
  else throw new Error(`no DDL helper for ${database.dbType}`);
}
interface DriverClient {
  exec(sql: string): unknown;
  unsafe(sql: string): Promise<unknown>;
  query(sql: string): Promise<unknown>;
}

async function renameTable(database: Database, from: string, to: string): Promise<void> {
  await exec(
    database,
    database.dbType === 'MySql' ? `RENAME TABLE ${from} TO ${to}` : `ALTER TABLE ${from} RENAME TO ${to}`,
  );
}

/** Rows of `sys_op_log` for the test route, and how many distinct trace ids they carry. */
async function opRows(database: Database): Promise<{ rows: number; traces: number }> {
  const t = database.tables.sysOpLog;
  const db = database.db as unknown as {
    select(fields: unknown): { from(table: unknown): Promise<{ traceId: string | null; path: string }[]> };
  };
  const rows = await db.select({ traceId: t.traceId, path: t.path }).from(t);
  const mine = rows.filter((r) => r.path === WRITE_PATH);
  return { rows: mine.length, traces: new Set(mine.map((r) => r.traceId)).size };
}

/**
 * Resolves once `condition` holds. It checks after each turn of the event loop, then every few milliseconds;
 * the limit only keeps a broken writer from hanging the run (the retries it waits for take about 3 s, and a
 * count of turns would end sooner on a fast machine than the writer's own timers).
 */
async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 25_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (let turn = 0; ; turn++) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => (turn < 1_000 ? setImmediate(resolve) : setTimeout(resolve, 5)));
  }
}

export function defineDurabilityContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`audit durability on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    beforeAll(async () => {
      t = await startTestServer({ dbType, cache, configure });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    /** A burst of authenticated writes; answers how many were answered 200. */
    async function burst(n: number, headers = admin, server = t): Promise<number> {
      const answers = await Promise.all(
        Array.from({ length: n }, () => server.request(WRITE_PATH, { method: 'POST', headers })),
      );
      return answers.filter((r) => r.status === 200).length;
    }

    it('loses no operation-log row while the table is gone under write load, and writes none twice', async () => {
      const database = t.server.database.database;
      const writer = t.server.logWriters.opLog;
      let answered = await burst(20);
      await writer.drain(30_000);
      await renameTable(database, 'sys_op_log', 'sys_op_log_away');
      try {
        for (let round = 0; round < 5; round++) answered += await burst(40);
        // Retries exhausted: rows went to the spill under {ContentRoot}/data.
        await until(() => writer.stats().spilled > 0, 'rows spilled');
        // The operator sees it in the server snapshot.
        const monitor = await t.request('/api/v1/sys/monitor/server', { headers: admin });
        const snapshot = (await monitor.json()) as { data: { opLog: Record<string, unknown> } };
        expect(snapshot.data.opLog).toMatchObject({ failing: true, dropped: 0 });
        answered += await burst(40);
      } finally {
        await renameTable(database, 'sys_op_log_away', 'sys_op_log');
      }
      answered += await burst(20);
      await until(async () => {
        await writer.drain(30_000);
        await writer.replay();
        return writer.stats().spilled === 0 && writer.stats().queued === 0;
      }, 'spill replayed');
      expect(answered).toBe(280);
      const { rows, traces } = await opRows(database);
      expect(rows).toBe(answered);
      expect(traces).toBe(answered);
      expect(writer.stats()).toMatchObject({ dropped: 0, failing: false });
      expect(writer.stats().replayed).toBeGreaterThan(0);
    });

    it('spills at shutdown what it cannot write and replays it at the next start on the same content root', async () => {
      const first = await startTestServer({ dbType, cache, configure });
      let next: TestServer | undefined;
      let side: Database | undefined;
      try {
        const headers = bearer((await login(first, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
        const database = first.server.database.database;
        await first.server.logWriters.opLog.drain(30_000);
        const before = (await opRows(database)).rows;
        await renameTable(database, 'sys_op_log', 'sys_op_log_away');
        const answered = await burst(60, headers, first);
        await first.stop();
        expect(first.server.logWriters.opLog.stats()).toMatchObject({ queued: 0, spilled: 60, dropped: 0 });

        side = await openDatabase({
          dbType,
          connectionString: first.database.connectionString,
          contentRoot: first.contentRoot,
        });
        await renameTable(side, 'sys_op_log_away', 'sys_op_log');
        next = await startTestServer({
          dbType,
          cache,
          configure,
          reuse: { database: first.database, contentRoot: first.contentRoot },
        });
        const writer = next.server.logWriters.opLog;
        await until(() => writer.stats().spilled === 0, 'spill replayed at start');
        const { rows, traces } = await opRows(side);
        expect(rows - before).toBe(answered);
        expect(traces).toBe(rows);
        expect(writer.stats().replayed).toBe(60);
      } finally {
        await side?.close();
        if (next) await next.close();
        else await first.close();
      }
    });

    it('stores a burst of identical exceptions as two rows at once, the folded one findable by every trace id', async () => {
      let at = Date.UTC(2026, 5, 1);
      const flood = await startTestServer({
        dbType,
        cache,
        now: () => new Date(at),
        configure: (ctx) => {
          registerRoute(
            ctx,
            createRoute({
              method: 'get',
              path: '/api/v1/test/boom/{id}',
              request: { params: z.object({ id: z.string() }) },
              responses: envelopeResponses(z.null()),
            }),
            { auth: 'anonymous' },
            (c) => {
              throw new TypeError(`order ${c.req.param('id')} has no customer`);
            },
          );
        },
      });
      try {
        const answers = await Promise.all(
          Array.from({ length: 30 }, (_, i) => flood.request(`/api/v1/test/boom/${1000 + i}`)),
        );
        expect(answers.every((r) => r.status === 500)).toBe(true);
        const rows = async () =>
          (await flood.server.database.repos.exceptionLogs.page({ current: 1, size: 50 })).items.filter((r) =>
            r.path.startsWith('/api/v1/test/boom/'),
          );
        // Two rows at once, not at the window's end: the first, and the folded one with every repeat's trace id.
        const stored = await rows();
        expect(stored).toHaveLength(2);
        const traceIds = answers.map((r) => r.headers.get('x-trace-id') as string);
        const folded = stored.find((r) => r.message.startsWith('[repeated'));
        expect(folded?.message).toMatch(/^\[repeated 29 times in 60 s\] order \d+ has no/);
        const own = stored.find((r) => r !== folded)?.traceId;
        expect(folded?.traceIds?.trim().split(' ').sort()).toEqual(
          traceIds.filter((id) => id !== own).sort(),
        );
        // Each answered trace id finds its row through the page's filter, right after its answer.
        for (const id of traceIds) {
          const found = await flood.server.database.repos.exceptionLogs.page({ traceId: id });
          expect(
            found.items.map((r) => r.id),
            id,
          ).toEqual([id === own ? stored.find((r) => r !== folded)?.id : folded?.id]);
        }
        at += 60_000;
        await flood.server.deps.exceptions.flush?.();
        expect(await rows()).toHaveLength(2);
      } finally {
        await flood.close();
      }
    });

    it('keeps login-log rows the database refused and writes them once it answers again', async () => {
      const database = t.server.database.database;
      const writer = t.server.logWriters.loginLog;
      const count = async () => (await t.server.database.repos.loginLogs.page({ size: 1 })).total;
      const before = await count();
      await renameTable(database, 'sys_login_log', 'sys_login_log_away');
      let answered = 0;
      try {
        const results = await Promise.all(
          Array.from({ length: 5 }, () =>
            t.request('/api/v1/auth/login', { json: { account: 'nobody-durable', password: 'Wrong#Pass1' } }),
          ),
        );
        answered = results.filter((r) => r.status !== 500).length;
        await until(() => writer.stats().spilled === 5, 'login rows spilled');
      } finally {
        await renameTable(database, 'sys_login_log_away', 'sys_login_log');
      }
      await writer.replay();
      expect(answered).toBe(5);
      expect((await count()) - before).toBe(5);
      expect(writer.stats()).toMatchObject({ spilled: 0, dropped: 0 });
    });
  });
}

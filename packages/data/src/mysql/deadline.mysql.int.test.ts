/**
 * The client-side deadlines of MySQL/MariaDB (deadline.ts) against a server behind a proxy that turns into a
 * black hole: the sockets stay open and nothing answers, so the server's max_statement_time cannot help. Every
 * kind of database wait (a statement, the readiness ping, a transaction's statements, the wait for a pooled
 * connection) must fail as "database unavailable" instead of hanging, and the stuck connection must not be
 * handed out again once the server answers. Before, the statement after the first timeout queued behind the dead
 * one on the same connection and a transaction's statements had no timeout: they never settled, and this test
 * failed at its own timeout. A healthy server running a statement under a raised max_statement_time (an import,
 * an SQL job) is not cut by the pool's shorter budget.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../database.js';
import { isDatabaseUnavailable } from '../errors.js';
import { type FreezableProxy, startFreezableProxy } from '../testing/faults.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

/** How a promise settled: the value, or the error (never both). */
async function settled<T>(work: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await work };
  } catch (error) {
    return { error };
  }
}

describe('MySQL client-side deadlines', () => {
  let created: TestDatabase;
  let proxy: FreezableProxy;
  let database: Database;
  const execute = (query: ReturnType<typeof sql>) =>
    (database.db as unknown as { execute(q: unknown): Promise<unknown> }).execute(query);
  const transaction = <T>(work: (tx: { execute(q: unknown): Promise<unknown> }) => Promise<T>) =>
    database.adapter.transaction(database.db, work as never) as Promise<T>;
  const rowsOf = (result: unknown) => (result as [{ id: number }[]])[0];
  const connectionId = async () => rowsOf(await execute(sql`select connection_id() as id`))[0]?.id;

  beforeAll(async () => {
    created = await createTestDatabase('MySql');
    const url = new URL(created.connectionString);
    proxy = await startFreezableProxy(url.hostname, Number(url.port || 3306));
    url.host = `127.0.0.1:${proxy.port}`;
    database = await openDatabase({
      dbType: 'MySql',
      connectionString: url.toString(),
      contentRoot: process.cwd(),
      // Small on purpose; nothing below measures time.
      commandTimeoutMs: 300,
      acquireTimeoutMs: 500,
      poolSize: 1,
    });
  });
  afterAll(async () => {
    proxy?.thaw();
    await database?.close();
    await proxy?.close();
    await created?.drop();
  });

  it('fails every wait on a frozen server as unavailable, then does not reuse the stuck connection', async () => {
    const before = await connectionId();
    expect(before).toBeGreaterThan(0);
    // A transaction that the freeze catches half-way.
    let frozeInside: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      frozeInside = resolve;
    });
    const halfway = settled(
      transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        proxy.freeze();
        frozeInside();
        return tx.execute(sql`select 2`);
      }),
    );
    await inside;
    const waits = await Promise.all([
      halfway,
      settled(execute(sql`select 1`)),
      settled(execute(sql`select 1`)),
      settled(database.ping()),
      settled(transaction((tx) => tx.execute(sql`select 3`))),
    ]);
    for (const wait of waits) {
      expect(wait.value).toBeUndefined();
      expect(isDatabaseUnavailable(wait.error)).toBe(true);
    }
    // Statements after the first timeout (the pool has one connection) failed too, instead of queueing behind it.
    proxy.thaw();
    const after = await connectionId();
    expect(after).toBeGreaterThan(0);
    expect(after).not.toBe(before);
    expect(rowsOf(await execute(sql`select 4 as id`))[0]?.id).toBe(4);
  });

  it('keeps a raised max_statement_time for the rest of a transaction on a healthy server', async () => {
    // The pool's budget is 300 ms (+1 s grace); the statement sleeps 1.5 s under a transaction's own 30 s.
    const slept = await transaction(async (tx) => {
      await tx.execute(sql.raw('set @svc_statement_timeout = @@SESSION.max_statement_time'));
      await tx.execute(sql.raw('set session max_statement_time = 30'));
      try {
        return rowsOf(await tx.execute(sql`select sleep(1.5) as id`))[0]?.id;
      } finally {
        await tx.execute(sql.raw('set session max_statement_time = @svc_statement_timeout'));
      }
    });
    expect(Number(slept)).toBe(0);
    // Put back, the pool's own budget holds again: the server cuts a longer statement.
    const cut = await settled(execute(sql`select sleep(30)`));
    expect(isDatabaseUnavailable(cut.error)).toBe(true);
  });
});

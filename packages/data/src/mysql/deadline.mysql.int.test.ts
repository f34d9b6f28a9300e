/**
 * The client-side deadlines of MySQL/MariaDB (deadline.ts) against a server behind a proxy that turns into a
 * black hole: the sockets stay open and nothing answers, so the server's max_statement_time cannot help. Every
 * kind of database wait (a statement, the readiness ping, a transaction's statements, the wait for a pooled
 * connection) must fail as "database unavailable" instead of hanging, and the stuck connection must not be
 * handed out again once the server answers. Before, the statement after the first timeout queued behind the dead
 * one on the same connection and a transaction's statements had no timeout: they never settled, and this test
 * failed at its own timeout. A healthy server running a statement under a raised max_statement_time (an import,
 * an SQL job) is not cut by the pool's shorter budget, and the server's own timeout answers before the client's.
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
  let onQuery: (query: string) => void = () => {};
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
      // Told each statement before it is sent: a test freezes the server under a given one.
      queryLogger: { logQuery: (query) => onQuery(query) },
    });
  });
  afterAll(async () => {
    proxy?.thaw();
    await database?.close();
    await proxy?.close();
    await created?.drop();
  });

  it('does not queue the next statement behind one that outlived its deadline', async () => {
    // The pool's one connection is idle: a statement takes it, the server freezes, the statement times out. Before,
    // the pool took the connection back with the dead statement still at the head of its queue, and the next
    // statement given to it waited there for the whole freeze.
    const before = await connectionId();
    proxy.freeze();
    const first = await settled(execute(sql`select 1`));
    expect(isDatabaseUnavailable(first.error)).toBe(true);
    const second = await settled(execute(sql`select 2`));
    expect(isDatabaseUnavailable(second.error)).toBe(true);
    proxy.thaw();
    const after = await connectionId();
    expect(after).toBeGreaterThan(0);
    expect(after).not.toBe(before);
  });

  it('answers an SQL job with its own timeout as unavailable when the server freezes under it', async () => {
    // The statement times out on the client; the restore of the session's budget that follows it in the same
    // transaction ran on the destroyed connection and failed without a code, which replaced the timeout (a 500).
    onQuery = (query) => {
      if (query.includes('sleep(0.5)')) proxy.freeze();
    };
    try {
      const { error } = await settled(
        database.adapter.executeStatement(database.db, 'select sleep(0.5)', { timeoutMs: 1_000 }),
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      onQuery = () => {};
      proxy.thaw();
    }
    expect(rowsOf(await execute(sql`select 5 as id`))[0]?.id).toBe(5);
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
    // The pool's budget is 300 ms (+1 s grace); an SQL job with its own 30 s sleeps 1.5 s (adapter.ts raises the
    // session's max_statement_time in its transaction and puts it back after).
    const affected = await database.adapter.executeStatement(database.db, 'select sleep(1.5)', {
      timeoutMs: 30_000,
    });
    expect(affected).toBe(0);
    // Put back, the pool's own budget holds again: the server itself cuts a longer statement (1969, MariaDB's
    // max_statement_time exceeded), before the client's deadline.
    const cut = await settled(execute(sql`select sleep(30)`));
    expect(isDatabaseUnavailable(cut.error)).toBe(true);
    let cause: unknown = cut.error;
    while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
    expect((cause as { errno?: unknown }).errno).toBe(1969);
  });
});

/**
 * The client-side deadline of PostgreSQL statements (deadline.ts) against a private server that is frozen with
 * SIGSTOP: the socket stays open and nothing answers, so the server's statement_timeout cannot help. Every kind of
 * database wait (a query, the readiness ping, a transaction, a job's statement with and without its own timeout)
 * must fail as "database unavailable" instead of hanging, and the stuck connection must not be reused once the
 * server runs again. Without the deadline these statements never settle and the test fails at its own timeout.
 * A healthy server that runs a statement under a raised `SET LOCAL statement_timeout` is not cut by it.
 */
import { type Logger, silentLogger } from '@svc/kernel';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../database.js';
import { isDatabaseUnavailable } from '../errors.js';
import { type FaultServer, startPrivatePostgres } from '../testing/faults.js';

const pg = await startPrivatePostgres();

/** A logger that resolves `closed` when the pool reports closing its connections to a silent server. */
function watchingLogger(): { logger: Logger; closed: Promise<string> } {
  let seen: (message: string) => void = () => {};
  const closed = new Promise<string>((resolve) => {
    seen = resolve;
  });
  const logger: Logger = {
    ...silentLogger,
    warn(message) {
      if (message.includes("closed the pool's connections")) seen(message);
    },
  };
  return { logger, closed };
}

describe.skipIf(pg.skip !== undefined)('PostgreSQL client-side deadline', () => {
  const server = pg.server as FaultServer;
  let database: Database;
  const watch = watchingLogger();
  const execute = (query: ReturnType<typeof sql>) =>
    (database.db as unknown as { execute(q: unknown): Promise<unknown> }).execute(query);
  const backendPid = async () =>
    ((await execute(sql`select pg_backend_pid() as pid`)) as { pid: number }[])[0]?.pid;

  beforeAll(async () => {
    database = await openDatabase({
      dbType: 'PostgreSQL',
      connectionString: server.url,
      contentRoot: process.cwd(),
      // Small on purpose; nothing below measures time.
      commandTimeoutMs: 500,
      acquireTimeoutMs: 500,
      poolSize: 1,
      logger: watch.logger,
    });
  });
  afterAll(async () => {
    server.thaw?.();
    await database?.close();
    await server.destroy();
  });

  it('fails every wait on a frozen server as unavailable, then does not reuse the stuck connection', async () => {
    const before = await backendPid();
    server.freeze?.();
    try {
      const results = await Promise.allSettled([
        execute(sql`select 1`),
        database.ping(),
        database.adapter.transaction(database.db, (tx) =>
          (tx as unknown as { execute(q: unknown): Promise<unknown> }).execute(sql`select 1`),
        ),
        database.adapter.executeStatement(database.db, 'select 1'),
        database.adapter.executeStatement(database.db, 'select 1', { timeoutMs: 400 }),
      ]);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        expect(isDatabaseUnavailable(result.status === 'rejected' ? result.reason : undefined)).toBe(true);
      }
      // The check on a fresh connection got no answer either: the pool's sockets are destroyed.
      expect(await watch.closed).toContain('answers nothing');
    } finally {
      server.thaw?.();
    }
    const after = await backendPid();
    expect(after).toBeTypeOf('number');
    expect(after).not.toBe(before);
  }, 30_000);

  it('lets a statement run past the command timeout where SET LOCAL raised the budget', async () => {
    // 1.6 s of sleep outlasts the pool's deadline (500 ms + the grace); the transaction's own budget allows it.
    const slept = await database.adapter.transaction(database.db, async (tx) => {
      const run = (tx as unknown as { execute(q: unknown): Promise<unknown> }).execute.bind(tx);
      await run(sql.raw('set local statement_timeout = 20000'));
      return run(sql`select pg_sleep(1.6)`);
    });
    expect(slept).toBeDefined();
    expect(
      await database.adapter.executeStatement(database.db, 'select pg_sleep(1.6)', { timeoutMs: 20_000 }),
    ).toBe(1);
  }, 30_000);
});

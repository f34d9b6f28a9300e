/**
 * Client-side deadlines for MySQL/MariaDB (mysql2). The server's `max_statement_time` bounds a statement only
 * while the server runs: a frozen server (SIGSTOP, a host that hangs, a network black hole) keeps the socket open
 * and answers nothing. mysql2's own query `timeout` fails the statement that waits, but leaves it at the head of
 * its connection's command queue, and the pool takes that connection back: the next statement given to it queued
 * behind the dead one, where its own timeout never starts, and waited for as long as the server stayed frozen.
 * A transaction's statements had no timeout at all, and the wait for a pooled connection none either. Here:
 * - every statement, in a transaction too, gets mysql2's timeout: its server budget plus a grace (the command
 *   timeout, or what `SET SESSION max_statement_time` gave the transaction's connection: imports, SQL jobs);
 * - a connection whose statement timed out is destroyed, never handed out again (what waited on it fails at
 *   once; the server, if it is alive, ends its session when it sees the socket close);
 * - the wait for a pooled connection, a new one's connect included, is bounded by the acquire timeout.
 * Past any of them the caller gets an error `isDatabaseUnavailable` recognises (503/50003 above it). As with
 * PostgreSQL, a write given up after it was sent may still commit once the server resumes.
 */
import type { PoolConnection, Pool as PromisePool } from 'mysql2/promise';
import { DatabaseUnavailableError } from '../errors.js';

/**
 * Time on top of the server's budget before the client gives up: the server's own timeout error (1969
 * `max_statement_time exceeded`) must arrive first whenever the server runs, also when the event loop lags.
 */
export const DEADLINE_GRACE_MS = 1_000;

export interface MysqlDeadlineOptions {
  /** The pool's server budget per statement (`max_statement_time`, the command timeout). */
  commandTimeoutMs: number;
  /** The longest wait for a pooled connection, opening a new one included. */
  acquireTimeoutMs: number;
  /** Where the database is, for the error message (no credentials). */
  target: string;
}

/**
 * `SET SESSION max_statement_time = <seconds>` (MariaDB) or `max_execution_time = <ms>` (MySQL), as this package
 * writes them (mysql/adapter.ts, repositories/users.ts), a restore from a user variable included.
 */
const SET_SESSION_TIMEOUT =
  /^\s*set\s+session\s+(max_statement_time|max_execution_time)\s*=\s*([0-9.]+|@[a-z_]+)\s*;?\s*$/i;

type Query = (options: unknown, values?: unknown) => Promise<unknown>;

const timedOut = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === 'PROTOCOL_SEQUENCE_TIMEOUT';

/** The statement's text, whichever form mysql2 was given. */
const textOf = (options: unknown) =>
  typeof options === 'string' ? options : (options as { sql?: unknown } | null)?.sql;

/** mysql2's query options with a timeout (a caller's own `timeout` wins); `0` leaves the statement unbounded. */
function withTimeout(options: unknown, timeoutMs: number): unknown {
  const given = typeof options === 'string' ? { sql: options } : options;
  if (timeoutMs <= 0 || typeof given !== 'object' || given === null) return given;
  return { timeout: timeoutMs, ...given };
}

/**
 * The pool with deadlines, as drizzle takes it: `query` and `getConnection` (what drizzle's transactions use)
 * are bounded; every other property is the mysql2 promise pool's own.
 */
export function withDeadlines(pool: PromisePool, options: MysqlDeadlineOptions): PromisePool {
  const { commandTimeoutMs, acquireTimeoutMs, target } = options;
  const getConnection = pool.getConnection.bind(pool);

  /** A pooled connection within the acquire timeout; one that comes later goes straight back. */
  function acquire(): Promise<PoolConnection> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(
          new DatabaseUnavailableError(
            'MySql',
            target,
            `no connection within ${acquireTimeoutMs} ms (the acquire timeout; the server may be frozen, unreachable or saturated)`,
          ),
        );
      }, acquireTimeoutMs);
      getConnection().then(
        (connection) => {
          if (settled) connection.release();
          else {
            settled = true;
            clearTimeout(timer);
            resolve(connection);
          }
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** Runs one statement on `connection`; a statement that timed out takes its connection with it. */
  async function run(
    connection: PoolConnection,
    query: Query,
    statement: unknown,
    values: unknown,
    budgetMs: number,
  ): Promise<unknown> {
    try {
      return await query(withTimeout(statement, budgetMs > 0 ? budgetMs + DEADLINE_GRACE_MS : 0), values);
    } catch (error) {
      if (timedOut(error)) connection.destroy();
      throw error;
    }
  }

  /** A transaction's connection: its statements carry the connection's budget, raised by `SET SESSION`. */
  function bounded(connection: PoolConnection): PoolConnection {
    const query = connection.query.bind(connection) as Query;
    let budgetMs = commandTimeoutMs;
    const boundedQuery = async (statement: unknown, values?: unknown) => {
      const result = await run(connection, query, statement, values, budgetMs);
      const text = textOf(statement);
      const raised = typeof text === 'string' ? SET_SESSION_TIMEOUT.exec(text) : null;
      if (raised?.[2] !== undefined) {
        const [, name, value] = raised;
        // A restore from a user variable puts back the pool's own value (connect.ts sets it on every connection).
        const ms = value.startsWith('@')
          ? commandTimeoutMs
          : name?.toLowerCase() === 'max_statement_time'
            ? Number(value) * 1000
            : Number(value);
        if (Number.isFinite(ms)) budgetMs = ms;
      }
      return result;
    };
    return Object.assign(Object.create(connection) as PoolConnection, { query: boundedQuery });
  }

  async function boundedPoolQuery(statement: unknown, values?: unknown): Promise<unknown> {
    const connection = await acquire();
    const query = connection.query.bind(connection) as Query;
    try {
      return await run(connection, query, statement, values, commandTimeoutMs);
    } finally {
      // A destroyed connection is out of the pool already; releasing it again is a no-op there.
      connection.release();
    }
  }

  return Object.assign(Object.create(pool) as PromisePool, {
    query: boundedPoolQuery,
    getConnection: async () => bounded(await acquire()),
  });
}

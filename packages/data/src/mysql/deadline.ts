/**
 * Client-side deadlines for MySQL/MariaDB (mysql2). The server's `max_statement_time` bounds a statement only
 * while the server runs: a frozen server (SIGSTOP, a host that hangs, a network black hole) keeps the socket open
 * and answers nothing. mysql2's own query `timeout` fails the statement that waits, but leaves it at the head of
 * its connection's command queue, and the pool takes that connection back: the next statement given to it queued
 * behind the dead one, where its own timeout never starts (mysql2 starts it when the statement reaches the head),
 * and waited for as long as the server stayed frozen. A transaction's statements had no timeout at all, and the
 * wait for a pooled connection none either. Here:
 * - every statement, in a transaction too, gets mysql2's timeout: its server budget plus a grace (the command
 *   timeout, or what `SET SESSION max_statement_time` gave the transaction's connection: imports, SQL jobs);
 * - a connection whose statement timed out is destroyed, never handed out again, and what its caller sends on it
 *   afterwards (a transaction's restore or rollback) fails at once as unavailable. Nothing else can wait on it: a
 *   pooled connection serves one caller at a time, and drizzle runs a transaction's statements one after another.
 *   The server, if it is alive, ends the session when it sees the socket close;
 * - the session settings of a new connection (the server's own statement timeout) are sent through the same
 *   bounded path before its first statement, not queued ahead of it by the pool;
 * - the wait for a pooled connection, a new one's connect included, is bounded by the acquire timeout.
 * Past any of them the caller gets an error `isDatabaseUnavailable` recognises (503/50003 above it). As with
 * PostgreSQL, a write given up after it was sent may still commit once the server resumes. On MySQL (not MariaDB)
 * the server bounds only SELECT statements (`max_execution_time`), so there a write that outlasts its budget on a
 * live server (a long lock wait) is cut by this deadline instead.
 */
import type { PoolConnection, Pool as PromisePool } from 'mysql2/promise';
import { DEADLINE_GRACE_MS } from '../dialect-module.js';
import { DatabaseUnavailableError } from '../errors.js';

export interface MysqlDeadlineOptions {
  /** The pool's server budget per statement (`max_statement_time`, the command timeout). */
  commandTimeoutMs: number;
  /** The longest wait for a pooled connection, opening a new one included. */
  acquireTimeoutMs: number;
  /** Where the database is, for the error message (no credentials). */
  target: string;
  /**
   * Runs once on each new connection before its first statement (the session's statement timeout), with a
   * bounded `query` of its own.
   */
  initialize?: (query: (sql: string) => Promise<unknown>) => Promise<void>;
}

/**
 * `SET SESSION max_statement_time = <seconds>` (MariaDB) or `max_execution_time = <ms>` (MySQL), as this package
 * writes them (mysql/adapter.ts `executeStatement`, repositories/users-import.ts `importBatch`; the MySQL
 * deadline test runs both), a restore from the user variable they saved the pool's value in included.
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

/** One pooled connection with its budget, and the timeout that took it if one did. */
interface Held {
  connection: PoolConnection;
  query: Query;
  budgetMs: number;
  lost?: unknown;
}

/**
 * The pool with deadlines, as drizzle takes it: `query` and `getConnection` (what drizzle's transactions use)
 * are bounded; every other property is the mysql2 promise pool's own.
 */
export function withDeadlines(pool: PromisePool, options: MysqlDeadlineOptions): PromisePool {
  const { commandTimeoutMs, acquireTimeoutMs, target } = options;
  const getConnection = pool.getConnection.bind(pool);
  /** Connections whose session settings were sent (the pool reuses them). */
  const initialized = new WeakSet<object>();

  const unavailable = (reason: string, cause?: unknown) =>
    new DatabaseUnavailableError('MySql', target, reason, cause === undefined ? undefined : { cause });

  /** Runs one statement; a statement that timed out takes its connection with it. */
  async function run(held: Held, statement: unknown, values: unknown): Promise<unknown> {
    if (held.lost !== undefined)
      throw unavailable('the connection was closed after a statement outlived its deadline', held.lost);
    const budget = held.budgetMs;
    try {
      return await held.query(withTimeout(statement, budget > 0 ? budget + DEADLINE_GRACE_MS : 0), values);
    } catch (error) {
      if (timedOut(error)) {
        held.lost = error;
        held.connection.destroy();
      }
      throw error;
    }
  }

  function hold(connection: PoolConnection): Held {
    return { connection, query: connection.query.bind(connection) as Query, budgetMs: commandTimeoutMs };
  }

  /** A pooled connection within the acquire timeout; one that comes later goes straight back. */
  function pooled(): Promise<PoolConnection> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(
          unavailable(
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

  /** A pooled connection, its session settings sent first when it is new. */
  async function acquire(): Promise<Held> {
    const held = hold(await pooled());
    const raw = (held.connection as unknown as { connection?: object }).connection ?? held.connection;
    if (options.initialize && !initialized.has(raw)) {
      try {
        await options.initialize((sql) => run(held, sql, undefined));
      } catch (error) {
        held.connection.release();
        throw error;
      }
      initialized.add(raw);
    }
    return held;
  }

  /** A transaction's connection: its statements carry the connection's budget, raised by `SET SESSION`. */
  function bounded(held: Held): PoolConnection {
    const boundedQuery = async (statement: unknown, values?: unknown) => {
      const result = await run(held, statement, values);
      const text = textOf(statement);
      const raised = typeof text === 'string' ? SET_SESSION_TIMEOUT.exec(text) : null;
      if (raised?.[2] !== undefined) {
        const [, name, value] = raised;
        // A restore from a user variable puts back the pool's own value (initialize sets it on every connection).
        const ms = value.startsWith('@')
          ? commandTimeoutMs
          : name?.toLowerCase() === 'max_statement_time'
            ? Number(value) * 1000
            : Number(value);
        if (Number.isFinite(ms)) held.budgetMs = ms;
      }
      return result;
    };
    return Object.assign(Object.create(held.connection) as PoolConnection, { query: boundedQuery });
  }

  async function boundedPoolQuery(statement: unknown, values?: unknown): Promise<unknown> {
    const held = await acquire();
    try {
      return await run(held, statement, values);
    } finally {
      // A destroyed connection is out of the pool already; releasing it again is a no-op there.
      held.connection.release();
    }
  }

  return Object.assign(Object.create(pool) as PromisePool, {
    query: boundedPoolQuery,
    getConnection: async () => bounded(await acquire()),
  });
}

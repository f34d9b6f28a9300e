/**
 * Client-side deadlines for PostgreSQL. The server's `statement_timeout` bounds a statement only while the server
 * runs: a frozen server (SIGSTOP, a host that hangs, a network black hole) keeps the socket open and answers
 * nothing, and postgres.js has no query timeout of its own (`connect_timeout` covers opening a connection only),
 * so requests waited for minutes. Here every statement drizzle (or an adapter method) sends through the client
 * gets a deadline of its server budget plus a grace: the command timeout, or what `SET LOCAL statement_timeout`
 * gave its transaction. Past it the caller gets `DatabaseUnavailableError` (503/50003 above it):
 * - a statement still queued for a connection is withdrawn (postgres.js's own `cancel()` for unsent queries);
 * - a statement already sent makes its connection suspect. postgres.js does not tell which connection a query
 *   went to, so a fresh connection checks whether the server answers at all; if it does not, every socket of the
 *   pool is destroyed: postgres.js fails what waits on them (CONNECTION_CLOSED) and reconnects on demand, so no
 *   stuck connection is reused. A server that answers is busy, not gone (a query that waited behind slow ones in
 *   postgres.js's pipeline): its connections and their statements are left alone. Such a statement may still
 *   run after its caller was answered 503: a write given up this way can commit later, so a retry of it must be
 *   one that may run twice (an idempotent write, or one the unique keys refuse the second time).
 * `begin`, `savepoint`, `commit` and `rollback`, which postgres.js sends itself, are bounded by a deadline armed
 * while the transaction waits for them.
 */
import { connect as netConnect, type Socket } from 'node:net';
import type { Logger } from '@svc/kernel';
import { DEADLINE_GRACE_MS } from '../dialect-module.js';
import { DatabaseUnavailableError } from '../errors.js';

/** The slice of a postgres.js `Query` used here (a Promise subclass; `state` is set once a connection took it). */
interface PgQuery extends Promise<unknown> {
  state: unknown;
  reject(error: unknown): void;
  cancel(): unknown;
}

type Work = (sql: PgSql) => unknown;

/** The slice of a postgres.js `sql` client (or a transaction's) that drizzle and the adapter use. */
interface PgSql {
  unsafe(query: string, args?: unknown[], options?: object): PgQuery;
  begin(options: string | Work, work?: Work): Promise<unknown>;
  savepoint?(name: string | Work, work?: Work): Promise<unknown>;
}

export interface DeadlineOptions {
  /** The pool's server budget per statement (`statement_timeout`, the command timeout). */
  commandTimeoutMs: number;
  /** How long the liveness check may take to get an answer (the acquire timeout). */
  checkTimeoutMs: number;
  /** Where the database is, for the error message (no credentials). */
  target: string;
  /** Told when the pool's sockets are destroyed (a warning for the operator). */
  logger?: Logger | undefined;
  /** Opens a one-connection client for the liveness check. */
  openCheck(): {
    unsafe(query: string): PromiseLike<unknown>;
    end(options: { timeout: number }): Promise<void>;
  };
}

/** `SET LOCAL statement_timeout = <ms>` as this package writes it (pg/adapter.ts, repositories/users.ts). */
const SET_LOCAL_TIMEOUT = /^\s*set\s+local\s+statement_timeout\s*=\s*'?(\d+)'?\s*;?\s*$/i;

/**
 * Sockets of the pool, opened through postgres.js's `socket` option so that they can be destroyed. Mirrors how
 * postgres.js connects itself (one host; a host with a slash is a Unix socket folder); it sets keep-alive and
 * does TLS on the socket afterwards.
 */
export function socketPool(host: string, port: number) {
  const sockets = new Set<Socket>();
  return {
    open(): Socket {
      for (const s of sockets) if (s.destroyed) sockets.delete(s);
      const socket = host.includes('/')
        ? netConnect({ path: `${host}/.s.PGSQL.${port}` })
        : netConnect({ host, port });
      // postgres.js reads `host` for the TLS server name (verify-full).
      Object.assign(socket, { host });
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      return socket;
    },
    destroyAll(): void {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
  };
}

/**
 * The client with deadlines, as drizzle takes it: every other property (`options`, tagged templates, `end`) is
 * the postgres.js client's own. `destroyAll` ends every pooled socket when the server stopped answering.
 */
export function withDeadlines<T extends object>(
  client: T,
  options: DeadlineOptions,
  destroyAll: () => void,
): T {
  const grace = DEADLINE_GRACE_MS;
  let checking = false;

  const unavailable = (waitedMs: number) =>
    new DatabaseUnavailableError(
      'PostgreSQL',
      options.target,
      `no answer within ${waitedMs} ms (client-side deadline; the server may be frozen or unreachable)`,
    );

  /**
   * Whether a fresh connection gets an answer to `select 1` within the check timeout. An error the server sent
   * (a SQLSTATE: too many connections, starting up, authentication) is an answer: the server is there, and its
   * pool is left alone; only silence or a socket failure counts as gone.
   */
  async function answers(): Promise<boolean> {
    const check = options.openCheck();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        check.unsafe('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(reject, options.checkTimeoutMs);
        }),
      ]);
      return true;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
    } finally {
      clearTimeout(timer);
      void check.end({ timeout: 0 }).catch(() => {});
    }
  }

  /** A sent statement got no answer in time: destroy the pool's sockets if the server answers nothing. */
  function suspect(): void {
    if (checking) return;
    checking = true;
    void answers().then((alive) => {
      checking = false;
      if (alive) return;
      options.logger?.warn(
        `The PostgreSQL server at ${options.target} answers nothing (a statement outlived its deadline and a new connection got no answer within ${options.checkTimeoutMs} ms); closed the pool's connections.`,
      );
      destroyAll();
    });
  }

  /** Bounds one statement; `budgetMs` 0 is the server's "no limit", which the client follows. */
  function bound(query: PgQuery, budgetMs: number): PgQuery {
    if (budgetMs <= 0) return query;
    const waited = budgetMs + grace;
    const timer = setTimeout(() => {
      query.reject(unavailable(waited));
      if (query.state) suspect();
      // Unsent: postgres.js takes it out of its queue (its own rejection comes second and is ignored).
      else void Promise.resolve(query.cancel()).catch(() => {});
    }, waited);
    const settle = () => clearTimeout(timer);
    // Awaiting the query is what sends it; drizzle and the adapter await it at once anyway.
    query.then(settle, settle);
    return query;
  }

  /**
   * Runs `start(work)` (a `begin` or `savepoint`) with a deadline armed while the transaction waits for
   * postgres.js's own statements: before `work` runs (connection, BEGIN) and after it (COMMIT, ROLLBACK). A
   * transaction abandoned at its deadline never runs `work` later.
   */
  function transaction(
    start: (work: Work) => Promise<unknown>,
    work: Work,
    budget: { ms: number },
  ): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    let gaveUp = false;
    let expire: (error: unknown) => void = () => {};
    const expired = new Promise<never>((_, reject) => {
      expire = reject;
    });
    const arm = () => {
      clearTimeout(timer);
      if (budget.ms <= 0) return;
      const waited = budget.ms + grace;
      timer = setTimeout(() => {
        gaveUp = true;
        expire(unavailable(waited));
        suspect();
      }, waited);
    };
    arm();
    const run = start(async (sql) => {
      if (gaveUp) throw unavailable(budget.ms + grace);
      clearTimeout(timer);
      try {
        return await work(scoped(sql, budget));
      } finally {
        arm();
      }
    });
    return Promise.race([run, expired]).finally(() => clearTimeout(timer));
  }

  /** A transaction's client: its statements carry the transaction's budget, raised by `SET LOCAL`. */
  function scoped<S extends PgSql>(sql: S, budget: { ms: number }): S {
    return new Proxy(sql, {
      get(target, property, receiver) {
        if (property === 'unsafe')
          return (query: string, ...rest: unknown[]) => {
            const raised = SET_LOCAL_TIMEOUT.exec(query);
            const bounded = bound(target.unsafe(query, ...(rest as [])), budget.ms);
            if (raised?.[1] !== undefined) budget.ms = Number(raised[1]);
            return bounded;
          };
        if (property === 'savepoint' && target.savepoint) {
          const savepoint = target.savepoint.bind(target);
          return (name: string | Work, work?: Work) =>
            typeof name === 'function'
              ? transaction((w) => savepoint(w), name, budget)
              : transaction((w) => savepoint(name, w), work as Work, budget);
        }
        return Reflect.get(target, property, receiver);
      },
    });
  }

  const pool = client as unknown as PgSql;
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe')
        // Rest arguments: postgres.js reads `unsafe(query, options)` with two arguments as having no values.
        return (query: string, ...rest: unknown[]) =>
          bound(pool.unsafe(query, ...(rest as [])), options.commandTimeoutMs);
      if (property === 'begin')
        return (first: string | Work, work?: Work) => {
          const budget = { ms: options.commandTimeoutMs };
          return typeof first === 'function'
            ? transaction((w) => pool.begin(w), first, budget)
            : transaction((w) => pool.begin(first, w), work as Work, budget);
        };
      return Reflect.get(target, property, receiver);
    },
  });
}

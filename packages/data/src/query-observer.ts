/**
 * Statement timing for the SQL console log and the slow/failed-SQL warnings. drizzle's `Logger` only hears a
 * statement before it runs, so this module also wraps, per connection, the one method every dialect's drizzle
 * session uses to build statements (`prepareQuery`): the returned query's run methods report their end (and
 * failure) to a {@link QueryObserver}. Transactions get new sessions from the driver; `transaction` is wrapped
 * so their sessions are instrumented too. The statement text and parameters are the ones drizzle hands its
 * logger, captured synchronously in the same call, so nothing is re-rendered.
 */
import type { QueryDb } from './dialect.js';
import type { QueryLogger } from './dialect-module.js';

/** Told about every statement: called when it starts, returns the function called once when it ends. */
export interface QueryObserver {
  start(sql: string, params: readonly unknown[]): (error?: unknown) => void;
}

/** The run methods of drizzle's prepared queries across the dialects. */
const RUN_METHODS = ['execute', 'all', 'get', 'run', 'values'] as const;

const INSTRUMENTED = Symbol.for('svc.queryObserver');
/** Where {@link reportStatement} finds an instrumented connection's observer. */
const REPORT = Symbol.for('svc.queryObserver.report');

/** Runs a statement the data layer executes without drizzle, reported as drizzle's own are. */
type Report = <T>(sql: string, params: readonly unknown[], run: () => T) => T;

/**
 * Runs `run`, a synchronous statement the data layer executes on the driver itself (SQLite's appends, whose
 * parameters drizzle would copy one by one before each run), reported as drizzle reports its own: the
 * connection's observer times it (and hears its failure) when the connection is instrumented, else drizzle's
 * logger of the connection hears it before it runs. `params` are read during the call only.
 */
export function reportStatement<T>(db: QueryDb, sql: string, params: readonly unknown[], run: () => T): T {
  const report = (db as unknown as Record<symbol, Report | undefined>)[REPORT];
  if (report) return report(sql, params, run);
  (db as unknown as { session?: { logger?: QueryLogger } }).session?.logger?.logQuery(
    sql,
    params as unknown[],
  );
  return run();
}

type AnyFn = (...args: unknown[]) => unknown;
type Patchable = Record<string | symbol, unknown>;

/**
 * Wires `observer` into one connection: returns the drizzle logger to pass to the driver (it forwards to
 * `next`) and `instrument`, to call on the drizzle database once it exists.
 */
export function createQueryInstrumentation(observer: QueryObserver, next?: QueryLogger) {
  /** The end callback of the statement that started inside the current run call (set by `logQuery`). */
  let pending: ((error?: unknown) => void) | undefined;
  /** Read through a function: the value changes inside the calls in between. */
  const take = () => {
    const end = pending;
    pending = undefined;
    return end;
  };
  let depth = 0;

  const logger: QueryLogger = {
    logQuery(sql, params) {
      // drizzle calls this right before the driver runs the statement: the clock starts here.
      if (depth > 0 && pending === undefined) pending = observer.start(sql, params);
      next?.logQuery(sql, params);
    },
  };

  function wrapRun(target: Patchable, name: string): void {
    const original = target[name];
    if (typeof original !== 'function') return;
    target[name] = function observed(this: unknown, ...args: unknown[]) {
      // A run method that calls another one synchronously (execute → all) is observed once, at the outside.
      if (depth > 0) return (original as AnyFn).apply(this, args);
      take();
      depth++;
      let result: unknown;
      let end: ((error?: unknown) => void) | undefined;
      try {
        result = (original as AnyFn).apply(this, args);
      } catch (error) {
        depth--;
        take()?.(error);
        throw error;
      }
      depth--;
      end = take();
      // Nothing started: a lazy result (SQLite's execute) runs its statement later through another method.
      if (!end) return result;
      if (
        result !== null &&
        typeof result === 'object' &&
        typeof (result as PromiseLike<unknown>).then === 'function'
      ) {
        return (result as Promise<unknown>).then(
          (value) => {
            end?.();
            return value;
          },
          (error: unknown) => {
            end?.(error);
            throw error;
          },
        );
      }
      end();
      return result;
    };
  }

  function instrumentSession(session: Patchable | undefined): void {
    if (!session || session[INSTRUMENTED]) return;
    const prepare = session.prepareQuery;
    if (typeof prepare !== 'function') return;
    session[INSTRUMENTED] = true;
    session.prepareQuery = function prepareObserved(this: unknown, ...args: unknown[]) {
      const prepared = (prepare as AnyFn).apply(this, args) as Patchable;
      for (const name of RUN_METHODS) wrapRun(prepared, name);
      return prepared;
    };
  }

  /** {@link reportStatement} on this connection: what `logQuery` and a wrapped run method do together. */
  const report: Report = (sql, params, run) => {
    const end = observer.start(sql, params);
    next?.logQuery(sql, params as unknown[]);
    let result: ReturnType<typeof run>;
    try {
      result = run();
    } catch (error) {
      end(error);
      throw error;
    }
    end();
    return result;
  };

  function instrument(db: QueryDb): void {
    const target = db as unknown as Patchable;
    if (target[INSTRUMENTED]) return;
    target[INSTRUMENTED] = true;
    target[REPORT] = report;
    instrumentSession(target.session as Patchable | undefined);
    const transaction = target.transaction;
    if (typeof transaction === 'function') {
      target.transaction = function transactionObserved(this: unknown, work: AnyFn, ...rest: unknown[]) {
        return (transaction as AnyFn).call(
          this,
          (tx: QueryDb) => {
            instrument(tx);
            return work(tx);
          },
          ...rest,
        );
      };
    }
  }

  return { logger, instrument };
}

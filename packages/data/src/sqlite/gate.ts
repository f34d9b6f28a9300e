/**
 * One SQLite file, one writer at a time, as the server dialects' row locks would have it. better-sqlite3 gives the
 * process one connection, and the adapter's transaction (`BEGIN IMMEDIATE … COMMIT`) spans the `await`s of its
 * callback: while it is open, any other request's statement on the connection would run inside it, and a rollback
 * would silently undo writes whose requests had been answered as done (an operation-log batch, a password change,
 * a revoked session), and let reads see rows that never commit.
 *
 * So statements from outside a transaction take their turn in the file's queue while one of this process's
 * transactions is open (the {@link FileGate}), and run at once otherwise (the cost on the usual path is one field
 * read). They are found where drizzle runs a statement, a prepared query's `run`/`all`/`get`/`values`: the queries
 * of the connection's own session are gated, those of a transaction's handle ({@link transactionHandle}, which
 * carries a session of its own) are not. A statement that waits longer than the connection's acquire timeout fails with
 * {@link TransactionWaitTimeoutError} (the HTTP layer answers 503 with 50003, as for a lock wait), which is also
 * what a callback gets that issues statements through the outer handle inside its own transaction instead of
 * hanging on itself.
 *
 * drizzle's synchronous calls (`db.run(sql)` without `await`, `.sync()`) answer a promise instead of their result
 * while a transaction is open: await them, or use the transaction's handle. This package runs a transaction's own
 * BEGIN on the connection while the gate is shut and COMMIT/ROLLBACK/SAVEPOINT on the transaction's handle. The
 * relational `db.query` builders keep the connection's session even on a transaction's handle (none is
 * configured here): inside a callback they wait for their own transaction and fail after the timeout.
 */
import type { QueryDb } from '../dialect.js';
import { TransactionWaitTimeoutError } from '../errors.js';

/** What this process knows of one SQLite file: its transaction queue and whether a transaction holds it. */
export interface FileGate {
  /** The file, for messages. */
  readonly target: string;
  /** How long a statement outside a transaction waits for its turn (the acquire timeout). */
  readonly timeoutMs: number;
  /** Tail of the queue of transactions (and waiting statements) on this file. */
  tail: Promise<void> | undefined;
  /** True from BEGIN to COMMIT or ROLLBACK of one of this process's transactions on the file. */
  open: boolean;
}

/** File → its gate, shared by every connection of this process to the file (`:memory:` ones get their own). */
const files = new Map<string, FileGate>();
/** Connection (its drizzle handle) → the gate of its file. */
const gates = new WeakMap<object, FileGate>();

/** Ties a connection to its file's gate (called by `connect`); answers the gate. */
export function registerGate(db: QueryDb, key: string, timeoutMs: number, shared: boolean): FileGate {
  let gate = shared ? files.get(key) : undefined;
  if (!gate) {
    gate = { target: key, timeoutMs, tail: undefined, open: false };
    if (shared) files.set(key, gate);
  }
  gates.set(db, gate);
  return gate;
}

/** The gate of a connection `connect` opened (undefined for any other handle, a transaction's included). */
export function gateOf(db: QueryDb): FileGate | undefined {
  return gates.get(db);
}

/**
 * Runs `work` when every earlier transaction or statement queued on the file has finished. A turn that waits
 * behind others longer than the gate's timeout is given up with {@link TransactionWaitTimeoutError} and runs
 * nothing when it comes: a transaction opened through the outer handle inside another's callback (or a statement
 * of it) waits for that very transaction, and fails instead of hanging. Work that has begun is never given up.
 */
export function queued<T>(gate: FileGate, work: () => Promise<T>): Promise<T> {
  const ahead = gate.tail;
  const previous = ahead ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  gate.tail = tail;
  let state: 'waiting' | 'running' | 'abandoned' = 'waiting';
  let timer: NodeJS.Timeout | undefined;
  const turn = previous
    .then(async () => {
      clearTimeout(timer);
      if (state === 'abandoned') return undefined as T;
      state = 'running';
      return await work();
    })
    .finally(() => {
      release();
      if (gate.tail === tail) gate.tail = undefined;
    });
  // Nothing ahead: the turn is the next microtask's, no timer.
  if (ahead === undefined) return turn;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (state !== 'waiting') return;
      state = 'abandoned';
      reject(new TransactionWaitTimeoutError(gate.target, gate.timeoutMs));
    }, gate.timeoutMs);
  });
  return Promise.race([turn, expired]);
}

/** Runs `statement` (synchronous) now when no transaction holds the file, else in its turn after the open one. */
export function outsideTransaction<T>(gate: FileGate, statement: () => T): T | Promise<T> {
  if (!gate.open) return statement();
  return queued(gate, async () => statement());
}

/** The methods of drizzle's prepared query that run its statement (synchronously, on better-sqlite3). */
const RUNNERS = ['run', 'all', 'get', 'values'] as const;
type Runner = (this: unknown, values?: unknown) => unknown;
type PreparedQuery = Record<(typeof RUNNERS)[number], Runner>;

interface Session {
  prepareQuery(...args: unknown[]): PreparedQuery;
}

/**
 * Gates the statements of `db`'s own session (see the module comment): every prepared query it makes gets
 * `run`, `all`, `get` and `values` that wait while a transaction holds the file. They are where a statement
 * actually runs: the builders' `execute` (an update's calls `run` or `all` itself) and drizzle's lazy results
 * all end there, so the gate is checked in the very turn the statement runs. Throws if drizzle moved its session.
 */
export function gateStatements(db: object, gate: FileGate): void {
  const session = (db as { session?: Session }).session;
  if (!session || typeof session.prepareQuery !== 'function') {
    throw new Error('drizzle-orm: the SQLite database no longer holds its session as `session.prepareQuery`');
  }
  const prepareQuery = session.prepareQuery;
  let base: PreparedQuery | undefined;
  const gated = (name: (typeof RUNNERS)[number]): Runner =>
    function gatedRunner(this: unknown, values?: unknown) {
      const run = (base as PreparedQuery)[name];
      if (!gate.open) return run.call(this, values);
      return outsideTransaction(gate, () => run.call(this, values));
    };
  const runners = { run: gated('run'), all: gated('all'), get: gated('get'), values: gated('values') };
  // Six parameters passed on as they are (no rest array a statement).
  session.prepareQuery = function (this: Session, a, b, c, d, e, f) {
    const prepared = prepareQuery.call(this, a, b, c, d, e, f);
    // A transaction handle's session inherits from this one ({@link transactionHandle}): its queries run at once.
    if (this !== session) return prepared;
    base ??= { run: prepared.run, all: prepared.all, get: prepared.get, values: prepared.values };
    prepared.run = runners.run;
    prepared.all = runners.all;
    prepared.get = runners.get;
    prepared.values = runners.values;
    return prepared;
  } as Session['prepareQuery'];
}

/**
 * A handle for a transaction's callback on `db`: the connection's database with a session of its own, so that its
 * statements run inside the transaction instead of waiting for it to end.
 */
export function transactionHandle(db: QueryDb): QueryDb {
  const session = (db as unknown as { session: object }).session;
  const own = Object.create(session) as object;
  return Object.create(db, { session: { value: own } }) as QueryDb;
}

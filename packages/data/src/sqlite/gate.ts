/**
 * One SQLite file, one writer at a time, as the server dialects' row locks would have it. better-sqlite3 gives the
 * process one connection, and the adapter's transaction (`BEGIN IMMEDIATE … COMMIT`) spans the `await`s of its
 * callback: while it is open, any other request's statement on the connection would run inside it, and a rollback
 * would silently undo writes whose requests had been answered as done (an operation-log batch, a password change,
 * a revoked session), and let reads see rows that never commit.
 *
 * So statements from outside a transaction take their turn in the file's queue while one of this process's
 * transactions is open (the {@link FileGate}), and run at once otherwise (the cost on the usual path is one field
 * read). They are found at drizzle's one entry for awaited statements, a prepared query's `execute`: the queries of
 * the connection's own session are gated, those of a transaction's handle ({@link transactionHandle}, which carries
 * a session of its own) are not. A statement that waits longer than the connection's acquire timeout fails with
 * {@link TransactionWaitTimeoutError} (the HTTP layer answers 503 with 50003, as for a lock wait), which is also
 * what a callback gets that issues statements through the outer handle inside its own transaction instead of
 * hanging on itself.
 *
 * Not gated: drizzle's synchronous calls (`db.run(sql)`, `.sync()`, `db.get(sql)`), which cannot wait; this
 * package uses them only for the transaction's own BEGIN/COMMIT/SAVEPOINT and for reads (the health ping, the table
 * list), and `db.query` relational reads of a transaction's handle, which keep the connection's session.
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

/** Runs `work` when every earlier transaction or statement queued on the file has finished. */
export async function queued<T>(gate: FileGate, work: () => Promise<T>): Promise<T> {
  const previous = gate.tail ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  gate.tail = tail;
  await previous;
  try {
    return await work();
  } finally {
    release();
    if (gate.tail === tail) gate.tail = undefined;
  }
}

/**
 * Runs `statement` (synchronous) now when no transaction holds the file, else in its turn after the open one,
 * giving up after the gate's timeout. An abandoned turn runs nothing when it comes.
 */
export function outsideTransaction<T>(gate: FileGate, statement: () => T): T | Promise<T> {
  if (!gate.open) return statement();
  let abandoned = false;
  let timer: NodeJS.Timeout | undefined;
  const turn = queued(gate, async () => (abandoned ? (undefined as T) : statement()));
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned = true;
      reject(new TransactionWaitTimeoutError(gate.target, gate.timeoutMs));
    }, gate.timeoutMs);
  });
  return Promise.race([turn, expired]).finally(() => clearTimeout(timer));
}

/** drizzle's prepared query, as far as the gate uses it: `execute` answers a lazy result run by `sync()`. */
interface PreparedQuery {
  execute(values?: unknown): ExecuteResult;
}

/** drizzle's `ExecuteResultSync`: awaiting it (or `sync()`) calls `resultCb`, which runs the statement. */
interface ExecuteResult {
  sync(): unknown;
  resultCb: () => unknown;
}

interface Session {
  prepareQuery(...args: unknown[]): PreparedQuery;
}

/**
 * Gates the awaited statements of `db`'s own session (see the module comment): every prepared query it makes gets
 * an `execute` that waits while a transaction holds the file. Throws if drizzle moved its session.
 */
export function gateStatements(db: object, gate: FileGate): void {
  const session = (db as { session?: Session }).session;
  if (!session || typeof session.prepareQuery !== 'function') {
    throw new Error('drizzle-orm: the SQLite database no longer holds its session as `session.prepareQuery`');
  }
  const prepareQuery = session.prepareQuery;
  let execute: PreparedQuery['execute'] | undefined;
  function gatedExecute(this: PreparedQuery, values?: unknown) {
    const result = (execute as PreparedQuery['execute']).call(this, values);
    if (gate.open) return outsideTransaction(gate, () => result.sync());
    // Run now, while the gate is known to be shut: drizzle's result runs its statement only when awaited, a few
    // microtasks on, and a transaction queued just before could have begun by then and taken the statement in.
    const value = result.sync();
    result.resultCb = () => value;
    return result;
  }
  // Six parameters passed on as they are (no rest array a statement).
  session.prepareQuery = function (this: Session, a, b, c, d, e, f) {
    const prepared = prepareQuery.call(this, a, b, c, d, e, f);
    // A transaction handle's session inherits from this one ({@link transactionHandle}): its queries run at once.
    if (this !== session) return prepared;
    execute ??= prepared.execute;
    (prepared as { execute: unknown }).execute = gatedExecute;
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

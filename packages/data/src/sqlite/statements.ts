/**
 * Compiled statements kept per SQLite connection. drizzle's better-sqlite3 session compiles every query it runs
 * (`client.prepare(sql)` per call, ~10 µs for a short UPDATE, more than running it), although its builders
 * produce the same SQL text for the same query shape with the values bound. drizzle's session is given a
 * `prepare` that keeps the last {@link STATEMENT_CACHE_SIZE} statements by their text (least recently used
 * out first) and hands out views of them rather than the statements themselves: drizzle switches a statement to
 * array rows with `raw()` and never back, which on a shared statement would leak into the next caller that
 * expects objects. Each view sets the row mode it means before it runs. SQLite recompiles a kept statement by
 * itself when the schema changes under it.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** Statements kept per connection: the queries of every route and the op-log append sizes fit many times. */
export const STATEMENT_CACHE_SIZE = 256;

type Statement = BetterSqlite3.Statement<unknown[]>;

/** The part of a statement drizzle's session uses: `all`, `get`, `run` and `raw()` (array rows). */
interface StatementView {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): BetterSqlite3.RunResult;
  raw(toggle?: boolean): StatementView;
  /** The statement underneath (tests; anything that needs more than drizzle does). */
  readonly statement: Statement;
  /** When it was last handed out (a count of `prepare` calls): the least recent leaves first. */
  used: number;
}

function viewsOf(statement: Statement): StatementView {
  // `raw(false)` throws on a statement that returns no data; `all`/`get` on those throw anyway.
  const rows = (asArrays: boolean): Statement =>
    statement.reader ? (statement.raw(asArrays) as Statement) : statement;
  const view = (asArrays: boolean): StatementView => ({
    all: (...params) => rows(asArrays).all(...params),
    get: (...params) => rows(asArrays).get(...params),
    run: (...params) => statement.run(...params),
    raw: (toggle = true) => (toggle ? arrays : objects),
    statement,
    used: 0,
  });
  const arrays = view(true);
  const objects = view(false);
  return objects;
}

/** The client drizzle's session is given, and the statements it keeps (tests). */
export interface KeptStatements {
  /** The connection as drizzle's session sees it: `prepare` keeps statements, everything else is the client's. */
  client: BetterSqlite3.Database;
  kept: Map<string, StatementView>;
}

/**
 * A view of `client` whose `prepare` is the caching one (see the module comment), for drizzle's session only:
 * the connection itself (`db.$client`, better-sqlite3's own transactions and pragmas) keeps its own `prepare`
 * and full statements.
 */
export function keepStatements(client: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE): KeptStatements {
  const compile = client.prepare.bind(client) as (source: string) => Statement;
  const kept = new Map<string, StatementView>();
  let calls = 0;
  /**
   * A hit only stamps the view. Moving it to the end of the map (delete, then set) cost far more than the lookup:
   * every delete leaves a hole that the map compacts by rebuilding its whole table once holes and entries fill
   * it (measured under bench/oplog-instructions.mjs: ~3,200 instructions a query in the host with the op log on).
   * The least recently used is looked for only when one must leave, after a compile (which costs more than the
   * scan).
   */
  const prepare = (source: string): StatementView => {
    const found = kept.get(source);
    if (found && !found.statement.busy) {
      found.used = ++calls;
      return found;
    }
    const view = viewsOf(compile(source));
    view.used = ++calls;
    // A statement another caller is still iterating stays with that caller; this one takes its place.
    kept.set(source, view);
    if (kept.size > size) {
      let oldest: string | undefined;
      let least = Number.POSITIVE_INFINITY;
      for (const [text, held] of kept) {
        if (held.used < least) {
          least = held.used;
          oldest = text;
        }
      }
      if (oldest !== undefined) kept.delete(oldest);
    }
    return view;
  };
  const seen = Object.create(client, { prepare: { value: prepare } }) as BetterSqlite3.Database;
  return { client: seen, kept };
}

/** Gives drizzle's session of `db` (over `client`) the statement-keeping client; throws if drizzle moved it. */
export function useKeptStatements(db: object, client: BetterSqlite3.Database): void {
  const session = (db as { session?: { client?: unknown } }).session;
  if (!session || session.client !== client) {
    throw new Error('drizzle-orm: the better-sqlite3 session no longer holds its client as `session.client`');
  }
  session.client = keepStatements(client).client;
}

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
  const prepare = (source: string): StatementView => {
    const found = kept.get(source);
    if (found && !found.statement.busy) {
      // Most recently used last: delete and set again (cheap next to compiling).
      kept.delete(source);
      kept.set(source, found);
      return found;
    }
    const view = viewsOf(compile(source));
    // A statement another caller is still iterating stays with that caller; this one takes its place.
    kept.delete(source);
    kept.set(source, view);
    if (kept.size > size) kept.delete(kept.keys().next().value as string);
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

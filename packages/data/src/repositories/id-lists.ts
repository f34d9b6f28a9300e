/**
 * Id lists in statements, a chunk at a time. Every database caps the values one statement binds: SQL Server
 * 2,100, SQLite 32,766, PostgreSQL 65,534 through postgres.js (mysql2 sends the values as text, bounded only by
 * `max_allowed_packet`). A list read from memberships (a role's members, a notice's receivers, the users a rank
 * check covers) passes all of them on a large directory, and the statement then fails ("too many SQL variables",
 * `MAX_PARAMETERS_EXCEEDED`), which the caller saw as a 500. So a list reaches `IN (…)` or a multi-row
 * `VALUES` at most {@link ID_LIST_CHUNK} values at a time: reads run once per chunk and concatenate, writes
 * run chunk after chunk in one transaction, so a change stays all-or-nothing.
 */
import type { InferInsertModel, Table } from 'drizzle-orm';
import type { DialectAdapter, QueryDb } from '../dialect.js';

/**
 * Values per `IN (…)` list, and rows per multi-row insert of a link table (two ids a row, 1,000 values):
 * under SQL Server's 2,100 parameters (the lowest limit) with 1,600 left for the statement's own, and within
 * its 1,000 rows of one `VALUES` list. Larger chunks would save little: 70,000 ids are 140 statements.
 */
const ID_LIST_CHUNK = 500;

/** `values` in order, in slices of at most `size` (no de-duplication: rows to insert may be alike). */
export function chunksOf<T>(values: readonly T[], size: number = ID_LIST_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

/**
 * Runs `read` once per chunk of the distinct `ids` and concatenates its rows; no statement for no ids. Each id
 * is sent once, so a read keyed by the listed column answers each row once, as one statement would. Rows of
 * several chunks are sorted by `order` when given: the statement's ORDER BY, restated for the concatenation.
 * @example const rows = await readInChunks(ids, (chunk) => db.select().from(t).where(inArray(t.id, chunk)));
 */
export async function readInChunks<I, R>(
  ids: readonly I[],
  read: (chunk: I[]) => PromiseLike<R[]>,
  order?: (a: R, b: R) => number,
): Promise<R[]> {
  const chunks = chunksOf([...new Set(ids)]);
  if (chunks.length <= 1) return chunks[0] ? await read(chunks[0]) : [];
  const rows: R[] = [];
  // Row by row: spreading a chunk's answer into push() overflows the stack past ~100,000 rows.
  for (const chunk of chunks) for (const row of await read(chunk)) rows.push(row);
  return order ? rows.sort(order) : rows;
}

/**
 * Runs `write` once per chunk of the distinct `ids` on `tx` and answers the rows it touched in all. For a
 * caller that already holds a transaction (the chunks join it); otherwise use {@link writeAllInChunks}.
 */
export async function writeInChunks<I>(
  tx: QueryDb,
  adapter: Pick<DialectAdapter, 'affectedRows'>,
  ids: readonly I[],
  write: (tx: QueryDb, chunk: I[]) => PromiseLike<unknown>,
): Promise<number> {
  let touched = 0;
  for (const chunk of chunksOf([...new Set(ids)])) touched += adapter.affectedRows(await write(tx, chunk));
  return touched;
}

/**
 * {@link writeInChunks} in a transaction of its own when the ids take more than one chunk, so the change is
 * made for every id or for none; one chunk runs as the single statement it always was.
 * @example await writeAllInChunks({ db, adapter }, ids, (q, chunk) => q.delete(t).where(inArray(t.id, chunk)));
 */
export async function writeAllInChunks<I>(
  { db, adapter }: { db: QueryDb; adapter: DialectAdapter },
  ids: readonly I[],
  write: (tx: QueryDb, chunk: I[]) => PromiseLike<unknown>,
): Promise<number> {
  if (new Set(ids).size <= ID_LIST_CHUNK) return writeInChunks(db, adapter, ids, write);
  // Through the adapter: SQLite's transactions are queued per file and nest as savepoints.
  return adapter.transaction(db, (tx) => writeInChunks(tx, adapter, ids, write));
}

/**
 * Inserts link rows (two ids each, such as `sys_user_role`) {@link ID_LIST_CHUNK} rows a statement, on `tx`:
 * inside the caller's transaction when the rows replace others.
 */
export async function insertLinks<T extends Table>(
  tx: QueryDb,
  table: T,
  rows: readonly InferInsertModel<T>[],
): Promise<void> {
  for (const chunk of chunksOf(rows)) await tx.insert(table).values(chunk);
}

/**
 * Paging per contract §3: `current` is 1-based (<= 0 → 1), `size` defaults to 20 (<= 0 → 20), `sortField` is
 * honoured only when it names a real column of the table (property name or SQL name, any case) that holds no
 * secret ({@link NEVER_SORTED}) and is turned into a column reference, never into SQL text; `sortOrder` is `asc` or `desc`. A page is
 * `{current, size, total, pages, items}`. The size ceiling (`Service:Api:MaxPageSize`) is not applied here: the
 * HTTP layer's paged query schema refuses a larger size (48001) before a query is built.
 */
import {
  asc,
  type Column,
  count,
  desc,
  getTableColumns,
  type InferSelectModel,
  max,
  min,
  type SQL,
  type Table,
} from 'drizzle-orm';
import type { DialectAdapter, QueryDb, SelectionField } from './dialect.js';

/** Default page size. */
export const DEFAULT_PAGE_SIZE = 20;

/** The paging part of a query string (values may still be strings). */
export interface PageQuery {
  current?: number | string | undefined;
  size?: number | string | undefined;
  sortField?: string | undefined;
  sortOrder?: string | undefined;
}

/** One page of rows. */
export interface Page<T> {
  current: number;
  size: number;
  total: number;
  pages: number;
  items: T[];
}

/** Paging values after the contract's defaults. */
export interface NormalizedPaging {
  current: number;
  size: number;
  offset: number;
  sortField: string | undefined;
  sortOrder: 'asc' | 'desc';
}

function positiveInt(value: number | string | undefined, fallback: number): number {
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return n !== undefined && Number.isFinite(n) && n >= 1 ? Math.floor(n) : fallback;
}

/** Applies the contract's defaults. */
export function normalizePaging(query: PageQuery): NormalizedPaging {
  const current = positiveInt(query.current, 1);
  const size = positiveInt(query.size, DEFAULT_PAGE_SIZE);
  const order = query.sortOrder?.trim().toLowerCase();
  return {
    current,
    size,
    offset: (current - 1) * size,
    sortField: query.sortField?.trim() || undefined,
    sortOrder: order === 'desc' || order === 'descend' ? 'desc' : 'asc',
  };
}

/**
 * Columns no page is ever sorted by, whatever its table: their values are secrets or are masked or left out of
 * every answer (a password or token hash, a TOTP secret, a job's properties with their write-only secrets, a
 * file's storage name). Sorting is reading: a caller who can place a row of their own beside another and see
 * which comes first learns a masked value one character at a time (helper-71 recovered a job's `Authorization`
 * header that the job page shows as `***`, with only the job list and edit rights).
 */
export const NEVER_SORTED: ReadonlySet<string> = new Set([
  'password',
  'password_hash',
  'totp_secret',
  'token_hash',
  'code_hash',
  'props_json',
  'storage_key',
]);

/**
 * The column `field` names (property key `createTime` or SQL name `create_time`, case-insensitive), if any and if
 * it may be sorted by ({@link NEVER_SORTED}).
 */
export function findSortColumn(table: Table, field: string | undefined): Column | undefined {
  if (!field) return undefined;
  const wanted = field.toLowerCase();
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (key.toLowerCase() === wanted || column.name.toLowerCase() === wanted)
      return NEVER_SORTED.has(column.name) ? undefined : column;
  }
  return undefined;
}

export interface PaginateOptions<T extends Table> {
  table: T;
  where?: SQL | undefined;
  query: PageQuery;
  /** Order used when `sortField` is absent or unknown, e.g. `[desc(t.createTime), desc(t.id)]`. */
  defaultOrder: SelectionField[];
  /**
   * The exact number of rows `where` selects when the caller can read it in constant time (a counter the
   * database maintains); undefined: a `COUNT` over the matching rows.
   */
  total?: (() => Promise<number | undefined>) | undefined;
}

/** Reads one page of `table` rows and the total count. Ties are broken by `id` so pages never overlap. */
export async function paginate<T extends Table>(
  context: { db: QueryDb; adapter: DialectAdapter },
  options: PaginateOptions<T>,
): Promise<Page<InferSelectModel<T>>> {
  const { db, adapter } = context;
  const paging = normalizePaging(options.query);
  const sortColumn = findSortColumn(options.table, paging.sortField);
  const idColumn = (getTableColumns(options.table) as Record<string, Column>).id;
  const order: SelectionField[] = sortColumn
    ? [paging.sortOrder === 'desc' ? desc(sortColumn) : asc(sortColumn)]
    : [...options.defaultOrder];
  if (sortColumn && idColumn && sortColumn !== idColumn) order.push(desc(idColumn));

  const total = (await options.total?.()) ?? (await countRows(db, options.table, options.where));
  const items =
    total > paging.offset
      ? await adapter.page(
          db
            .select()
            .from(options.table)
            .where(options.where)
            .orderBy(...order),
          paging.offset,
          paging.size,
        )
      : [];
  return {
    current: paging.current,
    size: paging.size,
    total,
    pages: Math.ceil(total / paging.size),
    items,
  };
}

/** Below this many rows (by the span of their ids) an unfiltered log page counts its rows exactly. */
export const EXACT_LOG_TOTAL_BELOW = 100_000;

/**
 * The total of an unfiltered page of an append-only log table, in constant time: the span of its ids (highest
 * minus lowest plus one, each read at one end of the primary key) once the span reaches `exactBelow`; below that,
 * undefined (`paginate` then counts, which is cheap there). A `COUNT` reads every row, and a log grows without
 * end: 3 million operation-log rows took 0.25–0.36 s to count on PostgreSQL. A log's ids only grow and its rows
 * leave only all at once (clearing), so the span is its row count, or more by the gaps a rolled-back batch or a
 * DBA's delete of rows in the middle left: never less, so no page that holds rows is answered empty.
 */
export function idSpanTotal(
  db: QueryDb,
  table: Table,
  exactBelow: number = EXACT_LOG_TOTAL_BELOW,
): () => Promise<number | undefined> {
  const id = (getTableColumns(table) as Record<string, Column>).id;
  if (!id) throw new Error('idSpanTotal needs a table with an id column');
  return async () => {
    // Two statements, not min and max in one: SQLite reads an index's end only for a lone min() or max().
    const [low] = await db.select({ v: min(id) }).from(table);
    const [high] = await db.select({ v: max(id) }).from(table);
    if (low?.v == null || high?.v == null) return undefined;
    const span = Number(high.v) - Number(low.v) + 1;
    return span >= exactBelow ? span : undefined;
  };
}

async function countRows(db: QueryDb, table: Table, where: SQL | undefined): Promise<number> {
  const [counted] = await db.select({ total: count() }).from(table).where(where);
  return Number(counted?.total ?? 0);
}

/**
 * `sys_op_log`: the operation log (spec "Log masking"; contract §5 row shape). Rows arrive in batches from the
 * asynchronous writer; texts are cut to the column widths here so that no dialect refuses a row that SQLite
 * would have taken. Reads given a data scope see the rows of operators inside it (contract §4, as files follow
 * their uploader): their organisation is in the scope, or they are the caller under Self; rows with no operator
 * (an API key bound to no user) are seen by an All scope only.
 */
import { and, between, type Column, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { EXACT_LOG_TOTAL_BELOW, idSpanTotal, type Page, type PageQuery, paginate } from '../paging.js';
import type { SysOpLogRow } from '../rows.js';
import { truncate } from '../text.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, userScopeCondition } from './data-scope.js';
import { readInChunks } from './id-lists.js';
import { deleteLogRowsBefore } from './log-retention.js';

/**
 * Rows per INSERT statement on SQL Server, which accepts at most 2100 parameters in one statement (a row has 13
 * columns, so 150 rows are 1950 parameters): the largest chunk every dialect takes.
 */
export const OP_LOG_ROWS_PER_INSERT = 150;

/** The op-log writer's batch (`OP_LOG_BATCH_SIZE` in @svc/logging, a layer above): one statement for a batch. */
const WRITER_BATCH_ROWS = 200;

/**
 * Rows per INSERT statement on the connected dialect: a whole batch of the writer (200 rows, 2,600 parameters)
 * where the dialect takes it (SQLite, PostgreSQL and MySQL allow 32,766 or more), so a batch is one statement and
 * one round trip; {@link OP_LOG_ROWS_PER_INSERT} on SQL Server.
 */
export function opLogRowsPerInsert(dbType: string): number {
  return dbType === 'SqlServer' ? OP_LOG_ROWS_PER_INSERT : WRITER_BATCH_ROWS;
}

/** One operation to record. */
export interface NewOpLog {
  /** The route's summary (OpenAPI), else `METHOD path`. */
  title: string;
  httpMethod: string;
  path: string;
  /** Masked, capped JSON (see @svc/logging `opLogParamText`). */
  paramJson: string | null;
  resultCode: number;
  success: boolean;
  elapsedMs: number;
  operatorId: number | null;
  operatorName: string | null;
  ip: string | null;
  userAgent: string | null;
  traceId: string | null;
  /** When it happened: a `Date` or epoch milliseconds (the operation log queues numbers: no `Date` a request). */
  createTime: Date | number;
}

/** A span of time, both ends included: `Date`s or epoch milliseconds. */
export interface TimeSpan {
  from: Date | number;
  to: Date | number;
}

/** Filters of the operation-log page on top of the paging query. */
export interface OpLogPageQuery extends PageQuery {
  success?: boolean | undefined;
}

export interface OpLogRepository {
  /** Inserts the rows (several statements when needed); returns how many were written. */
  insertMany(rows: readonly NewOpLog[]): Promise<number>;
  /** Newest first unless the query sorts by another column; with a scope, only rows of operators inside it. */
  page(query: OpLogPageQuery, scope?: DataScopeFilter): Promise<Page<SysOpLogRow>>;
  /**
   * Up to `size` rows whose id is below `beforeId`, highest id first, filtered and scoped as {@link page} does,
   * without a count: the pages after the first of a read by id (an export), which neither repeats nor skips a row
   * while new ones are written, as pages by offset do (each new row moves every later page down by one).
   */
  rowsBefore(
    beforeId: number,
    size: number,
    filter: Pick<OpLogPageQuery, 'success'>,
    scope?: DataScopeFilter,
  ): Promise<SysOpLogRow[]>;
  /** Every row (tests, exports). */
  count(): Promise<number>;
  /**
   * Which of these trace ids already have a row (a spill replay skips them, so none is written twice). `within`
   * bounds the rows looked at by their time, through the time index (trace ids have none: every logged write
   * would pay for it): a replay passes the span of its rows' times.
   */
  storedTraceIds(traceIds: readonly string[], within?: TimeSpan): Promise<Set<string>>;
  /** Hard-deletes every row; returns how many there were. */
  deleteAll(): Promise<number>;
  /** Deletes the rows older than `cutoff` (retention), a chunk at a time; answers how many went. */
  deleteOlderThan(cutoff: Date): Promise<number>;
}

const dateOf = (instant: Date | number) => (typeof instant === 'number' ? new Date(instant) : instant);
const clip = (text: string | null, max: number) => (text == null ? null : truncate(text, max));
/** Whole milliseconds within the column's 32-bit range. */
const elapsedOf = (r: NewOpLog) => Math.min(Math.max(0, Math.round(r.elapsedMs)), 2_147_483_647);
/**
 * A 32-bit integer result code: an envelope `code` a consumer route made fractional or huge would otherwise fail
 * its batch, the retries and every replay of the spill on the dialects that check the column's range.
 */
const resultCodeOf = (r: NewOpLog) =>
  Number.isFinite(r.resultCode)
    ? Math.min(Math.max(Math.trunc(r.resultCode), -2_147_483_648), 2_147_483_647)
    : -1;

/** The columns an insert writes, in a fixed order (the placeholders of the prepared full-chunk insert). */
const INSERT_COLUMNS = [
  'title',
  'httpMethod',
  'path',
  'paramJson',
  'resultCode',
  'success',
  'elapsedMs',
  'operatorId',
  'operatorName',
  'ip',
  'userAgent',
  'traceId',
  'createTime',
] as const;

type InsertValues = Record<(typeof INSERT_COLUMNS)[number], unknown>;

/** A row's column values, texts cut to the column widths and numbers kept within their columns. */
function columnValues(r: NewOpLog): InsertValues {
  return {
    title: truncate(r.title, 128),
    httpMethod: truncate(r.httpMethod, 16),
    path: truncate(r.path, 500),
    paramJson: r.paramJson,
    resultCode: resultCodeOf(r),
    success: r.success,
    elapsedMs: elapsedOf(r),
    operatorId: r.operatorId,
    operatorName: clip(r.operatorName, 64),
    ip: clip(r.ip, 64),
    userAgent: clip(r.userAgent, 500),
    traceId: clip(r.traceId, 64),
    createTime: dateOf(r.createTime),
  };
}

/** {@link columnValues} as an array in {@link INSERT_COLUMNS} order (what an append binds), built directly. */
function columnArray(r: NewOpLog): unknown[] {
  return [
    truncate(r.title, 128),
    truncate(r.httpMethod, 16),
    truncate(r.path, 500),
    r.paramJson,
    resultCodeOf(r),
    r.success,
    elapsedOf(r),
    r.operatorId,
    clip(r.operatorName, 64),
    clip(r.ip, 64),
    clip(r.userAgent, 500),
    clip(r.traceId, 64),
    r.createTime,
  ];
}

/**
 * Dialects whose full chunks go through one statement prepared once. SQLite and PostgreSQL append the rows with
 * `appendRows`; SQL Server (which cannot be tested here) sends each chunk as its own statement.
 */
const PREPARED_DIALECTS = new Set(['MySql']);

interface PreparedInsert {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

export function createOpLogRepository(
  { db, adapter, tables }: RepositoryContext,
  /** Below this many rows an unfiltered page counts them ({@link idSpanTotal}). */
  exactTotalBelow = EXACT_LOG_TOTAL_BELOW,
): OpLogRepository {
  const t = tables.sysOpLog;
  const perInsert = opLogRowsPerInsert(adapter.dbType);
  /**
   * The insert of a full chunk, prepared on first use: the SQL of a chunk's rows is built once. Under load nearly every chunk is full; a shorter tail is built as its own statement.
   */
  let fullChunk: PreparedInsert | undefined;
  /** Placeholder names by row and column (`title0`, …), made once: building them per batch cost more than the insert. */
  let names: string[][] = [];
  function preparedFullChunk(): PreparedInsert | undefined {
    if (fullChunk || !PREPARED_DIALECTS.has(adapter.dbType)) return fullChunk;
    names = Array.from({ length: perInsert }, (_, i) => INSERT_COLUMNS.map((column) => `${column}${i}`));
    const rows = names.map((row) =>
      Object.fromEntries(INSERT_COLUMNS.map((column, c) => [column, sql.placeholder(row[c] as string)])),
    );
    const builder = db.insert(t).values(rows as never) as unknown as {
      prepare(name?: string): PreparedInsert;
    };
    fullChunk = builder.prepare('svc_op_log_insert_full');
    return fullChunk;
  }

  /** The rows a page shows: its filter and the caller's scope (one condition for `page` and `rowsBefore`). */
  const filtered = (filter: Pick<OpLogPageQuery, 'success'>, scope: DataScopeFilter | undefined) =>
    and(
      filter.success === undefined ? undefined : eq(t.success, filter.success),
      scope && userScopeCondition(scope, t.operatorId, tables.sysUser),
    );

  const spanTotal = idSpanTotal(db, t, exactTotalBelow);

  /** The table's columns in {@link INSERT_COLUMNS} order (a JSON append's rows are arrays in this order). */
  const columns = INSERT_COLUMNS.map((key) => t[key] as Column);

  return {
    async insertMany(rows) {
      if (adapter.appendRows) {
        // One statement for any number of rows (see DialectAdapter.appendRows).
        const values = rows.map(columnArray);
        await adapter.appendRows(db, t, columns, values);
        return rows.length;
      }
      for (let i = 0; i < rows.length; i += perInsert) {
        const values = rows.slice(i, i + perInsert).map(columnValues);
        const prepared = values.length === perInsert ? preparedFullChunk() : undefined;
        if (prepared) {
          const named: Record<string, unknown> = {};
          for (let r = 0; r < values.length; r++) {
            const row = values[r] as InsertValues;
            const rowNames = names[r] as string[];
            for (let c = 0; c < INSERT_COLUMNS.length; c++)
              named[rowNames[c] as string] = row[INSERT_COLUMNS[c] as keyof InsertValues];
          }
          await prepared.execute(named);
        } else {
          await db.insert(t).values(values as never);
        }
      }
      return rows.length;
    },

    page(query, scope) {
      const where = filtered(query, scope);
      return paginate(
        { db, adapter },
        {
          table: t,
          query,
          where,
          defaultOrder: [desc(t.createTime), desc(t.id)],
          // The whole log (no filter, every operator in scope): its id span, not a COUNT that grows with it.
          total: where === undefined ? spanTotal : undefined,
        },
      );
    },

    rowsBefore(beforeId, size, filter, scope) {
      const where = and(lt(t.id, beforeId), filtered(filter, scope));
      return adapter.page(db.select().from(t).where(where).orderBy(desc(t.id)), 0, size);
    },

    async count() {
      const [row] = await db.select({ n: count() }).from(t);
      return Number(row?.n ?? 0);
    },

    async storedTraceIds(traceIds, within) {
      const rows = await readInChunks(traceIds, (chunk) => {
        const ids = inArray(t.traceId, chunk);
        return db
          .select({ traceId: t.traceId })
          .from(t)
          .where(
            within === undefined
              ? ids
              : and(between(t.createTime, dateOf(within.from), dateOf(within.to)), ids),
          );
      });
      return new Set(rows.flatMap((r: { traceId: string | null }) => (r.traceId ? [r.traceId] : [])));
    },

    deleteOlderThan(cutoff) {
      return deleteLogRowsBefore({ db, adapter }, t, cutoff);
    },

    async deleteAll() {
      return adapter.affectedRows(await db.delete(t));
    },
  };
}

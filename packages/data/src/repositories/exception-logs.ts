/**
 * `sys_exception_log`: unhandled errors (spec "Exception log record"). The message is kept to 2000 characters
 * and the stack trace to 8000, whatever the caller passes; request and response bodies are never stored.
 * A row belongs to no user, so given a data scope (contract §4) the page reads rows for an All scope only, as the
 * other logs' rows without a user: any narrower scope, and an unresolved one, reads an empty page.
 */
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import { EXCEPTION_TRACE_IDS_MAX, type SysExceptionLogRow } from '../rows.js';
import { storableText, truncate } from '../text.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, dataScopeCondition } from './data-scope.js';
import { escapeLike } from './filters.js';
import { deleteLogRowsBefore } from './log-retention.js';

/** Spec limit of the stored message. */
export const EXCEPTION_MESSAGE_MAX_CHARS = 2000;
/** Spec limit of the stored stack trace. */
export const EXCEPTION_STACK_MAX_CHARS = 8000;

/** An exception to record. */
export interface NewExceptionLog {
  httpMethod: string;
  path: string;
  traceId: string;
  exceptionType: string;
  message: string;
  stackTrace?: string | null;
  /** The trace ids a folded row stands for ({@link traceIdsText}); absent on a row of one exception. */
  traceIds?: readonly string[] | undefined;
  /** @default now */
  createTime?: Date;
}

/** The exception page's filters. */
export interface ExceptionLogPageQuery extends PageQuery {
  /** A trace id: the rows whose `traceId` it is, or that folded it in (contract §11). Exact, whole id. */
  traceId?: string | undefined;
}

/** What a folded row's update changes: its message (the count) and the trace ids it stands for. */
export interface ExceptionLogFold {
  message: string;
  traceIds: readonly string[];
}

/** Longest trace id stored (the column's width). */
const TRACE_ID_MAX = 64;

/**
 * The `trace_ids` text of these ids: at most {@link EXCEPTION_TRACE_IDS_MAX}, each cut to the column width,
 * with no white space inside, joined by spaces with a space at either end (` a b `), so that `LIKE '% a %'`
 * finds a whole id and never a part of one.
 */
export function traceIdsText(ids: readonly string[]): string | null {
  const kept = ids
    .slice(0, EXCEPTION_TRACE_IDS_MAX)
    .map((id) => truncate(storableText(id).replace(/\s+/g, ''), TRACE_ID_MAX))
    .filter((id) => id !== '');
  return kept.length === 0 ? null : ` ${kept.join(' ')} `;
}

export interface ExceptionLogRepository {
  /** Records one exception and returns its id. */
  insert(entry: NewExceptionLog): Promise<number>;
  /** Writes a folded row's new count and trace ids (the row of {@link insert}'s id). */
  fold(id: number, fold: ExceptionLogFold): Promise<void>;
  /**
   * Newest first unless the query sorts by another column; with a scope narrower than All, none (no user's rows).
   * `traceId` finds a row by its own trace id or by any it folded in.
   */
  page(query: ExceptionLogPageQuery, scope?: DataScopeFilter): Promise<Page<SysExceptionLogRow>>;
  /** Hard-deletes every row; returns how many there were. */
  deleteAll(): Promise<number>;
  /** Deletes the rows older than `cutoff` (retention), a chunk at a time; answers how many went. */
  deleteOlderThan(cutoff: Date): Promise<number>;
}

export function createExceptionLogRepository({
  db,
  adapter,
  tables,
}: RepositoryContext): ExceptionLogRepository {
  const t = tables.sysExceptionLog;

  /** The rows of this trace id: their own, or folded in (a whole id between the spaces of `trace_ids`). */
  function traceIdCondition(traceId: string | undefined): SQL | undefined {
    // Any case (a support engineer may paste an id upper-cased); the dialects' LIKE and = differ in case rules.
    const wanted = traceId?.trim().toLowerCase();
    if (!wanted) return undefined;
    const own = sql`lower(${t.traceId}) = ${wanted}`;
    // Stored ids hold no white space: a text with some is no folded id (it would match across two).
    if (/\s/.test(wanted)) return own;
    return or(own, sql`lower(${t.traceIds}) like ${`% ${escapeLike(wanted)} %`} escape '!'`);
  }

  return {
    insert(entry) {
      return adapter.insertReturningId(db, t, {
        // Column widths of the schema: every dialect but SQLite would reject longer values. Texts as every dialect
        // stores them: a failure caused by a NUL in the request (a path parameter) must still leave its row.
        httpMethod: truncate(storableText(entry.httpMethod), 16),
        path: truncate(storableText(entry.path), 500),
        traceId: truncate(storableText(entry.traceId), 64),
        exceptionType: truncate(storableText(entry.exceptionType), 256),
        message: truncate(storableText(entry.message), EXCEPTION_MESSAGE_MAX_CHARS),
        stackTrace:
          entry.stackTrace == null
            ? null
            : truncate(storableText(entry.stackTrace), EXCEPTION_STACK_MAX_CHARS),
        traceIds: entry.traceIds === undefined ? null : traceIdsText(entry.traceIds),
        createTime: entry.createTime ?? new Date(),
      });
    },

    async fold(id, fold) {
      await db
        .update(t)
        .set({
          message: truncate(storableText(fold.message), EXCEPTION_MESSAGE_MAX_CHARS),
          traceIds: traceIdsText(fold.traceIds),
        })
        .where(eq(t.id, id));
    },

    page(query, scope) {
      // No organisation or owner column: a scope short of All matches no row (dataScopeCondition fails closed).
      const where = and(scope && dataScopeCondition(scope, {}), traceIdCondition(query.traceId));
      return paginate(
        { db, adapter },
        { table: t, where, query, defaultOrder: [desc(t.createTime), desc(t.id)] },
      );
    },

    deleteOlderThan(cutoff) {
      return deleteLogRowsBefore({ db, adapter }, t, cutoff);
    },

    async deleteAll() {
      return adapter.affectedRows(await db.delete(t));
    },
  };
}

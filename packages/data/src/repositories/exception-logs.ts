/**
 * `sys_exception_log`: unhandled errors (spec "Exception log record"). The message is kept to 2000 characters
 * and the stack trace to 8000, whatever the caller passes; request and response bodies are never stored.
 * A row belongs to no user, so given a data scope (contract §4) the page reads rows for an All scope only, as the
 * other logs' rows without a user: any narrower scope, and an unresolved one, reads an empty page.
 */
import { desc } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { SysExceptionLogRow } from '../rows.js';
import { storableText, truncate } from '../text.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, dataScopeCondition } from './data-scope.js';
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
  /** @default now */
  createTime?: Date;
}

export interface ExceptionLogRepository {
  /** Records one exception and returns its id. */
  insert(entry: NewExceptionLog): Promise<number>;
  /** Newest first unless the query sorts by another column; with a scope narrower than All, none (no user's rows). */
  page(query: PageQuery, scope?: DataScopeFilter): Promise<Page<SysExceptionLogRow>>;
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
        createTime: entry.createTime ?? new Date(),
      });
    },

    page(query, scope) {
      // No organisation or owner column: a scope short of All matches no row (dataScopeCondition fails closed).
      const where = scope && dataScopeCondition(scope, {});
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

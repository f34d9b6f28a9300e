/**
 * Retention of the append-only logs (`Service:Logging:RetentionDays`): their rows older than a cutoff, deleted a
 * chunk at a time. One DELETE over a year of an operation log holds its locks (and on SQLite the one writer) for
 * as long as it takes to remove millions of rows, while every logged write waits to append; chunks of
 * {@link RETENTION_CHUNK} rows, oldest first through the time index, let the appends in between.
 */
import { asc, type Column, inArray, lt, type Table } from 'drizzle-orm';
import type { RepositoryContext } from './context.js';

/** Rows one statement of a retention pass deletes. */
export const RETENTION_CHUNK = 500;

/** A log table: an id that only grows and the time of each row (indexed). */
type LogTable = Table & { id: Column; createTime: Column };

/**
 * Deletes the rows of `table` whose `create_time` is before `cutoff`, a chunk at a time, oldest first; answers how
 * many went. Rows written meanwhile are newer than the cutoff, so the pass ends.
 * @example await deleteLogRowsBefore(context, tables.sysOpLog, new Date(Date.now() - 90 * 86_400_000));
 */
export async function deleteLogRowsBefore(
  { db, adapter }: Pick<RepositoryContext, 'db' | 'adapter'>,
  table: LogTable,
  cutoff: Date,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = (await adapter.page(
      db
        .select({ id: table.id })
        .from(table)
        .where(lt(table.createTime, cutoff))
        .orderBy(asc(table.createTime)),
      0,
      RETENTION_CHUNK,
    )) as { id: number }[];
    if (rows.length === 0) return deleted;
    const result = await db.delete(table).where(
      inArray(
        table.id,
        rows.map((row) => row.id),
      ),
    );
    deleted += adapter.affectedRows(result);
    if (rows.length < RETENTION_CHUNK) return deleted;
  }
}

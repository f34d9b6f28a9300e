/**
 * Writes shared by every soft-deletable, audited table (menus, organisations, positions, …): update and
 * soft-delete touch only live rows and stamp the audit columns; "has live children" guards tree deletes.
 * Written once so that the live-row rule and the audit stamp cannot drift between repositories.
 */
import { and, type Column, count, eq } from 'drizzle-orm';
import type { IdTable, UpdateSet } from '../dialect.js';
import type { RepositoryContext } from './context.js';
import type { AuditStamp } from './users.js';

/** A table with an id, the audit columns and the soft-delete flag. */
export type AuditedTable = IdTable & { isDelete: Column; updateTime: Column; updateUserId: Column };

/** Updates a live row and stamps it; false when the row is missing or soft-deleted. */
export async function updateLiveRow<T extends AuditedTable>(
  { db, adapter }: Pick<RepositoryContext, 'db' | 'adapter'>,
  table: T,
  id: number,
  patch: UpdateSet<T>,
  stamp: AuditStamp,
): Promise<boolean> {
  const values = { ...patch, updateTime: stamp.at, updateUserId: stamp.userId } as UpdateSet<T>;
  const result = await db
    .update(table)
    .set(values)
    .where(and(eq(table.id, id), eq(table.isDelete, false)));
  return adapter.affectedRows(result) > 0;
}

/** Soft-deletes a live row and stamps it; false when it was missing or already deleted. */
export function softDeleteLiveRow<T extends AuditedTable>(
  ctx: Pick<RepositoryContext, 'db' | 'adapter'>,
  table: T,
  id: number,
  stamp: AuditStamp,
): Promise<boolean> {
  return updateLiveRow(ctx, table, id, { isDelete: true } as UpdateSet<T>, stamp);
}

/** True when a live row names `id` as its parent. */
export async function hasLiveChildren<T extends AuditedTable & { parentId: Column }>(
  { db }: Pick<RepositoryContext, 'db'>,
  table: T,
  id: number,
): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(table)
    .where(and(eq(table.parentId, id), eq(table.isDelete, false)));
  return Number(row?.n ?? 0) > 0;
}

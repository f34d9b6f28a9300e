/**
 * `sys_high_sensitivity_permission`: permission codes a consumer added to the high-sensitivity list (the
 * built-in default set is code, not rows). The code column is unique, so adding an existing code is a no-op
 * that reports the row already there, on every dialect.
 */
import { asc, eq } from 'drizzle-orm';
import type { SysHighSensitivityPermissionRow } from '../rows.js';
import { truncate } from '../text.js';
import type { RepositoryContext } from './context.js';

/** Width of `remark`. */
const REMARK_MAX = 500;

/** A code to add. */
export interface NewHighSensitivityPermission {
  permissionCode: string;
  remark?: string | null;
  createUserId?: number | null;
  createTime: Date;
}

export interface HighSensitivityRepository {
  /** Every added code, oldest first. */
  list(): Promise<SysHighSensitivityPermissionRow[]>;
  /** Adds a code; `created` is false (and the existing row's id is answered) when it was already listed. */
  add(entry: NewHighSensitivityPermission): Promise<{ id: number; created: boolean }>;
  findById(id: number): Promise<SysHighSensitivityPermissionRow | undefined>;
  /** Hard-deletes one added code; false when no such row exists. */
  delete(id: number): Promise<boolean>;
}

export function createHighSensitivityRepository({
  db,
  adapter,
  tables,
}: RepositoryContext): HighSensitivityRepository {
  const t = tables.sysHighSensitivityPermission;

  async function byCode(code: string) {
    const [row] = await db.select().from(t).where(eq(t.permissionCode, code));
    return row;
  }

  return {
    async list() {
      return await db.select().from(t).orderBy(asc(t.id));
    },

    async add(entry) {
      const inserted = await adapter.insertIgnoringConflicts(db, t, t.permissionCode, [
        {
          permissionCode: entry.permissionCode,
          remark: entry.remark == null ? null : truncate(entry.remark, REMARK_MAX),
          createUserId: entry.createUserId ?? null,
          createTime: entry.createTime,
        },
      ]);
      const row = await byCode(entry.permissionCode);
      if (!row) throw new Error(`high-sensitivity code ${entry.permissionCode} vanished after insert`);
      return { id: row.id, created: inserted > 0 };
    },

    async findById(id) {
      const [row] = await db.select().from(t).where(eq(t.id, id));
      return row;
    },

    async delete(id) {
      return adapter.affectedRows(await db.delete(t).where(eq(t.id, id))) > 0;
    },
  };
}

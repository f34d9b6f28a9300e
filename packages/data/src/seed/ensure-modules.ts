/**
 * Upgrade step for the portal: a database seeded before portal modules existed has no `system` module and its
 * top-level menus no module. At every start (one indexed read when nothing is to do) this creates `system` and
 * gives it the top-level menus that belong to no module, in one transaction. Two instances starting at once:
 * the live-code unique index lets one insert win; the other's violation means the work is done.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../database.js';
import { isUniqueViolation } from '../errors.js';
import { SEED_MODULES, SYSTEM_MODULE_CODE } from './defaults.js';

/** Creates the built-in `system` module when missing; true when it did. */
export async function ensureSystemModule(database: Database, now: Date = new Date()): Promise<boolean> {
  const { db, adapter, tables: t } = database;
  const [existing] = await db
    .select({ id: t.sysModule.id })
    .from(t.sysModule)
    .where(eq(t.sysModule.code, SYSTEM_MODULE_CODE));
  if (existing) return false;
  const system = SEED_MODULES.find((m) => m.code === SYSTEM_MODULE_CODE);
  if (!system) return false;
  try {
    await adapter.transaction(db, async (tx) => {
      const id = await adapter.insertReturningId(tx, t.sysModule, {
        ...system,
        createTime: now,
        createUserId: null,
      });
      await tx
        .update(t.sysMenu)
        .set({ moduleId: id })
        .where(and(eq(t.sysMenu.parentId, 0), isNull(t.sysMenu.moduleId), eq(t.sysMenu.isDelete, false)));
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

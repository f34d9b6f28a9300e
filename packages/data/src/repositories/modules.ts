/**
 * `sys_module`: portal modules (apps). Each groups top-level menus (`sys_menu.module_id`). Soft-deleted; the
 * code is unique among live rows (a generated column, contract §10), so a clash at insert, update or restore
 * surfaces as a unique violation the service maps to 42012 / 42021.
 */
import { and, asc, count, eq, type InferInsertModel, inArray, ne } from 'drizzle-orm';
import type { SysModuleRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { readInChunks } from './id-lists.js';
import { softDeleteLiveRow, updateLiveRow } from './live-rows.js';
import type { AuditStamp } from './users.js';

/** Values for a new module. */
export type NewModule = Omit<InferInsertModel<Tables['sysModule']>, 'id' | 'codeLive'>;

/** Module fields an administrator may change. */
export type ModulePatch = Partial<
  Pick<SysModuleRow, 'code' | 'title' | 'icon' | 'defaultRoute' | 'apiPrefix' | 'sort' | 'enabled' | 'remark'>
>;

export interface ModuleRepository {
  /** Every live module, by sort then id. */
  listAll(): Promise<SysModuleRow[]>;
  findById(id: number): Promise<SysModuleRow | undefined>;
  /** Whether a live module other than `exceptId` has this code (any case). */
  codeTaken(code: string, exceptId?: number): Promise<boolean>;
  insert(module: NewModule): Promise<number>;
  update(id: number, patch: ModulePatch, stamp: AuditStamp): Promise<boolean>;
  softDelete(id: number, stamp: AuditStamp): Promise<boolean>;
  /** Whether a live menu belongs to the module. */
  hasMenus(id: number): Promise<boolean>;
  /** Live modules among `ids`. */
  findByIds(ids: readonly number[]): Promise<SysModuleRow[]>;
}

export function createModuleRepository(ctx: RepositoryContext): ModuleRepository {
  const { db, adapter, tables } = ctx;
  const { sysModule: t, sysMenu: m } = tables;
  const order = [asc(t.sort), asc(t.id)];
  return {
    async listAll() {
      return await db
        .select()
        .from(t)
        .where(eq(t.isDelete, false))
        .orderBy(...order);
    },

    async findById(id) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), eq(t.isDelete, false)));
      return row;
    },

    findByIds(ids) {
      return readInChunks(
        ids,
        (chunk) =>
          db
            .select()
            .from(t)
            .where(and(inArray(t.id, chunk), eq(t.isDelete, false)))
            .orderBy(...order),
        (a, b) => a.sort - b.sort || a.id - b.id,
      );
    },

    async codeTaken(code, exceptId) {
      const [row] = await db
        .select({ n: count() })
        .from(t)
        .where(
          and(
            adapter.equalsIgnoreCase(t.code, code.trim()),
            eq(t.isDelete, false),
            exceptId !== undefined ? ne(t.id, exceptId) : undefined,
          ),
        );
      return Number(row?.n ?? 0) > 0;
    },

    insert(module) {
      return adapter.insertReturningId(db, t, module);
    },

    update(id, patch, stamp) {
      return updateLiveRow(ctx, t, id, patch, stamp);
    },

    softDelete(id, stamp) {
      return softDeleteLiveRow(ctx, t, id, stamp);
    },

    async hasMenus(id) {
      const [row] = await db
        .select({ n: count() })
        .from(m)
        .where(and(eq(m.moduleId, id), eq(m.isDelete, false)));
      return Number(row?.n ?? 0) > 0;
    },
  };
}

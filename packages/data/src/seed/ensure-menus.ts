/**
 * Upgrade step for the seeded menu tree. The first-start seed writes the tree once, into an empty database; a
 * later release that adds a permission-protected route adds its code to a seeded button or a new button (menus.ts),
 * and without this step a database seeded before it never gets either: the route is then open to the super
 * admin alone and no role can be granted it. At every start (one indexed read when nothing is to do):
 * - a seeded node whose id no row has, deleted or not, is inserted, when its parent is a live row the seed wrote
 *   (even one an operator moved) or it is a top-level node, which joins the `system` module;
 * - a live seeded row nobody has edited since it was seeded (no update time) takes the seed's permission codes
 *   when they differ, and the seed's icon when it has none (a database seeded before the menus had icons).
 * A row is the seed's only if no user created it (the menu service stamps the creator) and it has the seeded
 * node's type: an operator's menu that took a seeded id is never touched, nor is what an operator edited or
 * deleted. The writes run in one transaction under the seed lock (retried as the first-start seed is), so two
 * instances starting at once do the work once.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../database.js';
import type { QueryDb } from '../dialect.js';
import { isUniqueViolation } from '../errors.js';
import { SYSTEM_MODULE_CODE } from './defaults.js';
import { type FlatSeedMenu, flattenSeedMenus, type SeedMenu } from './menus.js';

/** What the step did. */
export interface SeedMenuUpgrade {
  /** Ids of the seeded nodes inserted. */
  inserted: number[];
  /** Ids of the unedited seeded rows whose permission codes (or missing icon) were brought up to the seed's. */
  updated: number[];
}

interface PresentRow {
  id: number;
  parentId: number;
  type: string;
  permission: string | null;
  icon: string | null;
  isDelete: boolean;
  createUserId: number | null;
  updateTime: Date | null;
}

async function presentRows(database: Database, db: QueryDb, ids: number[]): Promise<Map<number, PresentRow>> {
  const t = database.tables.sysMenu;
  const rows: PresentRow[] = await db
    .select({
      id: t.id,
      parentId: t.parentId,
      type: t.type,
      permission: t.permission,
      icon: t.icon,
      isDelete: t.isDelete,
      createUserId: t.createUserId,
      updateTime: t.updateTime,
    })
    .from(t)
    .where(inArray(t.id, ids));
  return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), parentId: Number(r.parentId) }]));
}

/** The work the seed tree asks of a database whose seeded rows are `present`. */
function planOf(flat: readonly FlatSeedMenu[], present: Map<number, PresentRow>) {
  const seeded = new Map(flat.map((m) => [m.id, m]));
  /**
   * A live row the seed wrote (no creating user: the menu service stamps the operator's) of the seeded node's
   * type; an operator's menu that took a seeded id is never the seed's.
   */
  const seeds = (row: PresentRow | undefined): row is PresentRow => {
    const node = row && seeded.get(row.id);
    return !!node && !row.isDelete && row.createUserId === null && row.type === node.type;
  };
  /** The seed's row in the seed's place (an operator who moved it has edited it). */
  const ours = (row: PresentRow | undefined): row is PresentRow =>
    seeds(row) && row.parentId === seeded.get(row.id)?.parentId;
  // A parent the operator moved still takes the seed's new children.
  const live = (id: number) => seeds(present.get(id));
  const insert: FlatSeedMenu[] = [];
  const update: Array<FlatSeedMenu & { keepIcon: string | null }> = [];
  // Depth first, parents before children: a node inserted here counts as a live parent for its children.
  const added = new Set<number>();
  for (const node of flat) {
    const row = present.get(node.id);
    if (!row) {
      if (node.parentId === 0 || live(node.parentId) || added.has(node.parentId)) {
        insert.push(node);
        added.add(node.id);
      }
    } else if (ours(row) && row.updateTime === null) {
      const codes = (row.permission ?? null) !== node.permission;
      const icon = row.icon === null && node.icon !== null;
      if (codes || icon) update.push({ ...node, keepIcon: row.icon });
    }
  }
  return { insert, update };
}

/**
 * Brings a seeded database's menu tree up to `menus` (see the module comment). An empty database is the
 * first-start seed's to fill: call this after it.
 */
export async function ensureSeedMenus(
  database: Database,
  menus: readonly SeedMenu[],
  now: Date = new Date(),
): Promise<SeedMenuUpgrade> {
  const flat = flattenSeedMenus(menus);
  const ids = flat.map((m) => m.id);
  const first = planOf(flat, await presentRows(database, database.db, ids));
  if (first.insert.length === 0 && first.update.length === 0) return { inserted: [], updated: [] };
  for (let attempt = 1; ; attempt++) {
    try {
      return await upgrade(database, flat, ids, now);
    } catch (error) {
      // Another start inserted the same fixed ids first (SQLite's one connection interleaves instead of waiting
      // for the seed lock): the work is done.
      if (isUniqueViolation(error)) return { inserted: [], updated: [] };
      // A deadlock victim or lock timeout (MariaDB's seed lock is a row two starts may both reach for): again,
      // planned afresh, as the first-start seed does.
      if (attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

/** Attempts before a failure is reported. */
const MAX_ATTEMPTS = 5;

async function upgrade(
  database: Database,
  flat: readonly FlatSeedMenu[],
  ids: number[],
  now: Date,
): Promise<SeedMenuUpgrade> {
  const { db, adapter, tables: t } = database;
  return adapter.transaction(db, async (tx) => {
    await adapter.lockSeed(tx);
    // Again under the lock: another instance may have done it meanwhile.
    const { insert, update } = planOf(flat, await presentRows(database, tx, ids));
    if (insert.length > 0) {
      const [system] = await tx
        .select({ id: t.sysModule.id })
        .from(t.sysModule)
        .where(eq(t.sysModule.code, SYSTEM_MODULE_CODE));
      await adapter.insertWithIds(
        tx,
        t.sysMenu,
        insert.map((m) => ({
          ...m,
          moduleId: m.parentId === 0 ? (system?.id ?? null) : null,
          createTime: now,
          createUserId: null,
        })),
      );
    }
    // The seed's own write: no update time, so that the next release may bring the row up again.
    // Only while nobody has edited the row (an edit may have landed since it was read).
    for (const node of update)
      await tx
        .update(t.sysMenu)
        .set({ permission: node.permission, icon: node.keepIcon ?? node.icon })
        .where(and(eq(t.sysMenu.id, node.id), isNull(t.sysMenu.updateTime), isNull(t.sysMenu.createUserId)));
    return { inserted: insert.map((m) => m.id), updated: update.map((m) => m.id) };
  });
}

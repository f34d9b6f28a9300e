/**
 * First-start seed (spec "First-start seed", contract §7). It runs only while `sys_user` has no rows at all
 * (soft-deleted ones count), inside ONE transaction, and only ever inserts: rows that already exist (a menu id,
 * a config key, a role or dictionary code, the root organisation) are left exactly as they are.
 *
 * Two processes starting at once: each dialect adapter's `lockSeed` makes the second wait until the first
 * commits, after which its "is the user table empty" check sees the first one's admin. SQLite: BEGIN IMMEDIATE
 * holds the database write lock; PostgreSQL: a transaction-scoped advisory lock; SQL Server: a
 * transaction-owned application lock; MySQL/MariaDB: an X lock on a sentinel row of the unique config index
 * (see the adapter). A transaction that still fails (e.g. a deadlock reported by the database) is rolled back
 * and retried; if by then another process has created the admin, the result is `{ created: false }`.
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Database } from '../database.js';
import type { QueryDb } from '../dialect.js';
import type { ConfigValueType } from '../rows.js';
import {
  ROOT_ORG,
  SEED_ADMIN_REAL_NAME,
  SEED_DICTIONARIES,
  SEED_MODULES,
  SEED_ROLES,
  SYSTEM_MODULE_CODE,
} from './defaults.js';
import { defaultSeedMenus, flattenSeedMenus, type SeedMenu } from './menus.js';

/** One runtime `sys.*` config row, with the value in effect at first start. */
export interface SeedConfig {
  key: string;
  value: string;
  valueType: ConfigValueType;
  name: string;
  remark?: string | null;
}

export interface SeedInput {
  /** Super-admin account (`Service:Seed:AdminAccount`, default `superAdmin`). */
  adminAccount: string;
  /** The super-admin's password, already hashed (PBKDF2 string). */
  adminPasswordHash: string;
  /** @default 'Super Admin' */
  adminRealName?: string;
  /** @default defaultSeedMenus */
  menus?: readonly SeedMenu[];
  /** One row per runtime key (kernel `runtimeSeedRows(options)`). */
  configs: readonly SeedConfig[];
  /** Clock for the timestamps written. @default new Date() */
  now?: Date;
}

export interface SeedResult {
  /** True only for the run that created the super-admin. */
  created: boolean;
}

/** Attempts before a failure is reported (a deadlock victim or lock timeout gets another try). */
const MAX_ATTEMPTS = 3;

/**
 * Seeds an empty database. Returns `{ created: false }` without writing anything when `sys_user` has rows.
 * @example await runSeed(database, { adminAccount: 'superAdmin', adminPasswordHash, configs: runtimeSeedRows(options) });
 */
export async function runSeed(database: Database, input: SeedInput): Promise<SeedResult> {
  const { adapter, db } = database;
  for (let attempt = 1; ; attempt++) {
    try {
      return await adapter.transaction(db, async (tx) => {
        await adapter.lockSeed(tx);
        if ((await countUsers(database, tx)) > 0) return { created: false };
        await seedInto(database, tx, input);
        return { created: true };
      });
    } catch (error) {
      // Another process may have won the race (the rolled-back loser on MySQL): then there is nothing to do.
      const users = await countUsers(database, db).catch(() => 0);
      if (users > 0) return { created: false };
      if (attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

async function countUsers({ tables }: Database, db: QueryDb): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tables.sysUser);
  return Number(row?.n ?? 0);
}

async function seedInto(database: Database, tx: QueryDb, input: SeedInput): Promise<void> {
  const { adapter, tables: t } = database;
  const now = input.now ?? new Date();
  const audit = { createTime: now, createUserId: null };

  const [existingRoot] = await tx
    .select({ id: t.sysOrg.id })
    .from(t.sysOrg)
    .where(and(eq(t.sysOrg.parentId, 0), eq(t.sysOrg.code, ROOT_ORG.code)));
  const rootOrgId =
    existingRoot?.id ??
    (await adapter.insertReturningId(tx, t.sysOrg, { ...ROOT_ORG, parentId: 0, sort: 1, ...audit }));

  const roleCodes = new Set(
    (await tx.select({ code: t.sysRole.code }).from(t.sysRole)).map((r) => r.code.toLowerCase()),
  );
  let sort = 0;
  for (const role of SEED_ROLES) {
    sort++;
    if (roleCodes.has(role.code)) continue;
    await adapter.insertReturningId(tx, t.sysRole, { ...role, sort, ...audit });
  }

  // Portal modules before the menus: seeded top-level menus belong to `system`.
  const moduleIds = new Map(
    (
      await tx
        .select({ id: t.sysModule.id, code: t.sysModule.code })
        .from(t.sysModule)
        .where(eq(t.sysModule.isDelete, false))
    ).map((m) => [m.code.toLowerCase(), m.id] as const),
  );
  for (const mod of SEED_MODULES) {
    if (moduleIds.has(mod.code)) continue;
    moduleIds.set(mod.code, await adapter.insertReturningId(tx, t.sysModule, { ...mod, ...audit }));
  }
  const systemModuleId = moduleIds.get(SYSTEM_MODULE_CODE) ?? null;

  const menus = flattenSeedMenus(input.menus ?? defaultSeedMenus).map((m) => ({
    ...m,
    moduleId: m.parentId === 0 ? systemModuleId : null,
  }));
  const menuIds = menus.map((m) => m.id);
  const present = new Set(
    (await tx.select({ id: t.sysMenu.id }).from(t.sysMenu).where(inArray(t.sysMenu.id, menuIds))).map(
      (m) => m.id,
    ),
  );
  await adapter.insertWithIds(
    tx,
    t.sysMenu,
    menus.filter((m) => !present.has(m.id)).map((m) => ({ ...m, ...audit })),
  );

  await adapter.insertIgnoringConflicts(
    tx,
    t.sysConfig,
    t.sysConfig.configKeyLive,
    input.configs.map((c) => ({
      configKey: c.key,
      configValue: c.value,
      valueType: c.valueType,
      name: c.name,
      remark: c.remark ?? null,
      builtIn: true,
      ...audit,
    })),
  );

  for (const dict of SEED_DICTIONARIES) {
    const [existing] = await tx
      .select({ id: t.sysDictType.id })
      .from(t.sysDictType)
      .where(eq(t.sysDictType.code, dict.code));
    if (existing) continue;
    const typeId = await adapter.insertReturningId(tx, t.sysDictType, {
      code: dict.code,
      name: dict.name,
      ...audit,
    });
    await tx.insert(t.sysDictItem).values(
      dict.items.map(([value, label], index) => ({
        typeId,
        typeCode: dict.code,
        value,
        label,
        sort: index + 1,
        ...audit,
      })),
    );
  }

  await adapter.insertReturningId(tx, t.sysUser, {
    account: input.adminAccount.trim(),
    realName: input.adminRealName ?? SEED_ADMIN_REAL_NAME,
    password: input.adminPasswordHash,
    orgId: rootOrgId,
    isSuperAdmin: true,
    mustChangePassword: false,
    enabled: true,
    lastPasswordChangeTime: now,
    ...audit,
  });
}

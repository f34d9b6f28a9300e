/**
 * Contract: first-start seed (spec "First-start seed", contract §7). On an empty user table it creates exactly
 * the super-admin, the root organisation, one role per data-scope type plus the empty `sys_admin` role, the menu
 * tree, the config rows and the two dictionaries; a second run changes nothing; a row in `sys_user` (even a
 * soft-deleted one) prevents it; existing rows are never overwritten; two concurrent seeds create one admin.
 */
import { asc, count, eq, inArray, sql, type Table } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../database.js';
import { migrateDatabase } from '../../migrate.js';
import { ensureSeedMenus } from '../../seed/ensure-menus.js';
import { ensureSystemModule } from '../../seed/ensure-modules.js';
import { defaultSeedMenus, flattenSeedMenus, type SeedMenu, seedPermissionCodes } from '../../seed/menus.js';
import { runSeed, type SeedInput } from '../../seed/run-seed.js';
import type { Tables } from '../../tables.js';
import type { DialectFixture } from '../fixtures.js';
import {
  createTestDatabase,
  type OpenTestDatabase,
  openTestDatabase,
  testDialects,
} from '../test-database.js';

const input: SeedInput = {
  adminAccount: 'superAdmin',
  adminPasswordHash: 'pbkdf2$100000$c2FsdA$aGFzaA',
  configs: [
    { key: 'sys.security.loginLock.maxFailCount', value: '5', valueType: 'int', name: 'Max failures' },
    { key: 'sys.security.captcha.enabled', value: 'false', valueType: 'bool', name: 'Captcha' },
    { key: 'sys.security.captcha.type', value: 'char', valueType: 'enum', name: 'Captcha type' },
  ],
  now: new Date('2026-01-01T00:00:00.000Z'),
};

/** Every row of every table, ordered, as comparable JSON. */
async function snapshot(database: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [key, table] of Object.entries(database.tables) as [keyof Tables, Table][]) {
    const rows = (await database.db.select().from(table)) as Record<string, unknown>[];
    out[key] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

const rowCount = async (database: Database, table: Table) =>
  Number((await database.db.select({ n: count() }).from(table))[0]?.n);

export function seedContract(fixture: DialectFixture): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(`first-start seed (${fixture.dbType})`, () => {
    let t: OpenTestDatabase;
    beforeAll(async () => {
      t = await openTestDatabase(fixture.dbType);
    });
    afterAll(() => t?.cleanup());

    it('creates exactly the §7 data on an empty database', async () => {
      const { database } = t;
      const { tables: s, db } = database;
      // A config row that exists before the first start keeps its value.
      await db
        .insert(s.sysConfig)
        .values({ configKey: 'sys.security.captcha.type', configValue: 'math', name: 'x' });

      expect(await runSeed(database, input)).toEqual({ created: true });

      const users = await db.select().from(s.sysUser);
      expect(users).toHaveLength(1);
      const [admin] = users;
      const orgs = await db.select().from(s.sysOrg);
      expect(orgs).toHaveLength(1);
      expect(orgs[0]).toMatchObject({ parentId: 0, code: 'root', enabled: true, isDelete: false });
      expect(admin).toMatchObject({
        account: 'superAdmin',
        password: input.adminPasswordHash,
        isSuperAdmin: true,
        mustChangePassword: false,
        enabled: true,
        isDelete: false,
        orgId: orgs[0]?.id,
      });
      expect(admin?.lastPasswordChangeTime?.toISOString()).toBe('2026-01-01T00:00:00.000Z');

      const roles = await db.select().from(s.sysRole).orderBy(asc(s.sysRole.sort));
      expect(roles.map((r) => [r.code, r.dataScope])).toEqual([
        ['data_all', 1],
        ['data_org', 2],
        ['data_org_children', 3],
        ['data_self', 4],
        ['data_custom', 5],
        ['sys_admin', 4],
      ]);
      expect(await rowCount(database, s.sysRoleMenu)).toBe(0);
      expect(await rowCount(database, s.sysRoleDataScope)).toBe(0);
      expect(await rowCount(database, s.sysUserRole)).toBe(0);

      const menus = await db.select().from(s.sysMenu).orderBy(asc(s.sysMenu.id));
      const expected = flattenSeedMenus(defaultSeedMenus);
      expect(menus.map((m) => [m.id, m.parentId, m.type, m.permission])).toEqual(
        [...expected].sort((a, b) => a.id - b.id).map((m) => [m.id, m.parentId, m.type, m.permission]),
      );
      const codes = menus.flatMap((m) => (m.permission ? m.permission.split(';') : []));
      expect(new Set(codes)).toEqual(new Set(seedPermissionCodes(defaultSeedMenus)));
      expect(codes).toContain('GET:/api/v1/sys/log/exception/page');

      const configs = await db.select().from(s.sysConfig).orderBy(asc(s.sysConfig.configKey));
      expect(configs.map((c) => [c.configKey, c.configValue])).toEqual([
        ['sys.security.captcha.enabled', 'false'],
        ['sys.security.captcha.type', 'math'],
        ['sys.security.loginLock.maxFailCount', '5'],
      ]);
      expect(configs.find((c) => c.configKey === 'sys.security.captcha.enabled')).toMatchObject({
        valueType: 'bool',
        builtIn: true,
      });

      const types = await db.select().from(s.sysDictType).orderBy(asc(s.sysDictType.code));
      expect(types.map((d) => d.code)).toEqual(['common_status', 'gender']);
      const items = await db
        .select()
        .from(s.sysDictItem)
        .orderBy(asc(s.sysDictItem.typeCode), asc(s.sysDictItem.sort));
      expect(
        items.map((i) => [i.typeCode, i.value, i.typeId === types.find((d) => d.code === i.typeCode)?.id]),
      ).toEqual([
        ['common_status', '1', true],
        ['common_status', '0', true],
        ['gender', '0', true],
        ['gender', '1', true],
        ['gender', '2', true],
      ]);
      for (const key of [
        'sysSession',
        'sysRefreshToken',
        'sysPasswordHistory',
        'sysOpLog',
        'sysFile',
      ] as const) {
        expect(await rowCount(database, s[key])).toBe(0);
      }
    });

    it('changes nothing when run again', async () => {
      const before = await snapshot(t.database);
      expect(await runSeed(t.database, { ...input, adminAccount: 'other', now: new Date() })).toEqual({
        created: false,
      });
      expect(await snapshot(t.database)).toEqual(before);
    });

    it('seeds the portal modules and gives system every seeded top-level menu', async () => {
      const { db, tables } = t.database;
      const modules = await db.select().from(tables.sysModule).orderBy(asc(tables.sysModule.sort));
      expect(modules.map((m) => [m.code, m.apiPrefix])).toEqual([
        ['system', 'sys'],
        ['business', 'biz'],
      ]);
      const menus = await db.select().from(tables.sysMenu);
      const top = menus.filter((m) => m.parentId === 0);
      expect(top.length).toBeGreaterThan(0);
      for (const m of top) expect(m.moduleId).toBe(modules[0]?.id);
      for (const m of menus.filter((x) => x.parentId !== 0)) expect(m.moduleId).toBeNull();
      // Nothing to upgrade on a database seeded with modules.
      expect(await ensureSystemModule(t.database)).toBe(false);
    });

    it('gives a database seeded before portal modules the system module at start, once', async () => {
      const other = await openTestDatabase(fixture.dbType);
      try {
        const { database } = other;
        const { adapter, db, tables } = database;
        const top = await adapter.insertReturningId(db, tables.sysMenu, { type: 'catalog', title: 'Old' });
        const child = await adapter.insertReturningId(db, tables.sysMenu, {
          parentId: top,
          type: 'menu',
          title: 'Old child',
        });
        const results = await Promise.all([ensureSystemModule(database), ensureSystemModule(database)]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await ensureSystemModule(database)).toBe(false);
        const modules = await db.select().from(tables.sysModule);
        expect(modules.map((m) => m.code)).toEqual(['system']);
        const rows = await db.select().from(tables.sysMenu);
        expect(rows.find((m) => m.id === top)?.moduleId).toBe(modules[0]?.id);
        expect(rows.find((m) => m.id === child)?.moduleId).toBeNull();
      } finally {
        await other.cleanup();
      }
    });

    it('brings a database seeded by an earlier release up to the seed tree at start, leaving what an operator changed', async () => {
      const other = await openTestDatabase(fixture.dbType);
      try {
        const { database } = other;
        const { db, tables: s } = database;
        expect(await runSeed(database, input)).toEqual({ created: true });
        expect(await ensureSeedMenus(database, defaultSeedMenus)).toEqual({ inserted: [], updated: [] });
        const menu = s.sysMenu;
        const at = new Date('2026-02-01T00:00:00.000Z');
        // As an earlier release left it: button 1401 without the recycle-types code, button 1603 not yet there.
        await db
          .update(menu)
          .set({ permission: 'GET:/api/v1/sys/recycle/{type}/page' })
          .where(eq(menu.id, 1401));
        await db.delete(menu).where(eq(menu.id, 1603));
        // Seeded before the menus had icons: Users without one (Roles too, but an operator edited it since).
        await db.update(menu).set({ icon: null }).where(eq(menu.id, 100));
        await db.update(menu).set({ icon: null, updateTime: at }).where(eq(menu.id, 200));
        // What an operator did: button 1602 edited (a code taken away), button 1601 deleted.
        await db
          .update(menu)
          .set({ permission: 'POST:/api/v1/sys/notice;x', updateTime: at })
          .where(eq(menu.id, 1602));
        await db
          .update(menu)
          .set({ permission: 'old', isDelete: true, updateTime: at })
          .where(eq(menu.id, 1601));
        // A later tree: a new catalog with a button, and a button whose id an operator's menu already holds.
        const later: SeedMenu[] = [
          ...defaultSeedMenus,
          {
            id: 90,
            type: 'catalog',
            title: 'Reports',
            path: '/reports',
            children: [
              { id: 91, type: 'button', title: 'List', permissions: ['GET:/api/v1/reports'] },
              { id: 92, type: 'button', title: 'Run', permissions: ['POST:/api/v1/reports'] },
              { id: 93, type: 'button', title: 'Export', permissions: ['GET:/api/v1/reports/export'] },
              { id: 5000, type: 'button', title: 'Share', permissions: ['POST:/api/v1/reports/share'] },
            ],
          },
        ];
        // Operators' menus on seeded ids: one of another type and place, one in the very place of the seed's
        // node (created through the menu service, which stamps its creator).
        await database.adapter.insertWithIds(db, menu, [
          {
            id: 92,
            parentId: 1,
            type: 'menu',
            title: 'Mine',
            permission: 'GET:/api/v1/mine',
            createTime: at,
          },
          {
            id: 93,
            parentId: 90,
            type: 'button',
            title: 'Ours',
            permission: 'GET:/api/v1/ours',
            createTime: at,
            createUserId: 1,
          },
        ]);
        // The notices menu moved by an operator still takes the seed's new button.
        await db.update(menu).set({ parentId: 2, updateTime: at }).where(eq(menu.id, 1600));
        const pg = fixture.dbType === 'PostgreSQL';
        // PostgreSQL: another session has drawn ids up to 6000 (not committed yet); the sequence must not go back.
        if (pg)
          await (db as unknown as { execute(q: unknown): Promise<unknown> }).execute(
            sql`select setval(pg_get_serial_sequence('sys_menu', 'id'), 6000)`,
          );

        const results = await Promise.all([
          ensureSeedMenus(database, later),
          ensureSeedMenus(database, later),
        ]);
        expect(results.flatMap((r) => r.inserted).sort((a, b) => a - b)).toEqual([90, 91, 1603, 5000]);
        expect(results.flatMap((r) => r.updated).sort((a, b) => a - b)).toEqual([100, 1401]);
        expect(await ensureSeedMenus(database, later)).toEqual({ inserted: [], updated: [] });

        const rows = new Map((await db.select().from(menu)).map((m) => [m.id, m]));
        expect(rows.get(1401)?.permission).toBe(
          'GET:/api/v1/sys/recycle/types;GET:/api/v1/sys/recycle/{type}/page',
        );
        expect(rows.get(1401)?.updateTime).toBeNull();
        expect(rows.get(100)).toMatchObject({ icon: 'user', updateTime: null });
        expect(rows.get(200)?.icon).toBeNull();
        expect(rows.get(1603)).toMatchObject({
          parentId: 1600,
          type: 'button',
          permission: 'DELETE:/api/v1/sys/notice/{id}',
        });
        expect(rows.get(1602)?.permission).toBe('POST:/api/v1/sys/notice;x');
        expect(rows.get(1601)).toMatchObject({ permission: 'old', isDelete: true });
        const [system] = await db.select().from(s.sysModule).where(eq(s.sysModule.code, 'system'));
        expect(rows.get(90)).toMatchObject({ parentId: 0, type: 'catalog', moduleId: system?.id });
        expect(rows.get(91)).toMatchObject({
          parentId: 90,
          permission: 'GET:/api/v1/reports',
          moduleId: null,
        });
        expect(rows.get(92)).toMatchObject({ parentId: 1, type: 'menu', permission: 'GET:/api/v1/mine' });
        expect(rows.get(93)).toMatchObject({ title: 'Ours', permission: 'GET:/api/v1/ours' });
        // Ids drawn after the upgrade follow every explicit one, and every id another session drew.
        const next = await database.adapter.insertReturningId(db, menu, { type: 'menu', title: 'after' });
        expect(next).toBeGreaterThan(pg ? 6000 : 5000);
      } finally {
        await other.cleanup();
      }
    });

    it('generates menu ids after the seeded ones', async () => {
      const { adapter, db, tables } = t.database;
      const id = await adapter.insertReturningId(db, tables.sysMenu, { type: 'menu', title: 'later' });
      expect(id).toBeGreaterThan(Math.max(...flattenSeedMenus(defaultSeedMenus).map((m) => m.id)));
    });

    it('does not run while the user table holds only soft-deleted rows', async () => {
      const other = await openTestDatabase(fixture.dbType);
      try {
        const { database } = other;
        await database.db
          .insert(database.tables.sysUser)
          .values({ account: 'x', realName: 'x', password: 'h', isDelete: true });
        expect(await runSeed(database, input)).toEqual({ created: false });
        expect(await rowCount(database, database.tables.sysMenu)).toBe(0);
      } finally {
        await other.cleanup();
      }
    });

    /** One fresh, migrated database opened twice, as two processes would (two pools, two connections). */
    async function twoProcesses() {
      const created = await createTestDatabase(fixture.dbType);
      const open = () =>
        openDatabase({
          dbType: fixture.dbType,
          connectionString: created.connectionString,
          contentRoot: '/',
        });
      const first = await open();
      const second = await open();
      await migrateDatabase(first);
      return {
        first,
        second,
        async close() {
          await first.close();
          await second.close();
          await created.drop();
        },
      };
    }

    it('creates one super-admin when two processes seed the same database at once', async () => {
      const { first, second, close } = await twoProcesses();
      try {
        // No menus: their fixed ids would collide and serialise the seeds by themselves; this checks the lock.
        const race = { ...input, menus: [] };
        const results = await Promise.all([
          runSeed(first, { ...race, adminAccount: 'adminA' }),
          runSeed(second, { ...race, adminAccount: 'adminB' }),
          runSeed(first, { ...race, adminAccount: 'adminC' }),
        ]);
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(await rowCount(first, first.tables.sysUser)).toBe(1);
        expect(await rowCount(first, first.tables.sysOrg)).toBe(1);
        expect(await rowCount(first, first.tables.sysRole)).toBe(6);
      } finally {
        await close();
      }
    });

    it('upgrades the menu tree once when two processes start on the same database at once', async () => {
      const { first, second, close } = await twoProcesses();
      try {
        expect(await runSeed(first, input)).toEqual({ created: true });
        const { db, tables: s } = first;
        // An earlier release's database: a whole menu and its buttons missing, one button without a new code.
        await db.delete(s.sysMenu).where(inArray(s.sysMenu.id, [1600, 1601, 1602, 1603]));
        await db.update(s.sysMenu).set({ permission: 'x' }).where(eq(s.sysMenu.id, 1401));
        const results = await Promise.all([
          ensureSeedMenus(first, defaultSeedMenus),
          ensureSeedMenus(second, defaultSeedMenus),
        ]);
        expect(results.flatMap((r) => r.inserted).sort((a, b) => a - b)).toEqual([1600, 1601, 1602, 1603]);
        expect(results.flatMap((r) => r.updated)).toEqual([1401]);
        expect(await rowCount(first, s.sysMenu)).toBe(flattenSeedMenus(defaultSeedMenus).length);
      } finally {
        await close();
      }
    });
  });
}

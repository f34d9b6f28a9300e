/**
 * Contract: schema and dialect adapter. Migrations apply to a fresh database and are idempotent,
 * `findMissingTables` tells before from after, instants round-trip as UTC, inserts return generated ids,
 * affected-row counts, explicit ids, conflicts and transactions behave the same on every dialect.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../errors.js';
import { findMissingTables, MIGRATIONS_TABLE, migrateDatabase, migrationsPath } from '../../migrate.js';
import { tableNames } from '../../tables.js';
import type { DialectFixture } from '../fixtures.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';

export function schemaContract(fixture: DialectFixture): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(`schema and adapter (${fixture.dbType})`, () => {
    let t: OpenTestDatabase;
    beforeAll(async () => {
      t = await openTestDatabase(fixture.dbType, { migrate: false });
    });
    afterAll(() => t?.cleanup());

    it('lists every table as missing before migrating, none after, and migrates idempotently', async () => {
      const { database } = t;
      const expected = tableNames(database.tables);
      expect(expected).toHaveLength(28);
      expect((await findMissingTables(database)).sort()).toEqual([...expected].sort());
      await migrateDatabase(database);
      expect(await findMissingTables(database)).toEqual([]);
      await migrateDatabase(database);
      expect(await findMissingTables(database)).toEqual([]);
      expect((await database.adapter.listTables(database.db)).map((n) => n.toLowerCase())).toContain(
        'sys_schema_version',
      );
    });

    it('live-unique organisation codes and dictionary values: duplicates stored before stay, exempt; no new one', async () => {
      const old = await openTestDatabase(fixture.dbType, { migrate: false });
      const copy = mkdtempSync(join(tmpdir(), 'svc-migrations-before-'));
      try {
        const { database } = old;
        const folder = migrationsPath(database.migrationsFolder);
        for (const name of readdirSync(folder).filter((n) => !n.endsWith('_live_unique_org_dict_item')))
          cpSync(join(folder, name), join(copy, name), { recursive: true });
        await database.adapter.migrate(database.db, { folder: copy, table: MIGRATIONS_TABLE });
        // biome-ignore lint/suspicious/noExplicitAny: raw statements on the dialect's own driver API.
        const db = database.db as any;
        const exec = (q: SQL) => (fixture.dbType === 'Sqlite' ? db.run(q) : db.execute(q));
        const at = fixture.dbType === 'Sqlite' ? Date.now() : new Date();
        for (const [id, code] of [
          [1, 'eng'],
          [2, 'ENG'],
          [3, 'eng'],
          [4, ''],
          [5, ''],
        ] as const)
          await exec(
            sql`insert into sys_org (parent_id, name, code, create_time) values (0, ${`o${id}`}, ${code}, ${at})`,
          );
        for (let n = 0; n < 2; n++)
          await exec(
            sql`insert into sys_dict_item (type_id, type_code, label, value, create_time) values (7, 't', 'l', 'high', ${at})`,
          );
        await migrateDatabase(database);
        const { sysOrg, sysDictItem } = database.tables;
        const orgs = await database.db
          .select({ name: sysOrg.name, exempt: sysOrg.liveExempt, live: sysOrg.codeLive })
          .from(sysOrg)
          .orderBy(asc(sysOrg.id));
        expect(orgs).toEqual([
          { name: 'o1', exempt: false, live: 'eng' },
          { name: 'o2', exempt: true, live: null },
          { name: 'o3', exempt: true, live: null },
          { name: 'o4', exempt: false, live: null },
          { name: 'o5', exempt: false, live: null },
        ]);
        const items = await database.db
          .select({ exempt: sysDictItem.liveExempt })
          .from(sysDictItem)
          .orderBy(asc(sysDictItem.id));
        expect(items).toEqual([{ exempt: false }, { exempt: true }]);
        const refused = async (work: () => PromiseLike<unknown>) => {
          const error = await Promise.resolve(work()).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(isUniqueViolation(error), String(error)).toBe(true);
        };
        const { adapter } = database;
        await refused(() =>
          adapter.insertReturningId(database.db, sysOrg, { name: 'n', code: 'Eng', createTime: new Date() }),
        );
        await refused(() =>
          adapter.insertReturningId(database.db, sysDictItem, {
            typeId: 7,
            typeCode: 't',
            label: 'l',
            value: 'high',
          }),
        );
        // Once an exempt row joins the index again (edited code, restore), the live one holds the key.
        const [second] = await database.db
          .select({ id: sysOrg.id })
          .from(sysOrg)
          .where(eq(sysOrg.name, 'o2'));
        await refused(() =>
          database.db
            .update(sysOrg)
            .set({ liveExempt: false })
            .where(eq(sysOrg.id, second?.id ?? 0)),
        );
        await adapter.insertReturningId(database.db, sysOrg, { name: 'n', code: '', createTime: new Date() });
        await adapter.insertReturningId(database.db, sysDictItem, {
          typeId: 8,
          typeCode: 'u',
          label: 'l',
          value: 'high',
        });
      } finally {
        rmSync(copy, { recursive: true, force: true });
        await old.cleanup();
      }
    });

    it('round-trips instants as UTC whatever the process time zone', async () => {
      const { adapter, db, tables } = t.database;
      const instant = new Date('2024-02-29T23:59:58.123Z');
      const originalTz = process.env.TZ;
      try {
        process.env.TZ = 'Asia/Kolkata';
        const id = await adapter.insertReturningId(db, tables.sysLoginLog, {
          account: 'tz',
          success: true,
          resultCode: 0,
          createTime: instant,
        });
        process.env.TZ = 'America/New_York';
        const [row] = await db
          .select({
            createTime: tables.sysLoginLog.createTime,
            stored: fixture.utcText(tables.sysLoginLog.createTime),
          })
          .from(tables.sysLoginLog)
          .where(eq(tables.sysLoginLog.id, id));
        expect(row?.createTime).toBeInstanceOf(Date);
        expect(row?.createTime.toISOString()).toBe('2024-02-29T23:59:58.123Z');
        expect(row?.stored).toBe('2024-02-29 23:59:58.123');
      } finally {
        if (originalTz === undefined) delete process.env.TZ;
        else process.env.TZ = originalTz;
      }
    });

    it('returns generated ids, counts affected rows and maps flags and nulls', async () => {
      const { adapter, db, tables } = t.database;
      const a = await adapter.insertReturningId(db, tables.sysPosition, { name: 'A', code: 'a' });
      const b = await adapter.insertReturningId(db, tables.sysPosition, {
        name: 'B',
        code: 'b',
        enabled: false,
      });
      expect(typeof a).toBe('number');
      expect(b).toBeGreaterThan(a);
      const rows = await db.select().from(tables.sysPosition).orderBy(asc(tables.sysPosition.id));
      expect(rows.map((r) => [r.code, r.enabled, r.isDelete, r.remark, r.updateTime])).toEqual([
        ['a', true, false, null, null],
        ['b', false, false, null, null],
      ]);
      // An update that changes nothing still counts the matched row, as on every other dialect.
      expect(
        adapter.affectedRows(
          await db.update(tables.sysPosition).set({ name: 'A' }).where(eq(tables.sysPosition.id, a)),
        ),
      ).toBe(1);
      expect(
        adapter.affectedRows(
          await db.update(tables.sysPosition).set({ name: 'X' }).where(eq(tables.sysPosition.id, -1)),
        ),
      ).toBe(0);
      expect(adapter.affectedRows(await db.delete(tables.sysPosition))).toBe(2);
    });

    it('inserts explicit ids and keeps generating ids after them', async () => {
      const { adapter, db, tables } = t.database;
      await adapter.transaction(db, (tx) =>
        adapter.insertWithIds(tx, tables.sysMenu, [
          { id: 100, type: 'menu', title: 'a' },
          { id: 250, type: 'button', title: 'b', parentId: 100 },
        ]),
      );
      const next = await adapter.insertReturningId(db, tables.sysMenu, { type: 'menu', title: 'c' });
      expect(next).toBeGreaterThan(250);
    });

    it('skips rows that collide on a unique column and reports how many were inserted', async () => {
      const { adapter, db, tables } = t.database;
      const row = (key: string, value: string) => ({ configKey: key, configValue: value, name: key });
      // The live-key column: unique among live rows, NULL once a row is soft-deleted.
      const target = tables.sysConfig.configKeyLive;
      expect(
        await adapter.insertIgnoringConflicts(db, tables.sysConfig, target, [row('k1', '1'), row('k2', '1')]),
      ).toBe(2);
      expect(
        await adapter.insertIgnoringConflicts(db, tables.sysConfig, target, [row('k1', '2'), row('k3', '1')]),
      ).toBe(1);
      const [k1] = await db.select().from(tables.sysConfig).where(eq(tables.sysConfig.configKey, 'k1'));
      expect(k1?.configValue).toBe('1');
      // A soft-deleted row holds no live key: the same key goes in again beside it, once.
      await db.update(tables.sysConfig).set({ isDelete: true }).where(eq(tables.sysConfig.configKey, 'k3'));
      expect(await adapter.insertIgnoringConflicts(db, tables.sysConfig, target, [row('k3', '2')])).toBe(1);
      expect(await adapter.insertIgnoringConflicts(db, tables.sysConfig, target, [row('k3', '3')])).toBe(0);
      const k3 = await db.select().from(tables.sysConfig).where(eq(tables.sysConfig.configKey, 'k3'));
      expect(k3.map((r) => [r.configValue, r.isDelete]).sort()).toEqual([
        ['1', true],
        ['2', false],
      ]);
    });

    it('commits a transaction that resolves and rolls back one that throws', async () => {
      const { adapter, db, tables } = t.database;
      await adapter.transaction(db, async (tx) => {
        await tx.insert(tables.sysOrg).values({ name: 'kept', code: 'kept' });
      });
      await expect(
        adapter.transaction(db, async (tx) => {
          await tx.insert(tables.sysOrg).values({ name: 'gone', code: 'gone' });
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const names = (await db.select().from(tables.sysOrg)).map((o) => o.name);
      expect(names).toEqual(['kept']);
    });

    it('pages with OFFSET/LIMIT on an ordered query', async () => {
      const { adapter, db, tables } = t.database;
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(await adapter.insertReturningId(db, tables.sysDictType, { code: `p${i}`, name: `P${i}` }));
      }
      const page = await adapter.page(
        db.select().from(tables.sysDictType).orderBy(asc(tables.sysDictType.id)),
        2,
        2,
      );
      expect(page.map((r) => r.id)).toEqual(ids.slice(2, 4));
    });
  });
}

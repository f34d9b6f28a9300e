/**
 * Contract: the live-user counter (`sys_counter` row `sys_user.live`, kept by triggers of the migrations
 * `user_counter` and, on PostgreSQL, `user_counter_statement`) stays equal to COUNT(*) of live users when one
 * statement writes many users: multi-row inserts of live and deleted rows, a soft delete, a restore, flag flips
 * both ways, an update that flips nothing, hard deletes of deleted and of live rows; and across concurrent
 * transactions, a rolled-back one and a rolled-back savepoint. Triggers that count per statement (PostgreSQL,
 * SQL Server) must net a statement's rows; triggers that count per row (SQLite, MariaDB) pass as they did.
 */
import { and, count, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryDb } from '../../dialect.js';
import { createRepositories, type Repositories } from '../../repositories/index.js';
import { LIVE_USERS } from '../../repositories/users.js';
import { insertUsersInBulk } from '../bulk.js';
import type { DialectFixture } from '../fixtures.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';

/** Users per mass write: more than one bulk INSERT (1,000 rows) and more than one id chunk (500). */
const MASS = 1_200;

export function userCounterContract(fixture: DialectFixture): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(
    `live-user counter under mass writes (${fixture.dbType})`,
    () => {
      let t: OpenTestDatabase;
      let repos: Repositories;
      beforeAll(async () => {
        t = await openTestDatabase(fixture.dbType);
        repos = createRepositories(t.database);
      });
      afterAll(() => t?.cleanup());

      const stamp = () => ({ userId: null, at: new Date() });
      const prefixed = (prefix: string) => like(t.database.tables.sysUser.account, `${prefix}%`);
      async function expectExact(): Promise<number> {
        const { db, tables } = t.database;
        const u = tables.sysUser;
        const c = tables.sysCounter;
        const [live] = await db.select({ n: count() }).from(u).where(eq(u.isDelete, false));
        const [kept] = await db.select({ v: c.value }).from(c).where(eq(c.name, LIVE_USERS));
        expect(Number(kept?.v)).toBe(Number(live?.n));
        return Number(live?.n);
      }

      it('stays exact when one statement inserts, deletes, restores, flips or purges many users', async () => {
        const { db, tables } = t.database;
        const u = tables.sysUser;
        const before = await expectExact();
        const ids = await insertUsersInBulk(t.database, { count: MASS, prefix: 'mass-' });
        expect(await expectExact()).toBe(before + MASS);

        // One INSERT of live and deleted rows: only the live ones count.
        await db.insert(u).values(
          Array.from({ length: 300 }, (_, i) => ({
            account: `mixed-${i}`,
            realName: 'M',
            password: 'h',
            isDelete: i % 3 === 0,
          })),
        );
        expect(await expectExact()).toBe(before + MASS + 200);

        // One UPDATE soft-deleting every mass user; again, with nothing left to change.
        await db.update(u).set({ isDelete: true }).where(prefixed('mass-'));
        expect(await expectExact()).toBe(before + 200);
        await db.update(u).set({ isDelete: true }).where(prefixed('mass-'));
        expect(await expectExact()).toBe(before + 200);

        // One UPDATE restoring half of them; one flipping every mixed row both ways (100 up, 200 down).
        await db
          .update(u)
          .set({ isDelete: false })
          .where(inArray(u.id, ids.slice(0, MASS / 2)));
        await db
          .update(u)
          .set({ isDelete: sql`not ${u.isDelete}` })
          .where(prefixed('mixed-'));
        expect(await expectExact()).toBe(before + MASS / 2 + 100);

        // One UPDATE of every user that leaves the flag alone.
        await db.update(u).set({ remark: 'touched' }).where(undefined);
        expect(await expectExact()).toBe(before + MASS / 2 + 100);

        // One DELETE of soft-deleted rows (a purge) and one of live rows.
        await db.delete(u).where(and(prefixed('mass-'), eq(u.isDelete, true)));
        expect(await expectExact()).toBe(before + MASS / 2 + 100);
        await db.delete(u).where(and(prefixed('mixed-'), eq(u.isDelete, false)));
        expect(await expectExact()).toBe(before + MASS / 2);

        // The batch delete: chunks of ids in one transaction, some ids already gone.
        expect(await repos.users.softDelete([...ids, ...ids], stamp())).toBe(MASS / 2);
        expect(await expectExact()).toBe(before);
      });

      it('stays exact across concurrent mass transactions, a rollback and a rolled-back savepoint', async () => {
        const { db, adapter, tables } = t.database;
        const u = tables.sysUser;
        const before = await expectExact();
        const toDelete = await insertUsersInBulk(t.database, { count: MASS, prefix: 'del-' });
        const toRestore = await insertUsersInBulk(t.database, { count: MASS, prefix: 'res-' });
        await db
          .update(u)
          .set({ isDelete: true })
          .where(inArray(u.id, toRestore.slice(0, 600)));
        await db
          .update(u)
          .set({ isDelete: true })
          .where(inArray(u.id, toRestore.slice(600)));
        expect(await expectExact()).toBe(before + MASS);

        // Each writer touches its own rows by id, so they wait only for each other's counter update.
        const bulkIn = (q: QueryDb, prefix: string) =>
          insertUsersInBulk({ db: q, tables }, { count: MASS, prefix });
        // Range updates and inserts of sys_user can deadlock on MariaDB (next-key locks), and which writer loses
        // depends on timing: `adapter.transaction` runs the victim again (every writer here is one transaction,
        // the 1,200-id soft delete included), and the victim was rolled back whole, trigger updates included, so
        // the counter must still come out exact.
        await Promise.all([
          adapter.transaction(db, (tx) => bulkIn(tx, 'ins-')),
          repos.users.softDelete(toDelete, stamp()),
          adapter.transaction(db, async (tx) => {
            await tx
              .update(u)
              .set({ isDelete: false })
              .where(inArray(u.id, toRestore.slice(0, 600)));
            await tx
              .update(u)
              .set({ isDelete: false })
              .where(inArray(u.id, toRestore.slice(600)));
          }),
          repos.users.importBatch({
            creates: Array.from({ length: 50 }, (_, i) => ({
              user: { account: `imp-${i}`, realName: 'I', password: 'h' },
              roleIds: [],
            })),
            updates: [],
            stamp: stamp(),
          }),
        ]);
        expect(await expectExact()).toBe(before + MASS + MASS + 50);

        // A transaction that writes many users in one statement and then fails leaves the counter as it was.
        const boom = new Error('roll back');
        await expect(
          adapter.transaction(db, async (tx) => {
            await bulkIn(tx, 'gone-');
            await tx.update(u).set({ isDelete: true }).where(prefixed('ins-'));
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await expectExact()).toBe(before + MASS + MASS + 50);

        // A savepoint rolled back inside a transaction that commits: only the outer statements count.
        await adapter.transaction(db, async (tx) => {
          await tx.update(u).set({ isDelete: true }).where(prefixed('res-'));
          await expect(
            adapter.transaction(tx, async (inner) => {
              await inner.update(u).set({ isDelete: true }).where(prefixed('ins-'));
              await bulkIn(inner, 'inner-');
              throw boom;
            }),
          ).rejects.toBe(boom);
        });
        expect(await expectExact()).toBe(before + MASS + 50);
      });
    },
  );
}

/**
 * Contract: `DialectAdapter.lockRow`, the lock a parallel job's claim takes on the job's row (`claimParallel`). It
 * answers whether the row exists. On the server dialects it holds the row until the transaction ends, without
 * timing anything: a second transaction that tries to lock the row meanwhile with a short lock wait gets the
 * database's lock-wait error (PostgreSQL `lock_timeout`, InnoDB `innodb_lock_wait_timeout`), while the same try
 * on another row gets that row; one waiting with the normal wait gets the row only after the first commits. On
 * PostgreSQL the row keeps its version (`xmin`): the lock writes nothing. SQLite's `BEGIN IMMEDIATE` holds the
 * whole database instead, so there only the answer is checked.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryDb } from '../../dialect.js';
import { isDatabaseBusy, isTransactionConflict } from '../../errors.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';
import { latch, twoOrgRows } from './two-transactions.js';

/**
 * Test-only SQL that makes a transaction's lock waits run out soon (InnoDB: 1 s, the least MySQL takes), and what
 * puts the pooled connection back on the server's wait (PostgreSQL's `set local` ends with the transaction).
 */
const SHORT_WAIT = {
  PostgreSQL: { set: sql`set local lock_timeout = '100ms'`, reset: undefined },
  MySql: {
    set: sql`set session innodb_lock_wait_timeout = 1`,
    reset: sql`set session innodb_lock_wait_timeout = default`,
  },
} as const;

const execute = (db: QueryDb, query: SQL) =>
  (db as unknown as { execute(q: SQL): Promise<unknown> }).execute(query);

export function rowLockContract(dbType: 'Sqlite' | 'PostgreSQL' | 'MySql'): void {
  describe.skipIf(!testDialects().includes(dbType))(`a row lock (${dbType})`, () => {
    let t: OpenTestDatabase;
    beforeAll(async () => {
      t = await openTestDatabase(dbType);
    });
    afterAll(() => t?.cleanup());

    /**
     * Locks row `id` in a transaction of its own whose lock waits run out soon: `free` when it got the row, `held`
     * when the wait ran out (the row is locked by another transaction).
     */
    async function tryLock(id: number): Promise<'free' | 'held'> {
      const { adapter, db, tables } = t.database;
      const wait = SHORT_WAIT[dbType as keyof typeof SHORT_WAIT];
      try {
        await adapter.transaction(
          db,
          async (tx) => {
            await execute(tx, wait.set);
            try {
              expect(await adapter.lockRow(tx, tables.sysOrg, id)).toBe(true);
            } finally {
              if (wait.reset) await execute(tx, wait.reset);
            }
          },
          { retry: false },
        );
        return 'free';
      } catch (error) {
        if (isDatabaseBusy(error) && !isTransactionConflict(error)) return 'held';
        throw error;
      }
    }

    it('answers whether the row exists', async () => {
      const { adapter, db, tables } = t.database;
      const [a, b] = await twoOrgRows(t.database, 'exists-');
      const answers = await adapter.transaction(db, async (tx) => [
        await adapter.lockRow(tx, tables.sysOrg, a),
        await adapter.lockRow(tx, tables.sysOrg, b + 1_000),
      ]);
      expect(answers).toEqual([true, false]);
    });

    // SQLite: BEGIN IMMEDIATE holds the whole database, and a second transaction waits in this process's queue
    // whatever lockRow does, so there the test could not fail.
    it.skipIf(dbType === 'Sqlite')(
      'holds the row until the transaction ends: another locker of it waits for the commit',
      async () => {
        const { adapter, db, tables } = t.database;
        const o = tables.sysOrg;
        const [a, b] = await twoOrgRows(t.database, 'hold-');
        const held = latch();
        const release = latch();
        const events: string[] = [];
        const first = adapter.transaction(
          db,
          async (tx) => {
            await adapter.lockRow(tx, o, a);
            held.open();
            await release.opened;
            events.push('first commits');
          },
          { retry: false },
        );
        await held.opened;
        const second = adapter.transaction(
          db,
          async (tx) => {
            const found = await adapter.lockRow(tx, o, a);
            events.push('second locked');
            return found;
          },
          { retry: false },
        );
        expect(await tryLock(a)).toBe('held');
        expect(await tryLock(b)).toBe('free');
        // Plain reads are not held up.
        expect(await db.select({ id: o.id }).from(o).where(eq(o.id, a))).toEqual([{ id: a }]);
        expect(events).toEqual([]);
        release.open();
        await first;
        expect(await second).toBe(true);
        expect(events).toEqual(['first commits', 'second locked']);
        expect(await tryLock(a)).toBe('free');
      },
    );

    if (dbType === 'PostgreSQL')
      it('writes no row version', async () => {
        const { adapter, db, tables } = t.database;
        const [a] = await twoOrgRows(t.database, 'version-');
        const version = async () => {
          const [row] = (await execute(db, sql`select xmin::text as v from sys_org where id = ${a}`)) as {
            v: string;
          }[];
          return row?.v;
        };
        const before = await version();
        expect(before).toBeDefined();
        await adapter.transaction(db, (tx) => adapter.lockRow(tx, tables.sysOrg, a));
        expect(await version()).toBe(before);
      });
  });
}

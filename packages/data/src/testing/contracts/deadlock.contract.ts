/**
 * Contract: a real deadlock between two connections, made without timing. Each of two transactions updates one
 * `sys_org` row, waits (on a promise, not a clock) until the other holds its row, then updates the other's row: a
 * lock cycle whatever the order the statements reach the server in, which the database breaks by rolling one
 * back (InnoDB at once, PostgreSQL after `deadlock_timeout`). Which one is its choice: the assertions hold either
 * way. `adapter.transaction` must run the victim again so that both complete, each update counted once; with
 * retrying off the victim fails with an error `isTransactionConflict` recognises. Server dialects only: SQLite's
 * `BEGIN IMMEDIATE` lets one writer in at a time, so it cannot deadlock.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseBusy, isTransactionConflict } from '../../errors.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';
import { latch, twoOrgRows } from './two-transactions.js';

export function deadlockContract(dbType: 'PostgreSQL' | 'MySql'): void {
  describe.skipIf(!testDialects().includes(dbType))(`a deadlock victim's transaction (${dbType})`, () => {
    let t: OpenTestDatabase;
    beforeAll(async () => {
      t = await openTestDatabase(dbType);
    });
    afterAll(() => t?.cleanup());

    /**
     * Runs the two crossing transactions; answers how each settled and how often each callback ran. Each run adds
     * 1 to both rows' `sort`.
     */
    async function crossing(ids: [number, number], retry: boolean) {
      const { adapter, db, tables } = t.database;
      const o = tables.sysOrg;
      const bump = (tx: typeof db, id: number) =>
        tx
          .update(o)
          .set({ sort: sql`${o.sort} + 1` })
          .where(eq(o.id, id));
      const holds = [latch(), latch()];
      const runs = [0, 0];
      const side = (me: 0 | 1) =>
        adapter.transaction(
          db,
          async (tx) => {
            runs[me] = (runs[me] ?? 0) + 1;
            await bump(tx, ids[me]);
            holds[me]?.open();
            // Both rows are locked once both latches are open: the next updates close the cycle. A re-run finds
            // the latches open and only waits for the winner's commit.
            await holds[1 - me]?.opened;
            await bump(tx, ids[1 - me] as number);
            return me;
          },
          { retry },
        );
      const settled = await Promise.allSettled([side(0), side(1)]);
      const rows = await db
        .select({ id: o.id, sort: o.sort })
        .from(o)
        .where(inArray(o.id, [...ids]));
      return { settled, runs, sorts: rows.map((r) => r.sort) };
    }

    it('runs the victim again: both transactions commit, each update counted once', async () => {
      const { settled, runs, sorts } = await crossing(await twoOrgRows(t.database, 'retry-'), true);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
      // One side ran twice: the database did pick a victim, and its first run left nothing behind.
      expect([...runs].sort()).toEqual([1, 2]);
      expect(sorts).toEqual([2, 2]);
    });

    it('without retrying, the victim fails with a recognised conflict and the winner commits', async () => {
      const { settled, runs, sorts } = await crossing(await twoOrgRows(t.database, 'once-'), false);
      expect(runs).toEqual([1, 1]);
      const failed = settled.filter((s) => s.status === 'rejected');
      expect(failed).toHaveLength(1);
      const reason = (failed[0] as PromiseRejectedResult).reason;
      expect(isTransactionConflict(reason)).toBe(true);
      expect(isDatabaseBusy(reason)).toBe(true);
      expect(sorts).toEqual([1, 1]);
    });
  });
}

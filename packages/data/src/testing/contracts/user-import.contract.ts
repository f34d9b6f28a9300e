/**
 * Contract: the Excel import's commit (`UserRepository.importBatch`, repositories/users-import.ts) inserts its new
 * users many rows a statement. An import of more users than one INSERT takes lands every user under its own id
 * (`createdIds` in the order of the creates), with its roles and one password-history row, updates existing users
 * and their roles, and keeps the live-user counter equal to COUNT; a statement failing in a later chunk leaves
 * nothing written; and a new user's id is its own even when a user of the same account was deleted by another
 * transaction after this one began reading (MySQL reads the ids back: a snapshot read would see both).
 */

import { tmpdir } from 'node:os';
import { and, asc, count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../database.js';
import { createRepositories, type Repositories } from '../../repositories/index.js';
import { LIVE_USERS, type NewUser } from '../../repositories/users.js';
import { IMPORT_USERS_PER_INSERT } from '../../repositories/users-import.js';
import { insertUsersInBulk } from '../bulk.js';
import type { DialectFixture } from '../fixtures.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';

/** New users of the large import: five INSERTs of {@link IMPORT_USERS_PER_INSERT}. */
const USERS = 2_500;

export function userImportContract(fixture: DialectFixture): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(`user import commit (${fixture.dbType})`, () => {
    let t: OpenTestDatabase;
    let repos: Repositories;
    let roleA: number;
    let roleB: number;
    beforeAll(async () => {
      t = await openTestDatabase(fixture.dbType);
      repos = createRepositories(t.database);
      const { adapter, db, tables } = t.database;
      roleA = await adapter.insertReturningId(db, tables.sysRole, { name: 'Import A', code: 'import-a' });
      roleB = await adapter.insertReturningId(db, tables.sysRole, { name: 'Import B', code: 'import-b' });
    });
    afterAll(() => t?.cleanup());

    const at = new Date('2026-11-28T10:00:00.000Z');
    const stamp = { userId: null, at };
    const newUser = (account: string, hash = `hash-${account}`): NewUser => ({
      account,
      realName: `Real ${account}`,
      password: hash,
      lastPasswordChangeTime: at,
      mustChangePassword: true,
      createTime: at,
    });

    async function counted(): Promise<{ live: number; kept: number }> {
      const { db, tables } = t.database;
      const u = tables.sysUser;
      const c = tables.sysCounter;
      const [live] = await db.select({ n: count() }).from(u).where(eq(u.isDelete, false));
      const [kept] = await db.select({ v: c.value }).from(c).where(eq(c.name, LIVE_USERS));
      return { live: Number(live?.n), kept: Number(kept?.v) };
    }

    it('lands every user of an import larger than one INSERT with its id, roles and password history', async () => {
      expect(USERS).toBeGreaterThan(2 * IMPORT_USERS_PER_INSERT);
      const { db, tables } = t.database;
      const u = tables.sysUser;
      const ph = tables.sysPasswordHistory;
      const old = await insertUsersInBulk(t.database, { count: 3, prefix: 'old-', roleIds: [roleA] });
      await repos.users.softDelete([old[2] as number], stamp);
      const before = await counted();
      expect(before.kept).toBe(before.live);

      // Accounts in mixed case; roles none, one, or two given with a repeat.
      const roleSets = [[], [roleA], [roleB, roleA, roleB]];
      const accounts = Array.from({ length: USERS }, (_, i) => (i % 2 ? `Imp-${i}` : `imp-${i}`));
      // Through a second connection to the same database that records every statement it sends.
      const statements: string[] = [];
      const logged = await openDatabase({
        dbType: fixture.dbType,
        connectionString: t.connectionString,
        contentRoot: tmpdir(),
        queryLogger: { logQuery: (text) => statements.push(text) },
      });
      const result = await createRepositories(logged)
        .users.importBatch({
          creates: accounts.map((account, i) => ({
            user: newUser(account),
            roleIds: roleSets[i % 3] as number[],
          })),
          updates: [
            { id: old[0] as number, patch: { realName: 'Renamed' }, roleIds: [roleB] },
            { id: old[1] as number, patch: { realName: 'Renamed' } },
            { id: old[2] as number, patch: { realName: 'Deleted' }, roleIds: [roleB] },
          ],
          stamp,
        })
        .finally(() => logged.close());

      // One INSERT of users a chunk, not one a user (nor the role links and password history one a user).
      const inserts = (table: string) =>
        statements.filter((text) => new RegExp(`^insert into [\`"[]?${table}[\`"\\]]? `, 'i').test(text))
          .length;
      expect(inserts('sys_user')).toBe(USERS / IMPORT_USERS_PER_INSERT);
      expect(inserts('sys_password_history')).toBe(USERS / IMPORT_USERS_PER_INSERT);
      expect(statements.length).toBeLessThan(40);
      expect(result.updated).toBe(2);
      expect(result.createdIds).toHaveLength(USERS);
      expect(new Set(result.createdIds).size).toBe(USERS);
      const rows = await db
        .select({ id: u.id, account: u.account, password: u.password, isDelete: u.isDelete })
        .from(u)
        .where(sql`lower(${u.account}) like 'imp-%'`);
      const byAccount = new Map(rows.map((r) => [r.account, r]));
      expect(rows).toHaveLength(USERS);
      // createdIds[i] is the user of creates[i].
      expect(result.createdIds).toEqual(accounts.map((account) => byAccount.get(account)?.id));
      expect(rows.every((r) => !r.isDelete && r.password === `hash-${r.account}`)).toBe(true);

      const roles = await repos.users.roleIdsOf([...result.createdIds, ...old]);
      const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
      accounts.forEach((_, i) => {
        const want = sorted([...new Set(roleSets[i % 3] as number[])]);
        expect(roles.get(result.createdIds[i] as number) ?? []).toEqual(want);
      });
      expect(roles.get(old[0] as number)).toEqual([roleB]);
      expect(roles.get(old[1] as number)).toEqual([roleA]);
      expect(roles.get(old[2] as number)).toEqual([roleA]);

      const history = await db
        .select({ userId: ph.userId, hash: ph.passwordHash, createTime: ph.createTime })
        .from(ph)
        .where(sql`${ph.userId} in (select ${u.id} from ${u} where lower(${u.account}) like 'imp-%')`)
        .orderBy(asc(ph.userId));
      expect(history).toHaveLength(USERS);
      const idToAccount = new Map(rows.map((r) => [r.id, r.account]));
      for (const row of history) {
        expect(row.hash).toBe(`hash-${idToAccount.get(row.userId)}`);
        expect(row.createTime.getTime()).toBe(at.getTime());
      }

      const after = await counted();
      expect(after.live).toBe(before.live + USERS);
      expect(after.kept).toBe(after.live);
    });

    it('writes nothing when a statement of a later chunk fails', async () => {
      const { db, tables } = t.database;
      const u = tables.sysUser;
      const [taken] = await insertUsersInBulk(t.database, { count: 1, prefix: 'taken-' });
      const before = await counted();
      const creates = Array.from({ length: 2 * IMPORT_USERS_PER_INSERT + 10 }, (_, i) => ({
        user: newUser(`bad-${i}`),
        roleIds: [roleA],
      }));
      // The last chunk holds the account of a live user (other case): the live-account index refuses it.
      creates.push({ user: newUser('TAKEN-0'), roleIds: [roleA] });
      await expect(
        repos.users.importBatch({
          creates,
          updates: [{ id: taken as number, patch: { realName: 'Changed' }, roleIds: [roleB] }],
          stamp,
        }),
      ).rejects.toThrow();
      const [bad] = await db.select({ n: count() }).from(u).where(like(u.account, 'bad-%'));
      expect(Number(bad?.n)).toBe(0);
      const [history] = await db
        .select({ n: count() })
        .from(tables.sysPasswordHistory)
        .where(eq(tables.sysPasswordHistory.passwordHash, 'hash-bad-0'));
      expect(Number(history?.n)).toBe(0);
      expect((await repos.users.findById(taken as number))?.realName).toBe('taken-0');
      expect(await counted()).toEqual(before);
    });

    it("answers a new user's own id when a user of the same account was deleted after the transaction read", async () => {
      const { adapter, db, tables } = t.database;
      const u = tables.sysUser;
      const [gone] = await insertUsersInBulk(t.database, { count: 1, prefix: 'again-' });
      const createdIds = await adapter.transaction(db, async (tx) => {
        // A read first: under REPEATABLE READ (MariaDB) it fixes the snapshot, in which `again-0` is live.
        await tx.select({ n: count() }).from(u).where(eq(u.account, 'again-0'));
        // Another connection deletes it and commits. SQLite has one connection, whose statements from outside wait
        // for the open transaction (sqlite/gate.ts): there the delete lands inside it, through its handle.
        await (t.database.dbType === 'Sqlite' ? tx : db)
          .update(u)
          .set({ isDelete: true })
          .where(and(eq(u.id, gone as number), eq(u.isDelete, false)));
        const inner = createRepositories({ ...t.database, db: tx });
        return (
          await inner.users.importBatch({
            creates: [{ user: newUser('again-0'), roleIds: [] }],
            updates: [],
            stamp,
          })
        ).createdIds;
      });
      expect(createdIds).toHaveLength(1);
      expect(createdIds[0]).not.toBe(gone);
      const created = await repos.users.findById(createdIds[0] as number);
      expect(created?.account).toBe('again-0');
      expect(created?.password).toBe('hash-again-0');
      expect((await repos.users.findById(gone as number, { includeDeleted: true }))?.isDelete).toBe(true);
      const after = await counted();
      expect(after.kept).toBe(after.live);
    });
  });
}

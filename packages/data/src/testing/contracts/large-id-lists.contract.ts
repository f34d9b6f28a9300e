/**
 * Contract: id lists longer than a statement may bind, written once and run on every dialect. A role held by
 * 70,000 users (past SQLite's 32,766 parameters and PostgreSQL's 65,534) is read, resolved to notice
 * receivers, filled and emptied, and users named by a 71,000-id batch are soft-deleted, through the repositories
 * the services call; each answer is the one a single statement would give (same rows, same order where the
 * method promises one), and a chunked change that fails part-way leaves nothing changed; the operation and login
 * logs of that organisation's users page by their organisation, a subquery binding no user ids. Before the shared
 * chunking, SQLite answered "too many SQL variables" and PostgreSQL "MAX_PARAMETERS_EXCEEDED"; MariaDB passed
 * (mysql2 sends the values as text).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAllInChunks } from '../../repositories/id-lists.js';
import { createRepositories, type Repositories } from '../../repositories/index.js';
import { insertUsersInBulk } from '../bulk.js';
import type { DialectFixture } from '../fixtures.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';

/** Members of the crowded role: more than any tested dialect binds in one statement. */
const MEMBERS = 70_000;
/** Every this many members also hold the second role (users with two roles, in every chunk). */
const SECOND_ROLE_EVERY = 7;

export function largeIdListsContract(fixture: DialectFixture): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(
    `id lists past the parameter limits (${fixture.dbType})`,
    () => {
      let t: OpenTestDatabase;
      let repos: Repositories;
      let crowd: number;
      let second: number;
      let members: number[];
      let twice: number[];

      beforeAll(async () => {
        t = await openTestDatabase(fixture.dbType);
        repos = createRepositories(t.database);
        crowd = await repos.roles.insert({ name: 'Crowd', code: 'crowd' });
        second = await repos.roles.insert({ name: 'Second', code: 'second' });
        members = await insertUsersInBulk(t.database, { count: MEMBERS, prefix: 'crowd-', roleIds: [crowd] });
        twice = members.filter((_, i) => i % SECOND_ROLE_EVERY === 0);
        const { db, tables } = t.database;
        for (let i = 0; i < twice.length; i += 5_000)
          await db
            .insert(tables.sysUserRole)
            .values(twice.slice(i, i + 5_000).map((userId) => ({ userId, roleId: second })));
      });
      afterAll(() => t?.cleanup());

      it('reads every member of the role, their rows and their roles, in the promised order', async () => {
        expect(await repos.roles.memberIdsOf(crowd)).toEqual(members);

        // Duplicates are asked for once: one row a user, as a single statement answers.
        const rows = await repos.users.findByIds([...members, ...members.slice(0, 1_000)]);
        expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(members);

        // Ordered by user, then role: the map's keys ascend and each user's roles too.
        const rolesOf = await repos.users.roleIdsOf([...members].reverse());
        expect([...rolesOf.keys()]).toEqual(members);
        const [first, next] = members;
        expect(rolesOf.get(first as number)).toEqual([crowd, second].sort((a, b) => a - b));
        expect(rolesOf.get(next as number)).toEqual([crowd]);
      });

      it("resolves a notice to the roles' live members and checks the receivers exist", async () => {
        const receivers = await repos.notices.roleMemberIds([crowd, second]);
        expect(receivers.length).toBe(MEMBERS);
        expect([...receivers].sort((a, b) => a - b)).toEqual(members);
        expect((await repos.notices.liveUserIds(members)).length).toBe(MEMBERS);
      });

      it('gives the second role to every member and takes it away again, each in one change', async () => {
        await repos.roles.changeMembers(second, members, []);
        expect(await repos.roles.memberIdsOf(second)).toEqual(members);
        expect(await repos.roles.memberIdsOf(crowd)).toEqual(members);

        await repos.roles.changeMembers(second, [], members);
        expect(await repos.roles.memberIdsOf(second)).toEqual([]);
        expect(await repos.roles.memberIdsOf(crowd)).toEqual(members);
      });

      it('keeps a change that fails part-way from changing anything', async () => {
        const ur = t.database.tables.sysUserRole;
        const boom = new Error('second chunk fails');
        await expect(
          writeAllInChunks(t.database, members, async (q, chunk) => {
            if (chunk[0] !== members[0]) throw boom;
            return q.delete(ur).where(and(eq(ur.roleId, crowd), inArray(ur.userId, chunk)));
          }),
        ).rejects.toBe(boom);
        expect(await repos.roles.memberIdsOf(crowd)).toEqual(members);
      });

      it('scopes the logs of an organisation of 70,000 users by their organisation, not a list of their ids', async () => {
        const [first] = members;
        const last = members.at(-1) as number;
        const middle = members[MEMBERS / 2] as number;
        const outsider = last + 1_000_000; // no such user
        const createTime = new Date();
        await repos.opLogs.insertMany(
          [first as number, middle, last, outsider, null].map((operatorId) => ({
            title: `scoped ${operatorId}`,
            httpMethod: 'POST',
            path: `/scoped/${operatorId}`,
            paramJson: null,
            resultCode: 0,
            success: true,
            elapsedMs: 1,
            operatorId,
            operatorName: null,
            ip: null,
            userAgent: null,
            traceId: null,
            createTime,
          })),
        );
        for (const userId of [first as number, middle, last, outsider, null])
          await repos.loginLogs.insert({
            account: `scoped-${userId}`,
            success: true,
            resultCode: 0,
            userId,
            createTime,
          });
        const q = { size: 100, current: 1, sortField: 'id', sortOrder: 'asc' } as const;
        const org = { all: false, orgIds: [1], selfUserId: null };
        const ops = await repos.opLogs.page(q, org);
        expect(ops.items.map((r) => r.operatorId)).toEqual([first, middle, last]);
        expect(ops.total).toBe(3);
        const logins = await repos.loginLogs.page(q, org);
        expect(logins.items.map((r) => r.userId)).toEqual([first, middle, last]);
        const self = { all: false, orgIds: [], selfUserId: middle };
        expect((await repos.opLogs.page(q, self)).items.map((r) => r.operatorId)).toEqual([middle]);
        expect((await repos.loginLogs.page(q, self)).items.map((r) => r.userId)).toEqual([middle]);
        const none = { all: false, orgIds: [], selfUserId: null };
        expect((await repos.opLogs.page(q, none)).total).toBe(0);
        expect((await repos.loginLogs.page(q, none)).total).toBe(0);
        expect((await repos.opLogs.page(q)).total).toBe(5);
        expect((await repos.loginLogs.page(q, { all: true, orgIds: [], selfUserId: null })).total).toBe(5);
      });

      it('soft-deletes the users a long list names and counts only those still live', async () => {
        // A batch naming 70,000 ids, most of them gone long ago: each still costs a bound value. Only 1,000 are
        // live (mass deletes of live users and the counter: user-counter.contract.ts).
        const live = members.slice(0, 1_000);
        const gone = Array.from({ length: MEMBERS }, (_, i) => (members.at(-1) as number) + 1 + i);
        const before = await repos.users.countLive();
        expect(await repos.users.softDelete([...live, ...gone], { userId: null, at: new Date() })).toBe(
          1_000,
        );
        expect(await repos.users.countLive()).toBe(before - 1_000);
        expect(await repos.users.findByIds(live)).toEqual([]);
        expect((await repos.users.findByIds(members)).length).toBe(MEMBERS - 1_000);
      });
    },
  );
}

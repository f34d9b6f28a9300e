/**
 * The rank rule over many users at once: the organisation tree is read once per check, not once per user (a
 * role's 70,000 members were 70,000 reads of it), and the answer is the one a per-user check gives.
 */
import { DataScope, type OrgLink, type Repositories, type RoleScope, type SysUserRow } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import type { AdminActor } from './actor.js';
import { assertOutranksUsers } from './rank.js';

//   1 ─┬─ 2 ─── 4
//      └─ 3
const links: OrgLink[] = [
  { id: 1, parentId: 0 },
  { id: 2, parentId: 1 },
  { id: 3, parentId: 1 },
  { id: 4, parentId: 2 },
];

/** Repositories holding `users` (id → organisation), each with the one role 10 of scope Org and children. */
function reposOf(users: Record<number, number>) {
  let treeReads = 0;
  const roleIdsOf = async (ids: readonly number[]) => new Map(ids.map((id) => [id, [10]]));
  const scope: RoleScope = { roleId: 10, dataScope: DataScope.OrgAndChildren, customOrgIds: [] };
  const repos = {
    users: {
      roleIdsOf,
      findByIds: async (ids: readonly number[]) =>
        ids.map((id) => ({ id, orgId: users[id] ?? null }) as SysUserRow),
    },
    roles: {
      permissionsOfRoles: async () => [],
      scopesOfRoles: async () => [scope],
    },
    orgs: {
      links: async () => {
        treeReads++;
        return links;
      },
    },
  } as unknown as Pick<Repositories, 'users' | 'roles' | 'orgs'>;
  return { deps: { repos }, treeReads: () => treeReads };
}

/** A caller who holds every code there is and sees the organisations `orgIds`. */
function actorSeeing(orgIds: number[]): AdminActor {
  return {
    principal: { kind: 'user', userId: 5_000 } as AdminActor['principal'],
    userId: 5_000,
    isSuperAdmin: false,
    codes: async () => new Set<string>(),
    scope: async () => ({ all: false, orgIds, selfUserId: null }),
  };
}

describe('assertOutranksUsers over many users', () => {
  it('reads the organisation tree once for every user it checks', async () => {
    const users = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [i + 1, i % 2 ? 2 : 4]));
    const { deps, treeReads } = reposOf(users);
    await assertOutranksUsers(deps, actorSeeing([2, 4]), Object.keys(users).map(Number));
    expect(treeReads()).toBe(1);
  });

  it('refuses the first user whose roles reach beyond the caller, naming the organisations (41005)', async () => {
    // User 3 sits in organisation 1: their role reaches 1, 2, 3 and 4; the caller sees 2 and 4.
    const { deps, treeReads } = reposOf({ 1: 2, 2: 4, 3: 1, 4: 3 });
    const refusal = await assertOutranksUsers(deps, actorSeeing([2, 4]), [1, 2, 3, 4]).catch((e) => e);
    expect(refusal).toBeInstanceOf(BusinessError);
    expect(refusal).toMatchObject({
      code: ErrorCode.OutOfDataScope.code,
      args: { reason: 'data-scope', orgIds: [1, 3] },
    });
    expect(treeReads()).toBe(1);
  });
});

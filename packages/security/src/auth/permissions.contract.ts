/**
 * Contract: the permission resolver. Codes are cached per user; `invalidateUser` and `invalidateAll` make the
 * next call reload, and an invalidation that lands while another request is loading can never leave the old
 * codes current (the reason for generations instead of deletes). A disabled user has no codes.
 */
import type { PermissionRepository } from '@svc/data';
import { expect, it } from 'vitest';
import {
  type AuthFixture,
  type AuthWorld,
  buildServices,
  createUser,
  describeAuth,
  updateUserBehindTheService,
} from './harness.contract.js';
import { createPermissionResolver } from './permissions.js';

let codeSeq = 0;

/** A role granting one new menu button with a fresh code; returns the role id and a grant helper. */
async function grantNewCode(world: AuthWorld, userIds: number[]) {
  const { adapter, db, tables } = world.database.database;
  const code = `GET:/api/v1/contract/${++codeSeq}`;
  const menuId = await adapter.insertReturningId(db, tables.sysMenu, {
    type: 'button',
    title: 'b',
    permission: code,
  });
  const roleId = await adapter.insertReturningId(db, tables.sysRole, { name: code, code: `r${codeSeq}` });
  await db.insert(tables.sysRoleMenu).values({ roleId, menuId });
  if (userIds.length > 0)
    await db.insert(tables.sysUserRole).values(userIds.map((userId) => ({ userId, roleId })));
  return code;
}

export function permissionsContract(fixture: AuthFixture): void {
  describeAuth('permissions', fixture, (world) => {
    it('caches per user and reloads after invalidateUser or invalidateAll', async () => {
      const s = buildServices(world());
      const alice = await createUser(world());
      const bob = await createUser(world());
      const first = await grantNewCode(world(), [alice.id, bob.id]);
      expect([...(await s.permissions.codesOf(alice.id))]).toEqual([first]);
      expect([...(await s.permissions.codesOf(bob.id))]).toEqual([first]);

      const second = await grantNewCode(world(), [alice.id, bob.id]);
      expect([...(await s.permissions.codesOf(alice.id))]).toEqual([first]);
      await s.permissions.invalidateUser(alice.id);
      expect([...(await s.permissions.codesOf(alice.id))].sort()).toEqual([first, second].sort());
      expect([...(await s.permissions.codesOf(bob.id))]).toEqual([first]);
      await s.permissions.invalidateAll();
      expect([...(await s.permissions.codesOf(bob.id))].sort()).toEqual([first, second].sort());
      expect((await s.permissions.codesOf(0)).size).toBe(0);
    });

    it('never makes codes loaded before an invalidation current again', async () => {
      const user = await createUser(world());
      const first = await grantNewCode(world(), [user.id]);
      let during: (() => Promise<void>) | undefined;
      const repository: PermissionRepository = {
        async codesOfUser(userId) {
          const codes = await world().repos.permissions.codesOfUser(userId);
          // The authorization change and its invalidation land between this load and its store.
          const hook = during;
          during = undefined;
          await hook?.();
          return codes;
        },
        isActiveUser: (userId) => world().repos.permissions.isActiveUser(userId),
      };
      for (const invalidate of ['user', 'all'] as const) {
        const resolver = createPermissionResolver({ permissions: repository, cache: world().cache });
        await resolver.invalidateUser(user.id); // start from a miss, so the next call loads
        let added = '';
        during = async () => {
          added = await grantNewCode(world(), [user.id]);
          if (invalidate === 'user') await resolver.invalidateUser(user.id);
          else await resolver.invalidateAll();
        };
        const stale = await resolver.codesOf(user.id);
        expect(added).not.toBe('');
        expect(stale.has(added)).toBe(false);
        expect((await resolver.codesOf(user.id)).has(added)).toBe(true);
        expect((await resolver.codesOf(user.id)).has(first)).toBe(true);
      }
    });

    it('answers no codes for a disabled or deleted user', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const code = await grantNewCode(world(), [user.id]);
      expect((await s.permissions.codesOf(user.id)).has(code)).toBe(true);
      await updateUserBehindTheService(world(), user.account, { enabled: false });
      await s.permissions.invalidateUser(user.id);
      expect((await s.permissions.codesOf(user.id)).size).toBe(0);
      await updateUserBehindTheService(world(), user.account, { enabled: true, isDelete: true });
      await s.permissions.invalidateUser(user.id);
      expect((await s.permissions.codesOf(user.id)).size).toBe(0);
    });
  });
}

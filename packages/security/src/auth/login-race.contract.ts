/**
 * Contract: a password login whose password is changed or reset while it is under way ends with no session. The
 * change lands between the password check and the session insert through the second-factor hook (which runs
 * exactly there), so the race is reproduced on every run without timing. Before, the change revoked every
 * session it could see and the login inserted its session afterwards: a live session (and a refresh token that
 * rotated on) for whoever held the old password.
 */
import { BusinessError } from '@svc/kernel';
import { expect, it } from 'vitest';
import {
  type AuthFixture,
  buildServices,
  CLIENT,
  createUser,
  describeAuth,
  PASSWORD,
} from './harness.contract.js';
import type { UserPrincipal } from './principal.js';

async function codeOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BusinessError) return error.code;
    throw error;
  }
  throw new Error('expected a BusinessError');
}

export function loginRaceContract(fixture: AuthFixture): void {
  describeAuth('login racing a password change', fixture, (world) => {
    /** Services whose login runs `between` (once, when set) after the password check, before the session. */
    function racing() {
      const slot: { between?: (() => Promise<unknown>) | undefined } = {};
      const s = buildServices(world(), {
        hooks: {
          async afterPassword() {
            const run = slot.between;
            slot.between = undefined;
            await run?.();
          },
        },
      });
      return { s, slot };
    }
    const input = (account: string, password = PASSWORD) => ({ account, password, client: CLIENT });
    const liveIds = async (userId: number) =>
      (await world().repos.sessions.listLive(userId)).map((row) => row.id);

    it('refuses (40001) a login with the old password when the owner changes it meanwhile', async () => {
      const { s, slot } = racing();
      const user = await createUser(world());
      const owner = await s.auth.login(input(user.account));
      const principal = (await s.sessions.authenticate(owner.accessToken)) as UserPrincipal;
      slot.between = () => s.auth.changePassword(principal, PASSWORD, 'Moved#Pass789');

      expect(await codeOf(s.auth.login(input(user.account)))).toBe(40001);
      // The owner's session is the only one left; the racing one was opened and revoked.
      expect(await liveIds(user.id)).toEqual([owner.sessionId]);
      expect(await s.auth.login(input(user.account, 'Moved#Pass789'))).toMatchObject({ userId: user.id });
    });

    it('refuses (40001) a login with the old password when an administrator resets it meanwhile', async () => {
      const { s, slot } = racing();
      const user = await createUser(world());
      // The reset's order (admin/users.ts resetPassword): the new hash first, then every session revoked.
      slot.between = async () => {
        const at = s.clock.now();
        await world().repos.users.updatePassword(user.id, {
          password: await s.passwords.hasher.hash('Reset#Pass456'),
          lastPasswordChangeTime: at,
          mustChangePassword: true,
          updateTime: at,
        });
        await s.manager.revokeUserSessions(user.id, 'password-reset');
      };

      expect(await codeOf(s.auth.login(input(user.account)))).toBe(40001);
      expect(await liveIds(user.id)).toEqual([]);
    });

    it('lets a login through when a concurrent first login only rehashed the same password', async () => {
      const { s, slot } = racing();
      // A first login rehashes (contract §10); the second one, racing it, finds another hash of the same password.
      const user = await createUser(world());
      let other: Awaited<ReturnType<typeof s.auth.login>> | undefined;
      slot.between = async () => {
        other = await s.auth.login(input(user.account));
      };

      const first = await s.auth.login(input(user.account));
      expect((await world().repos.users.findById(user.id))?.password).not.toBe(user.password);
      expect((await liveIds(user.id)).sort()).toEqual([first.sessionId, other?.sessionId].sort());
    });
  });
}

/**
 * Contract: self-service password change. The old password is checked (and counts on the lock), the runtime
 * policy refuses weak passwords with its requirements, the current and the last N passwords cannot be reused,
 * history is trimmed to N, the anchor is refreshed and the must-change flag cleared, the caller's session keeps
 * working and every other session of the user ends (next request refused, refresh 40007).
 */
import { BusinessError, iterationsOf } from '@svc/kernel';
import { expect, it } from 'vitest';
import {
  type AuthFixture,
  buildServices,
  CLIENT,
  createUser,
  describeAuth,
  ITERATIONS,
  PASSWORD,
} from './harness.contract.js';
import type { UserPrincipal } from './principal.js';

async function codeOf(promise: Promise<unknown>): Promise<{ code: number; args: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BusinessError) return { code: error.code, args: error.args };
    throw error;
  }
  throw new Error('expected a BusinessError');
}

export function passwordContract(fixture: AuthFixture): void {
  describeAuth('password change', fixture, (world) => {
    async function signedIn(
      s: ReturnType<typeof buildServices>,
      extra: Parameters<typeof createUser>[1] = {},
    ) {
      const user = await createUser(world(), extra);
      const issued = await s.auth.login({ account: user.account, password: PASSWORD, client: CLIENT });
      const principal = (await s.sessions.authenticate(issued.accessToken)) as UserPrincipal;
      return { user, issued, principal };
    }
    const historyRows = (userId: number) => world().repos.passwordHistory.listNewest(userId, 100);

    it('revokes every other session of the user (next check refused, refresh 40007), also one warm in the cache', async () => {
      const s = buildServices(world());
      // A second instance sharing database and cache (Redis in the Redis runners).
      const peer = buildServices(world());
      const { user, issued, principal } = await signedIn(s);
      const other = await s.auth.login({ account: user.account, password: PASSWORD, client: CLIENT });
      const third = await peer.auth.login({ account: user.account, password: PASSWORD, client: CLIENT });
      // Warm copies on both instances (and the verified-token caches).
      expect(await peer.sessions.authenticate(other.accessToken)).not.toBeNull();
      expect(await s.sessions.authenticate(third.accessToken)).not.toBeNull();
      const stranger = await signedIn(s);

      await s.auth.changePassword(principal, PASSWORD, 'Moved#Pass789');
      for (const svc of [s, peer]) {
        expect(await svc.sessions.authenticate(other.accessToken)).toBeNull();
        expect(await svc.sessions.authenticate(third.accessToken)).toBeNull();
        expect(await svc.sessions.authenticate(issued.accessToken)).not.toBeNull();
        expect(await svc.sessions.authenticate(stranger.issued.accessToken)).not.toBeNull();
      }
      await expect(s.auth.refresh(other.refreshToken, CLIENT)).rejects.toMatchObject({ code: 40007 });
      await expect(peer.auth.refresh(third.refreshToken, CLIENT)).rejects.toMatchObject({ code: 40007 });
      expect((await world().repos.sessions.findById(other.sessionId))?.revokeReason).toBe('password-change');
      expect((await s.auth.refresh(issued.refreshToken, CLIENT)).sessionId).toBe(issued.sessionId);
      expect(user.id).toBe(principal.userId);
    });

    it('changes the password, refreshes the anchor, clears the flag and keeps the session', async () => {
      const s = buildServices(world());
      const { user, issued, principal } = await signedIn(s, {
        mustChangePassword: true,
        lastPasswordChangeTime: new Date('2024-01-01T00:00:00.000Z'),
      });
      s.clock.advance(60_000);
      await s.auth.changePassword(principal, PASSWORD, 'Next#Pass456');
      const row = await world().repos.users.findById(user.id);
      expect(row?.mustChangePassword).toBe(false);
      expect(row?.lastPasswordChangeTime?.getTime()).toBe(s.clock.now().getTime());
      expect(iterationsOf(row?.password ?? '')).toBe(ITERATIONS);
      expect(await s.sessions.authenticate(issued.accessToken)).not.toBeNull();
      await expect(
        s.auth.login({ account: user.account, password: PASSWORD, client: CLIENT }),
      ).rejects.toMatchObject({ code: 40001 });
      expect(
        (await s.auth.login({ account: user.account, password: 'Next#Pass456', client: CLIENT })).userId,
      ).toBe(user.id);
    });

    it('refuses a wrong old password (counting it on the lock) and a weak new one with its requirements', async () => {
      const s = buildServices(world(), {
        runtime: {
          'sys.security.loginLock.maxFailCount': '2',
          'sys.security.password.minLength': '10',
          'sys.security.password.requireSpecial': 'true',
        },
      });
      const { principal } = await signedIn(s);
      expect(await codeOf(s.auth.changePassword(principal, 'Wrong#Old1', 'Next#Pass456'))).toEqual({
        code: 40001,
        args: { attemptsLeft: 1 },
      });
      expect(await codeOf(s.auth.changePassword(principal, PASSWORD, 'short1A'))).toEqual({
        code: 42019,
        args: {
          minLength: 10,
          requireUpper: true,
          requireLower: true,
          requireDigit: true,
          requireSpecial: true,
          unmet: ['minLength', 'requireSpecial'],
        },
      });
      // The right old password cleared the counter, as a successful login does (one shared check).
      expect((await codeOf(s.auth.changePassword(principal, 'Wrong#Old2', 'Next#Pass456'))).code).toBe(40001);
      expect((await codeOf(s.auth.changePassword(principal, 'Wrong#Old3', 'Next#Pass456'))).code).toBe(40004);
      expect((await codeOf(s.auth.changePassword(principal, PASSWORD, 'Next#Pass456'))).code).toBe(40004);
    });

    it('refuses the current password and the last N, and trims history to N', async () => {
      const s = buildServices(world(), { runtime: { 'sys.security.password.historyCount': '2' } });
      const { user, principal } = await signedIn(s);
      expect((await codeOf(s.auth.changePassword(principal, PASSWORD, PASSWORD))).code).toBe(42025);
      const passwords = ['Second#Pass2', 'Third#Pass3', 'Fourth#Pass4'];
      let current = PASSWORD;
      for (const next of passwords) {
        s.clock.advance(1000);
        await s.auth.changePassword(principal, current, next);
        current = next;
      }
      expect(await historyRows(user.id)).toHaveLength(2);
      // The last two (Fourth = current, Third) are refused; older ones may come back.
      expect((await codeOf(s.auth.changePassword(principal, current, 'Third#Pass3'))).code).toBe(42025);
      expect((await codeOf(s.auth.changePassword(principal, current, 'Fourth#Pass4'))).code).toBe(42025);
      await s.auth.changePassword(principal, current, 'Second#Pass2');
      expect(await historyRows(user.id)).toHaveLength(2);
    });

    it('keeps no history at N = 0 but still refuses the current password', async () => {
      const s = buildServices(world());
      const { user, principal } = await signedIn(s);
      await s.auth.changePassword(principal, PASSWORD, 'Other#Pass789');
      expect(await historyRows(user.id)).toHaveLength(0);
      expect((await codeOf(s.auth.changePassword(principal, 'Other#Pass789', 'Other#Pass789'))).code).toBe(
        42025,
      );
      await s.auth.changePassword(principal, 'Other#Pass789', PASSWORD);
    });
  });
}

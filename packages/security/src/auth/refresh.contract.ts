/**
 * Contract: refresh-token rotation. A refresh hands out a new pair in the same session; a `Used` token
 * presented again revokes the session so its access token fails the very next check (even after logout);
 * N concurrent refreshes of one token leave exactly one success and one live token; expired, revoked and
 * malformed tokens and disabled users answer 40007.
 */
import { RefreshTokenStatus } from '@svc/data';
import { createMemoryCache } from '@svc/data/cache';
import { sha256Hex } from '@svc/kernel';
import { expect, it } from 'vitest';
import { REFRESH_FLIGHT_KEY_PREFIX } from './constants.js';
import {
  type AuthFixture,
  buildServices,
  CLIENT,
  createUser,
  describeAuth,
  PASSWORD,
  updateUserBehindTheService,
} from './harness.contract.js';

const MINUTE = 60_000;

export function refreshContract(fixture: AuthFixture): void {
  describeAuth('refresh', fixture, (world) => {
    const login = (s: ReturnType<typeof buildServices>, account: string) =>
      s.auth.login({ account, password: PASSWORD, client: CLIENT });
    const statuses = async (sessionId: string) =>
      (await world().repos.refreshTokens.listBySession(sessionId)).map((t) => t.status);
    const invalid = { code: 40007 };

    it('rotates: a new pair in the same session, the old token Used, the new one Active', async () => {
      const s = buildServices(world(), { runtime: { 'sys.security.session.refreshMinutes': '60' } });
      const user = await createUser(world(), { mustChangePassword: true });
      const first = await login(s, user.account);
      expect(await s.auth.sessionOfRefreshToken(first.refreshToken)).toBe(first.sessionId);
      s.clock.advance(5 * MINUTE);
      const second = await s.auth.refresh(first.refreshToken, CLIENT);
      expect(second.sessionId).toBe(first.sessionId);
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second.accessToken).not.toBe(first.accessToken);
      expect(second.mustChangePassword).toBe(true);
      expect(second.refreshExpiresAt.getTime()).toBe(s.clock.now().getTime() + 60 * MINUTE);
      expect(await statuses(first.sessionId)).toEqual([RefreshTokenStatus.Used, RefreshTokenStatus.Active]);
      const used = await world().repos.refreshTokens.findByHash(sha256Hex(first.refreshToken));
      expect(used?.usedTime?.getTime()).toBe(s.clock.now().getTime());
      expect(await s.sessions.authenticate(second.accessToken)).toMatchObject({ sessionId: first.sessionId });
      // Refresh counts as activity on the row.
      const row = await world().repos.sessions.findById(first.sessionId);
      expect(row?.lastActivityTime.getTime()).toBe(s.clock.now().getTime());
    });

    it('revokes the whole session when a Used token comes back, so its access token fails at once', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const first = await login(s, user.account);
      const second = await s.auth.refresh(first.refreshToken, CLIENT);
      expect(await s.sessions.authenticate(second.accessToken)).not.toBeNull();
      await expect(s.auth.refresh(first.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      expect(await s.sessions.authenticate(second.accessToken)).toBeNull();
      expect(await s.sessions.authenticate(first.accessToken)).toBeNull();
      await expect(s.auth.refresh(second.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      expect((await world().repos.sessions.findById(first.sessionId))?.revokeReason).toBe('refresh-reuse');
      expect(await statuses(first.sessionId)).toEqual([RefreshTokenStatus.Used, RefreshTokenStatus.Revoked]);
    });

    it('treats replay after logout as theft too (the session stays revoked, the answer is 40007)', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const first = await login(s, user.account);
      const second = await s.auth.refresh(first.refreshToken, CLIENT);
      await s.auth.logout((await s.sessions.authenticate(second.accessToken))!);
      await expect(s.auth.refresh(first.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      await expect(s.auth.refresh(second.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      expect(await s.sessions.authenticate(second.accessToken)).toBeNull();
    });

    it('lets exactly one of ten concurrent refreshes win and leaves exactly one Active token', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const issued = await login(s, user.account);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => s.auth.refresh(issued.refreshToken, CLIENT)),
      );
      const winners = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(winners).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject(invalid);
      const tokens = await world().repos.refreshTokens.listBySession(issued.sessionId);
      const active = tokens.filter((t) => t.status === RefreshTokenStatus.Active);
      expect(active.map((t) => t.tokenHash)).toEqual([sha256Hex(winners[0]!.refreshToken)]);
      expect(await s.sessions.authenticate(winners[0]!.accessToken)).not.toBeNull();
      expect(await world().cache.has(`${REFRESH_FLIGHT_KEY_PREFIX}${sha256Hex(issued.refreshToken)}`)).toBe(
        false,
      );
      // The winner's token goes on rotating.
      expect((await s.auth.refresh(winners[0]!.refreshToken, CLIENT)).sessionId).toBe(issued.sessionId);
    });

    it('never lets two refreshes of one token win, even across instances that share no cache', async () => {
      const s = buildServices(world());
      // A second instance with its own in-process cache: the single-flight marker is not shared, so only the
      // conditional update stands between the two.
      const peer = buildServices({ ...world(), cache: createMemoryCache() });
      const user = await createUser(world());
      const issued = await login(s, user.account);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? peer : s).auth.refresh(issued.refreshToken, CLIENT)),
      );
      expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(1);
      const active = (await statuses(issued.sessionId)).filter((x) => x === RefreshTokenStatus.Active);
      expect(active.length).toBeLessThanOrEqual(1);
    });

    it('refuses a token presented while a refresh of it is running, without revoking anything', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const issued = await login(s, user.account);
      const flight = `${REFRESH_FLIGHT_KEY_PREFIX}${sha256Hex(issued.refreshToken)}`;
      await world().cache.set(flight, 1, MINUTE);
      await expect(s.auth.refresh(issued.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      expect(await statuses(issued.sessionId)).toEqual([RefreshTokenStatus.Active]);
      await world().cache.delete(flight);
      expect((await s.auth.refresh(issued.refreshToken, CLIENT)).sessionId).toBe(issued.sessionId);
    });

    it('refuses expired, unknown and malformed tokens without revoking the session', async () => {
      const s = buildServices(world(), {
        runtime: { 'sys.security.session.refreshMinutes': '30', 'sys.security.session.accessMinutes': '120' },
      });
      const user = await createUser(world());
      const issued = await login(s, user.account);
      s.clock.advance(30 * MINUTE);
      await expect(s.auth.refresh(issued.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      expect(await s.sessions.authenticate(issued.accessToken)).not.toBeNull();
      await expect(s.auth.refresh('A'.repeat(43), CLIENT)).rejects.toMatchObject(invalid);
      await expect(s.auth.refresh('short', CLIENT)).rejects.toMatchObject(invalid);
      await expect(s.auth.refresh('x'.repeat(1_000_000), CLIENT)).rejects.toMatchObject(invalid);
      expect(await s.auth.sessionOfRefreshToken('A'.repeat(43))).toBeUndefined();
      expect(await s.auth.sessionOfRefreshToken('short')).toBeUndefined();
    });

    it('refuses and revokes when the user was disabled or deleted behind the service', async () => {
      const s = buildServices(world());
      for (const change of [{ enabled: false }, { isDelete: true }]) {
        const user = await createUser(world());
        const issued = await login(s, user.account);
        await updateUserBehindTheService(world(), user.account, change);
        await expect(s.auth.refresh(issued.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
        expect(await s.sessions.authenticate(issued.accessToken)).toBeNull();
        const reason = (await world().repos.sessions.findById(issued.sessionId))?.revokeReason;
        expect(reason).toBe('enabled' in change ? 'user-disabled' : 'user-deleted');
      }
    });
  });
}

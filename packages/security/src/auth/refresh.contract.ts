/**
 * Contract: refresh-token rotation. A refresh hands out a new pair in the same session; a `Used` token
 * presented again after the reuse interval revokes the session so its access token fails the very next check
 * (even after logout) and leaves a login-log row; within the interval it answers 40007 and revokes nothing.
 * N concurrent refreshes of one token, on one or two instances, leave exactly one success, one live token and
 * a live session (with interval 0 the losers revoke it); expired, revoked and malformed tokens and disabled
 * users answer 40007.
 */
import { RefreshTokenStatus } from '@svc/data';
import { createMemoryCache } from '@svc/data/cache';
import { sha256Hex } from '@svc/kernel';
import { expect, it } from 'vitest';
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
const SECOND = 1000;
/** Just past the default reuse interval (5 s). */
const PAST_INTERVAL = 5 * SECOND;
const TRACED = { ...CLIENT, traceId: 'feedc0de0123456789abcdef01234567' };

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
      expect(await s.auth.ownerOfRefreshToken(first.refreshToken)).toEqual({
        sessionId: first.sessionId,
        userId: user.id,
        account: user.account,
      });
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
      s.clock.advance(PAST_INTERVAL);
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
      s.clock.advance(PAST_INTERVAL);
      await expect(s.auth.refresh(first.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      await expect(s.auth.refresh(second.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      expect(await s.sessions.authenticate(second.accessToken)).toBeNull();
    });

    /** Sends `n` refreshes of one token at once (round-robin over `instances`) and sorts the outcomes. */
    async function burst(instances: ReturnType<typeof buildServices>[], token: string, n = 10) {
      const results = await Promise.allSettled(
        Array.from({ length: n }, (_, i) => instances[i % instances.length]!.auth.refresh(token, CLIENT)),
      );
      const winners = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const losers = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      return { winners, losers };
    }

    async function expectOneWinnerAndALiveSession(
      s: ReturnType<typeof buildServices>,
      sessionId: string,
      round: Awaited<ReturnType<typeof burst>>,
    ) {
      expect(round.winners).toHaveLength(1);
      for (const reason of round.losers) expect(reason).toMatchObject(invalid);
      const winner = round.winners[0]!;
      const active = (await world().repos.refreshTokens.listBySession(sessionId)).filter(
        (t) => t.status === RefreshTokenStatus.Active,
      );
      expect(active.map((t) => t.tokenHash)).toEqual([sha256Hex(winner.refreshToken)]);
      expect((await world().repos.sessions.findById(sessionId))?.revokedAt).toBeNull();
      expect(await s.sessions.authenticate(winner.accessToken)).not.toBeNull();
      return winner;
    }

    it('lets exactly one of ten concurrent refreshes win, 20 rounds in a row, and never revokes the session', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const issued = await login(s, user.account);
      let token = issued.refreshToken;
      for (let round = 0; round < 20; round++) {
        const winner = await expectOneWinnerAndALiveSession(s, issued.sessionId, await burst([s], token));
        token = winner.refreshToken;
        s.clock.advance(MINUTE);
      }
      // No security event: a race is not replay.
      const rows = (await world().repos.loginLogs.page({ current: 1, size: 500 })).items;
      expect(rows.filter((r) => r.userId === user.id && r.resultCode === 40007)).toHaveLength(0);
    });

    it('lets exactly one win across two instances (20 rounds) and never revokes the session', async () => {
      // A second instance on the same database and cache (Redis in the Redis runners), with its own services;
      // and a third that shares no cache at all: only the database's compare-and-swap stands between them.
      const s = buildServices(world());
      const peer = buildServices(world());
      const stranger = buildServices({ ...world(), cache: createMemoryCache() });
      const user = await createUser(world());
      const issued = await login(s, user.account);
      let token = issued.refreshToken;
      for (let round = 0; round < 20; round++) {
        const instances = round % 2 === 0 ? [s, peer] : [s, stranger];
        const winner = await expectOneWinnerAndALiveSession(
          s,
          issued.sessionId,
          await burst(instances, token),
        );
        token = winner.refreshToken;
        s.clock.advance(MINUTE);
      }
    });

    it('answers a retry within the reuse interval with 40007 and revokes nothing', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const first = await login(s, user.account);
      const second = await s.auth.refresh(first.refreshToken, TRACED);
      s.clock.advance(PAST_INTERVAL - 1);
      await expect(s.auth.refresh(first.refreshToken, TRACED)).rejects.toMatchObject(invalid);
      expect(await s.sessions.authenticate(second.accessToken)).not.toBeNull();
      expect(await statuses(first.sessionId)).toEqual([RefreshTokenStatus.Used, RefreshTokenStatus.Active]);
      // The tab that lost keeps going with the winner's token (shared storage) and the session lives on.
      const third = await s.auth.refresh(second.refreshToken, TRACED);
      expect(await s.sessions.authenticate(third.accessToken)).not.toBeNull();
      const rows = (await world().repos.loginLogs.page({ current: 1, size: 500 })).items;
      expect(rows.filter((r) => r.userId === user.id && r.resultCode === 40007)).toHaveLength(0);
    });

    it('revokes on reuse after the interval and writes a login-log row with account, user and trace id', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const first = await login(s, user.account);
      const second = await s.auth.refresh(first.refreshToken, CLIENT);
      s.clock.advance(PAST_INTERVAL);
      await expect(s.auth.refresh(first.refreshToken, TRACED)).rejects.toMatchObject(invalid);
      expect(await s.sessions.authenticate(second.accessToken)).toBeNull();
      await expect(s.auth.refresh(second.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      const rows = (await world().repos.loginLogs.page({ current: 1, size: 500 })).items;
      const events = rows.filter((r) => r.userId === user.id && r.resultCode === 40007);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        account: user.account,
        success: false,
        ip: TRACED.ip,
        userAgent: TRACED.userAgent,
        traceId: TRACED.traceId,
      });
    });

    it('with interval 0, revokes on any reuse, and a concurrent loser revokes the session (strict)', async () => {
      const s = buildServices(world(), { refreshReuseIntervalSeconds: 0 });
      const user = await createUser(world());
      const first = await login(s, user.account);
      await s.auth.refresh(first.refreshToken, CLIENT);
      await expect(s.auth.refresh(first.refreshToken, CLIENT)).rejects.toMatchObject(invalid);
      expect((await world().repos.sessions.findById(first.sessionId))?.revokeReason).toBe('refresh-reuse');

      const other = await login(s, user.account);
      const round = await burst([s], other.refreshToken);
      expect(round.winners.length).toBeLessThanOrEqual(1);
      expect((await world().repos.sessions.findById(other.sessionId))?.revokeReason).toBe('refresh-reuse');
      for (const w of round.winners) expect(await s.sessions.authenticate(w.accessToken)).toBeNull();
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
      expect(await s.auth.ownerOfRefreshToken('A'.repeat(43))).toBeUndefined();
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

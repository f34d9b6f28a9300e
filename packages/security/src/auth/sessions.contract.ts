/**
 * Contract: the per-request session check. Revocation (logout, forced, user disabled) is refused on the very
 * next request, also when a concurrent request tries to put a stale copy back; `Single` and `MaxConcurrent`
 * converge under concurrent logins; idle and absolute lifetimes end sessions on a pinned clock; the warm path
 * is served from the cache.
 */
import { RefreshTokenStatus } from '@svc/data';
import { expect, it } from 'vitest';
import { ACTIVITY_WRITE_INTERVAL_MS } from './constants.js';
import type { IssuedSession } from './contracts.js';
import {
  type AuthFixture,
  buildServices,
  CLIENT,
  createUser,
  describeAuth,
  PASSWORD,
  revokeRowBehindTheService,
} from './harness.contract.js';
import { recordLive, sessionKey, snapshotOf } from './session-state.js';

const MINUTE = 60_000;

export function sessionsContract(fixture: AuthFixture): void {
  describeAuth('sessions', fixture, (world) => {
    const login = (s: ReturnType<typeof buildServices>, account: string) =>
      s.auth.login({ account, password: PASSWORD, client: CLIENT });
    /**
     * Whether the session counts on this request. Every check also asks the synchronous answer first: where it
     * gives one, it must be the one the full check gives (the same rules, issue 16).
     */
    const live = async (s: ReturnType<typeof buildServices>, issued: IssuedSession) => {
      const now = s.sessions.authenticateNow?.(issued.accessToken);
      const full = await s.sessions.authenticate(issued.accessToken);
      if (now !== undefined) expect(now).toEqual(full);
      return full !== null;
    };

    it('answers the principal of a live session and null for anything else', async () => {
      const s = buildServices(world());
      const user = await createUser(world(), { orgId: 7 });
      const issued = await login(s, user.account);
      expect(await s.sessions.authenticate(issued.accessToken)).toEqual({
        kind: 'user',
        userId: user.id,
        account: user.account,
        sessionId: issued.sessionId,
        isSuperAdmin: false,
        orgId: 7,
      });
      expect(await s.sessions.authenticate('')).toBeNull();
      expect(await s.sessions.authenticate('not.a.token')).toBeNull();
      expect(await s.sessions.authenticate(`${issued.accessToken}x`)).toBeNull();

      // A token naming another user's session (only we could sign one) is refused, cold and warm.
      const other = await createUser(world());
      const forged = await s.tokens.issue(
        { sub: String(other.id), sid: issued.sessionId, sadm: true, org: null, unique_name: other.account },
        5,
      );
      expect(await s.sessions.authenticate(forged.token)).toBeNull();
      await world().cache.delete(sessionKey(issued.sessionId));
      expect(await s.sessions.authenticate(forged.token)).toBeNull();
      expect(await live(s, issued)).toBe(true);
    });

    it('answers a warm session at once on the memory cache, with the rules of the full check', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const issued = await login(s, user.account);
      const now = () => s.sessions.authenticateNow?.(issued.accessToken);
      expect(await live(s, issued)).toBe(true);
      // Refused outright without waiting, on any cache: malformed, or a signature that is not ours.
      expect(s.sessions.authenticateNow?.('not.a.token')).toBeNull();
      expect(s.sessions.authenticateNow?.(`${issued.accessToken}x`)).toBeNull();
      if (world().cache.sync === undefined) {
        // Redis: every read is a round trip, so the full check always runs.
        expect(now()).toBeUndefined();
        return;
      }
      const principal = await s.sessions.authenticate(issued.accessToken);
      expect(now()).toEqual(principal);
      // Due for its activity write: left to the full check, which writes it; then at once again.
      world().clock.advance(ACTIVITY_WRITE_INTERVAL_MS);
      expect(now()).toBeUndefined();
      expect(await live(s, issued)).toBe(true);
      expect(now()).toEqual(principal);
      // A copy missing from the cache is read from the row by the full check only.
      await world().cache.delete(sessionKey(issued.sessionId));
      expect(now()).toBeUndefined();
      expect(await live(s, issued)).toBe(true);
      // Logged out: refused at once.
      await s.auth.logout(principal!);
      expect(now()).toBeNull();
      expect(await live(s, issued)).toBe(false);
    });

    it('leaves a session with an idle timeout to the full check (it stamps the activity)', async () => {
      const s = buildServices(world(), { policy: { idleMinutesNormal: 30 } });
      const user = await createUser(world());
      const issued = await login(s, user.account);
      expect(await live(s, issued)).toBe(true);
      expect(s.sessions.authenticateNow?.(issued.accessToken)).toBeUndefined();
    });

    it('refuses a logged-out session on the very next request and revokes its refresh tokens', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const issued = await login(s, user.account);
      expect(await live(s, issued)).toBe(true); // warm: the copy is cached now
      await s.auth.logout((await s.sessions.authenticate(issued.accessToken))!);
      expect(await live(s, issued)).toBe(false);
      const row = await world().repos.sessions.findById(issued.sessionId);
      expect(row?.revokeReason).toBe('logout');
      const tokens = await world().repos.refreshTokens.listBySession(issued.sessionId);
      expect(tokens.map((t) => t.status)).toEqual([RefreshTokenStatus.Revoked]);
      await expect(s.auth.refresh(issued.refreshToken, CLIENT)).rejects.toMatchObject({ code: 40007 });
      // With the cache emptied the row still decides.
      await world().cache.delete(sessionKey(issued.sessionId));
      expect(await live(s, issued)).toBe(false);
    });

    it('revokes every session of a user at once (disable, delete), optionally but one', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const bystander = await createUser(world());
      const a = await login(s, user.account);
      const b = await login(s, user.account);
      const c = await login(s, user.account);
      const other = await login(s, bystander.account);
      for (const issued of [a, b, c, other]) expect(await live(s, issued)).toBe(true);

      expect(await s.manager.revokeUserSessions(user.id, 'forced', { exceptSessionId: c.sessionId })).toBe(2);
      expect([await live(s, a), await live(s, b), await live(s, c)]).toEqual([false, false, true]);
      expect(await s.manager.revokeUserSessions(user.id, 'user-disabled')).toBe(1);
      expect(await live(s, c)).toBe(false);
      expect(await live(s, other)).toBe(true);
      expect((await world().repos.sessions.findById(c.sessionId))?.revokeReason).toBe('user-disabled');
    });

    it('never serves a revoked session again when a concurrent request writes its stale copy afterwards', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const issued = await login(s, user.account);
      expect(await live(s, issued)).toBe(true);
      // A request read the live row just before the revocation…
      const row = await world().repos.sessions.findById(issued.sessionId);
      if (!row) throw new Error('no row');
      const stale = snapshotOf(row, {
        mode: 'Multi',
        maxConcurrent: 0,
        idleMinutesNormal: 0,
        idleMinutesMfa: 0,
        absoluteHours: 0,
      });
      await s.manager.revokeSession(issued.sessionId, 'forced');
      // …and writes its copy only after the revocation's tombstone: its own re-check catches it.
      const deps = { cache: world().cache, sessions: world().repos.sessions };
      expect(await recordLive(deps, issued.sessionId, stale, s.clock.now().getTime())).toBe(false);
      expect(await live(s, issued)).toBe(false);
    });

    it('serves the warm path from the cache and re-reads the row once the activity write is due', async () => {
      const s = buildServices(world());
      const user = await createUser(world());
      const issued = await login(s, user.account);
      expect(await live(s, issued)).toBe(true);
      // Revoked behind the service's back (no tombstone): the copy still answers for now…
      await revokeRowBehindTheService(world(), issued.sessionId, s.clock.now());
      expect(await live(s, issued)).toBe(true);
      // …and the next activity write (at most a minute later) finds the row revoked.
      s.clock.advance(MINUTE);
      expect(await live(s, issued)).toBe(false);
      expect(await live(s, issued)).toBe(false);
    });

    it('keeps only the newest session in Single mode, also under concurrent logins', async () => {
      const s = buildServices(world(), { policy: { mode: 'Single' } });
      const user = await createUser(world());
      const first = await login(s, user.account);
      const second = await login(s, user.account);
      expect([await live(s, first), await live(s, second)]).toEqual([false, true]);
      expect((await world().repos.sessions.findById(first.sessionId))?.revokeReason).toBe('single-session');

      const burst = await Promise.all(Array.from({ length: 5 }, () => login(s, user.account)));
      const remaining = await world().repos.sessions.listLive(user.id);
      expect(remaining).toHaveLength(1);
      const newest = [...burst].sort((x, y) => (x.sessionId < y.sessionId ? 1 : -1))[0];
      expect(remaining[0]?.id).toBe(newest?.sessionId);
      const alive = [];
      for (const issued of burst) alive.push(await live(s, issued));
      expect(alive.filter(Boolean)).toHaveLength(1);
    });

    it('trims to MaxConcurrent newest sessions, also under concurrent logins', async () => {
      // Six parallel logins of one account: above the default MaxFailCount (5), the lock would refuse the
      // sixth before its hash (at most MaxFailCount checks run at once per account), so it is raised here.
      const s = buildServices(world(), {
        policy: { maxConcurrent: 2 },
        runtime: { 'sys.security.loginLock.maxFailCount': '10' },
      });
      const user = await createUser(world());
      const a = await login(s, user.account);
      const b = await login(s, user.account);
      const c = await login(s, user.account);
      expect([await live(s, a), await live(s, b), await live(s, c)]).toEqual([false, true, true]);

      const burst = await Promise.all(Array.from({ length: 6 }, () => login(s, user.account)));
      const remaining = (await world().repos.sessions.listLive(user.id)).map((r) => r.id);
      const newestTwo = burst
        .map((i) => i.sessionId)
        .sort()
        .reverse()
        .slice(0, 2);
      expect(remaining).toEqual(newestTwo);
      expect(await live(s, c)).toBe(false);
    });

    it('ends idle sessions by their kind, measuring activity from the latest request', async () => {
      const s = buildServices(world(), { policy: { idleMinutesNormal: 1, idleMinutesMfa: 3 } });
      const user = await createUser(world());
      const normal = await login(s, user.account);
      const mfa = await s.auth.openSession(user, CLIENT, { isMfa: true });
      // Requests every 50 s keep a 1-minute session alive, although the row is written only once a minute.
      for (let i = 0; i < 4; i++) {
        expect(await live(s, normal)).toBe(true);
        s.clock.advance(50_000);
      }
      expect(await live(s, normal)).toBe(true);
      s.clock.advance(MINUTE);
      expect(await live(s, normal)).toBe(false);
      expect((await world().repos.sessions.findById(normal.sessionId))?.revokeReason).toBe('idle');
      await expect(s.auth.refresh(normal.refreshToken, CLIENT)).rejects.toMatchObject({ code: 40007 });

      // The second-factor session has its own timeout: 4 minutes 20 seconds of silence end it.
      expect(await live(s, mfa)).toBe(false);
      const mfa2 = await s.auth.openSession(user, CLIENT, { isMfa: true });
      s.clock.advance(2 * MINUTE + 50_000);
      expect(await live(s, mfa2)).toBe(true);
      s.clock.advance(3 * MINUTE);
      expect(await live(s, mfa2)).toBe(false);
    });

    it('ends sessions at their absolute lifetime however active they are', async () => {
      const s = buildServices(world(), {
        policy: { absoluteHours: 1 },
        runtime: { 'sys.security.session.accessMinutes': '240' },
      });
      const user = await createUser(world());
      const issued = await login(s, user.account);
      const row = await world().repos.sessions.findById(issued.sessionId);
      expect(row?.absoluteExpiresAt?.getTime()).toBe(s.clock.now().getTime() + 60 * MINUTE);
      for (let i = 0; i < 59; i++) {
        expect(await live(s, issued)).toBe(true);
        s.clock.advance(MINUTE);
      }
      expect(await live(s, issued)).toBe(true);
      s.clock.advance(MINUTE);
      expect(await live(s, issued)).toBe(false);
      expect((await world().repos.sessions.findById(issued.sessionId))?.revokeReason).toBe('absolute');
      await expect(s.auth.refresh(issued.refreshToken, CLIENT)).rejects.toMatchObject({ code: 40007 });

      // Lowering AbsoluteHours later also shortens a session created under a longer setting.
      const longer = buildServices(world(), { policy: { absoluteHours: 5 } });
      const kept = await login(longer, user.account);
      const shorter = buildServices(world(), { policy: { absoluteHours: 1 } });
      s.clock.advance(61 * MINUTE);
      expect(await live(longer, kept)).toBe(true);
      await world().cache.delete(sessionKey(kept.sessionId));
      expect(await live(shorter, kept)).toBe(false);
    });
  });
}

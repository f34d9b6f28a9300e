import { createMemoryCache } from '@svc/data/cache';
import { describe, expect, it } from 'vitest';
import { createSessionManager, type SessionsEndedEvent } from './session-manager.js';
import type { SessionDeps } from './session-state.js';

/** A session manager over fakes: `revoked` answers whether the single revoke changed a row. */
function manager(options: { revoked: boolean; userSessions: string[] }) {
  const deps = {
    sessions: {
      revoke: async () => options.revoked,
      revokeAllOfUser: async () => options.userSessions,
      trimToNewest: async () => options.userSessions.slice(1),
    },
    refreshTokens: { revokeAllOfSessions: async () => 0 },
    cache: createMemoryCache(),
    policy: { mode: 'Single', maxConcurrent: 0 },
    now: () => new Date(),
  } as unknown as SessionDeps;
  return createSessionManager(deps);
}

describe('SessionManager.onSessionsEnded', () => {
  it('tells listeners of every path that ended sessions, with ids, user and reason', async () => {
    const m = manager({ revoked: true, userSessions: ['s1', 's2'] });
    const events: SessionsEndedEvent[] = [];
    m.onSessionsEnded((e) => events.push(e));
    await m.revokeSession('s9', 'forced');
    await m.revokeUserSessions(7, 'user-disabled');
    await m.enforceLimit(7);
    expect(events).toEqual([
      { sessionIds: ['s9'], reason: 'forced' },
      { sessionIds: ['s1', 's2'], userId: 7, reason: 'user-disabled' },
      { sessionIds: ['s2'], userId: 7, reason: 'single-session' },
    ]);
  });

  it('is silent when nothing ended, survives a throwing listener and can be removed', async () => {
    const m = manager({ revoked: false, userSessions: [] });
    const events: SessionsEndedEvent[] = [];
    m.onSessionsEnded(() => {
      throw new Error('listener failure');
    });
    const stop = m.onSessionsEnded((e) => events.push(e));
    await expect(m.revokeSession('gone', 'logout')).resolves.toBe(false);
    await expect(m.revokeUserSessions(3, 'password-change')).resolves.toBe(0);
    expect(events).toEqual([]);

    const live = manager({ revoked: true, userSessions: ['a'] });
    live.onSessionsEnded(() => {
      throw new Error('listener failure');
    });
    const seen: SessionsEndedEvent[] = [];
    const off = live.onSessionsEnded((e) => seen.push(e));
    await expect(live.revokeSession('a', 'logout')).resolves.toBe(true);
    off();
    await live.revokeSession('a', 'logout');
    expect(seen).toHaveLength(1);
    stop();
  });
});

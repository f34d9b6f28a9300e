/**
 * Session liveness shared by the authenticator, the session manager and the refresh flow: the session policy,
 * the cache copy of a session and the two rules that keep that copy honest.
 *
 * 1. Revokers write the database first, then replace the copy with a tombstone. (A plain delete would be
 *    as correct, given rule 2; the tombstone also lets a replayed token of a revoked session cost one cache
 *    read instead of a database read.)
 * 2. Whoever writes a live copy writes it first and then re-checks the row with a conditional update
 *    (`touch … WHERE revoked_at IS NULL`); when that changes nothing the session was revoked meanwhile and the
 *    writer puts the tombstone back itself. The row serialises the re-check and the revocation: either the
 *    re-check came first, and then so did the live copy, which the revoker's tombstone overwrites; or the
 *    re-check sees the revocation. A request that read the row just before a revocation therefore cannot put
 *    its stale copy back, and a revoked session is refused from the very next request on.
 */
import type { RefreshTokenRepository, SessionRepository, SysSessionRow } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import type { ServiceOptions } from '@svc/kernel';
import {
  SESSION_ACTIVITY_KEY_PREFIX,
  SESSION_CACHE_TTL_MS,
  SESSION_KEY_PREFIX,
  SESSION_TOMBSTONE_TTL_MS,
} from './constants.js';

/** `Service:Security:Session:*`: how many sessions a user may hold and how long they live. */
export interface SessionPolicy {
  /** `Single` revokes the user's older sessions at each login. @default 'Multi' */
  mode: 'Multi' | 'Single';
  /** Newest sessions kept per user; 0 = unlimited. Ignored in `Single` mode (which keeps one). @default 0 */
  maxConcurrent: number;
  /** Idle timeout of a password session in minutes; 0 = off. @default 0 */
  idleMinutesNormal: number;
  /** Idle timeout of a session opened with a second factor in minutes; 0 = off. @default 0 */
  idleMinutesMfa: number;
  /** Absolute session lifetime in hours; 0 = off. @default 0 */
  absoluteHours: number;
}

/** The policy of the parsed options. */
export function sessionPolicyFromOptions(options: ServiceOptions): SessionPolicy {
  const s = options.Security.Session;
  return {
    mode: s.Mode,
    maxConcurrent: s.MaxConcurrent,
    idleMinutesNormal: s.IdleMinutesNormal,
    idleMinutesMfa: s.IdleMinutesMfa,
    absoluteHours: s.AbsoluteHours,
  };
}

/** What the session services share. */
export interface SessionDeps {
  sessions: SessionRepository;
  refreshTokens: RefreshTokenRepository;
  /** Holds session copies, tombstones and activity stamps; with Redis every instance shares them. */
  cache: Cache;
  policy: SessionPolicy;
  /** The clock of every expiry decision. */
  now: () => Date;
}

/** Why a session ended by itself. */
export type SessionExpiry = 'idle' | 'absolute';

/** The cache copy of a live session (JSON: numbers are epoch milliseconds). */
export interface SessionSnapshot {
  uid: number;
  mfa: boolean;
  /** Absolute end, or null. */
  abs: number | null;
  /** Last activity written to the row. */
  seen: number;
}

/** The cache entry of a revoked session. */
export interface SessionTombstone {
  revoked: true;
}

export type SessionCacheEntry = SessionSnapshot | SessionTombstone;

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

export const sessionKey = (sessionId: string) => `${SESSION_KEY_PREFIX}${sessionId}`;
export const activityKey = (sessionId: string) => `${SESSION_ACTIVITY_KEY_PREFIX}${sessionId}`;

export function isTombstone(entry: SessionCacheEntry): entry is SessionTombstone {
  return (entry as SessionTombstone).revoked === true;
}

/** Idle timeout in milliseconds for a session of this kind; 0 = off. */
export function idleMs(policy: SessionPolicy, isMfa: boolean): number {
  return (isMfa ? policy.idleMinutesMfa : policy.idleMinutesNormal) * MS_PER_MINUTE;
}

/**
 * The copy of a row. The absolute end is the earlier of the one stored at login and the one the current
 * `AbsoluteHours` gives from the create time, so lowering the setting also shortens existing sessions.
 */
export function snapshotOf(row: SysSessionRow, policy: SessionPolicy): SessionSnapshot {
  const ends: number[] = [];
  if (row.absoluteExpiresAt) ends.push(row.absoluteExpiresAt.getTime());
  if (policy.absoluteHours > 0) ends.push(row.createTime.getTime() + policy.absoluteHours * MS_PER_HOUR);
  return {
    uid: row.userId,
    mfa: row.isMfa,
    abs: ends.length > 0 ? Math.min(...ends) : null,
    seen: row.lastActivityTime.getTime(),
  };
}

/**
 * Whether the session has ended by itself at `nowMs`. The activity stamp is read only when the row's own
 * last activity is already older than the idle timeout, so an active session costs no extra read.
 */
export async function expiryOf(
  deps: Pick<SessionDeps, 'cache' | 'policy'>,
  sessionId: string,
  snapshot: SessionSnapshot,
  nowMs: number,
): Promise<SessionExpiry | null> {
  if (snapshot.abs !== null && nowMs >= snapshot.abs) return 'absolute';
  const idle = idleMs(deps.policy, snapshot.mfa);
  if (idle > 0 && nowMs - snapshot.seen >= idle) {
    const stamp = await deps.cache.get<number>(activityKey(sessionId));
    const last = Math.max(snapshot.seen, typeof stamp === 'number' ? stamp : 0);
    if (nowMs - last >= idle) return 'idle';
  }
  return null;
}

/**
 * The synchronous part of {@link expiryOf}: false when it would answer null without reading anything (before
 * the absolute end, and within the idle timeout by the copy's own activity), which is most requests.
 */
export function mayHaveEnded(policy: SessionPolicy, snapshot: SessionSnapshot, nowMs: number): boolean {
  if (snapshot.abs !== null && nowMs >= snapshot.abs) return true;
  const idle = idleMs(policy, snapshot.mfa);
  return idle > 0 && nowMs - snapshot.seen >= idle;
}

/** Records a request's activity in the cache (only while the session has an idle timeout). */
export async function stampActivity(
  deps: Pick<SessionDeps, 'cache' | 'policy'>,
  sessionId: string,
  isMfa: boolean,
  nowMs: number,
): Promise<void> {
  const idle = idleMs(deps.policy, isMfa);
  // Outliving the idle timeout by a write interval is enough: an older stamp could only prove idleness.
  if (idle > 0) await deps.cache.set(activityKey(sessionId), nowMs, idle + SESSION_CACHE_TTL_MS);
}

/** Remembers a revoked session (rule 1). */
export async function writeTombstone(cache: Cache, sessionId: string): Promise<void> {
  const tombstone: SessionTombstone = { revoked: true };
  await cache.set(sessionKey(sessionId), tombstone, SESSION_TOMBSTONE_TTL_MS);
}

/**
 * Writes a live copy with `seen = nowMs`, then records the activity on the row only while the session is
 * still live (rule 2). False when the session was revoked meanwhile; the tombstone is then back in place.
 */
export async function recordLive(
  deps: Pick<SessionDeps, 'cache' | 'sessions'>,
  sessionId: string,
  snapshot: SessionSnapshot,
  nowMs: number,
): Promise<boolean> {
  const copy: SessionSnapshot = { ...snapshot, seen: nowMs };
  const ttl = copy.abs === null ? SESSION_CACHE_TTL_MS : Math.min(SESSION_CACHE_TTL_MS, copy.abs - nowMs);
  if (ttl > 0) await deps.cache.set(sessionKey(sessionId), copy, ttl);
  if (await deps.sessions.touch(sessionId, new Date(nowMs))) return true;
  await writeTombstone(deps.cache, sessionId);
  return false;
}

/**
 * Completes a revocation already written to `sys_session`: the sessions' refresh tokens → `Revoked`, then
 * their cache copies → tombstones (rule 1).
 */
export async function afterRevocation(
  deps: Pick<SessionDeps, 'cache' | 'refreshTokens'>,
  sessionIds: readonly string[],
): Promise<void> {
  if (sessionIds.length === 0) return;
  await deps.refreshTokens.revokeAllOfSessions(sessionIds);
  await Promise.all(sessionIds.map((id) => writeTombstone(deps.cache, id)));
}

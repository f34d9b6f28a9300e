/**
 * Fixed parameters of sessions, rotation and the permission cache, each with its reason. What the spec makes
 * configurable (idle and absolute lifetimes, session mode, lifetimes of tokens) lives in the options instead.
 */

/**
 * Lifetime of a live session's cache copy. Revocations through the service take effect at once whatever this
 * is (they overwrite the copy); the TTL bounds only how long a change made behind the service's back (an
 * operator editing `sys_session` by hand) can go unseen, and it is also how often an active session's row is
 * read again.
 */
export const SESSION_CACHE_TTL_MS = 60_000;

/**
 * How long a revoked session is remembered in the cache, so a replayed token of a revoked session costs one
 * cache read instead of a database read. Access tokens live up to hours, so a replay after this only costs one
 * database read and then is remembered again.
 */
export const SESSION_TOMBSTONE_TTL_MS = 15 * 60_000;

/**
 * Last activity is written to `sys_session` at most this often per session: often enough for the online
 * session list and for idle timeouts measured in minutes (the precise activity lives in the cache), rarely
 * enough that the hot path does not write the database on every request.
 */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

/**
 * Default of `Service:Security:Session:RefreshReuseIntervalSeconds` (contract §10): long enough for two tabs
 * or a client retry racing one rotation, short enough that a stolen, already rotated token is replay almost at
 * once. The same kind of grace period OAuth servers offer for refresh-token rotation (e.g. Auth0's "reuse
 * interval", Okta's "grace period").
 */
export const DEFAULT_REFRESH_REUSE_INTERVAL_SECONDS = 5;

/** Cache-key prefix of session copies and tombstones (`sess:<sid>`). */
export const SESSION_KEY_PREFIX = 'sess:';

/** Cache-key prefix of the latest activity per session (`sess:act:<sid>`), kept while idle timeouts are on. */
export const SESSION_ACTIVITY_KEY_PREFIX = 'sess:act:';

/** Global generation counter of the permission cache; bumping it invalidates every user's entry. */
export const PERMISSION_GENERATION_KEY = 'perm:gen';

/** Cache-key prefix of per-user permission generations (`perm:ugen:<userId>`). */
export const PERMISSION_USER_GENERATION_PREFIX = 'perm:ugen:';

/** Cache-key prefix of cached permission codes (`perm:u:<userId>`). */
export const PERMISSION_KEY_PREFIX = 'perm:u:';

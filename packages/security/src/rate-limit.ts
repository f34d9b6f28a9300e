/**
 * Fixed-window rate limiting over the cache port (spec "Rate limiting"): one atomic counter per bucket whose
 * expiry is set when the window's first request creates it, so every instance sharing a Redis cache counts
 * together. Buckets: per client IP, a stricter one for `/api/v1/auth/*`, and one per API key (partitioned by
 * a hash of the key, never the key itself) for every path but the auth ones.
 */
import type { Cache } from '@svc/data/cache';
import { sha256Hex } from '@svc/kernel';
import { ipPartition } from './client-ip.js';
import { MIN_RETRY_AFTER_SECONDS, RATE_LIMIT_KEY_PREFIX } from './constants.js';

/** A limit: `permit` requests per window of `windowSeconds`. */
export interface RateLimitRule {
  permit: number;
  windowSeconds: number;
}

/** The answer for one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** 0 when allowed; otherwise whole seconds until the window ends, at least 1 (`Retry-After`). */
  retryAfterSeconds: number;
  /**
   * True for the first refused request of the bucket's window (across every instance sharing the cache): the
   * one refusal worth a warning; the others are only counted.
   */
  firstRefusal: boolean;
}

/** What the limiter counted in this process. */
export interface RateLimitStats {
  /** Refused requests since start (every bucket); a monitor or a metrics hook reads it. */
  refused: number;
}

/** Dependencies of {@link createRateLimiter}. The clock is the cache's: the window is the counter's TTL. */
export interface RateLimiterDeps {
  cache: Cache;
}

/** The limiter. */
export interface RateLimiter {
  /** Counts one request against `bucket` and decides it. */
  hit(bucket: string, rule: RateLimitRule): Promise<RateLimitDecision>;
  /**
   * {@link RateLimiter.hit} without a promise, present when the cache counts without I/O (the memory
   * provider): the request path then decides in the same turn. Counts and decides exactly as `hit`.
   */
  readonly hitNow?: (bucket: string, rule: RateLimitRule) => RateLimitDecision;
  /** The counters of this process (a copy). */
  stats(): RateLimitStats;
}

/**
 * Creates a fixed-window limiter.
 * @example
 * const limiter = createRateLimiter({ cache });
 * const d = await limiter.hit(ipBucket(ip, false), { permit: 300, windowSeconds: 60 });
 * if (!d.allowed) throw new BusinessError(ErrorCode.TooManyRequests, { retryAfterSeconds: d.retryAfterSeconds });
 */
export function createRateLimiter(deps: RateLimiterDeps): RateLimiter {
  const { cache } = deps;
  let refused = 0;

  function checked(rule: RateLimitRule): number {
    const { permit, windowSeconds } = rule;
    if (!Number.isSafeInteger(permit) || permit < 1)
      throw new RangeError(`permit must be >= 1, got ${permit}`);
    if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) {
      throw new RangeError(`windowSeconds must be positive, got ${windowSeconds}`);
    }
    return Math.ceil(windowSeconds * 1000);
  }

  /** The decision for the window's `count`-th request; `ttl` is read only for a refusal. */
  function decide(
    count: number,
    permit: number,
    windowMs: number,
    ttl: () => number | undefined,
  ): RateLimitDecision {
    if (count <= permit)
      return { allowed: true, remaining: permit - count, retryAfterSeconds: 0, firstRefusal: false };
    refused++;
    // The port gives a counter without expiry one at this increment, so the TTL is finite here; undefined
    // means the window closed in between (retry at once, after the 1 s floor).
    const left = ttl();
    const ms = left === undefined ? 0 : Number.isFinite(left) ? left : windowMs;
    return {
      allowed: false,
      remaining: 0,
      retryAfterSeconds: Math.max(MIN_RETRY_AFTER_SECONDS, Math.ceil(ms / 1000)),
      // The counter is atomic, so exactly one request of the window sees permit + 1.
      firstRefusal: count === permit + 1,
    };
  }

  const counters = cache.syncCounters;
  const limiter: RateLimiter = {
    stats: () => ({ refused }),
    async hit(bucket, rule) {
      const windowMs = checked(rule);
      const key = RATE_LIMIT_KEY_PREFIX + bucket;
      // No slide: the TTL is set only by the increment that creates the counter, which fixes the window.
      const count = await cache.increment(key, { ttlMs: windowMs });
      const ttl = count > rule.permit ? await cache.ttlMs(key) : undefined;
      return decide(count, rule.permit, windowMs, () => ttl);
    },
    ...(counters
      ? {
          hitNow(bucket: string, rule: RateLimitRule): RateLimitDecision {
            const windowMs = checked(rule);
            const key = RATE_LIMIT_KEY_PREFIX + bucket;
            const count = counters.increment(key, { ttlMs: windowMs });
            return decide(count, rule.permit, windowMs, () => counters.ttlMs(key));
          },
        }
      : {}),
  };
  if (limiter.hitNow) SYNC_PAIRS.set(limiter.hitNow, limiter.hit);
  return limiter;
}

/** Each `hitNow` with the `hit` it counts alike. */
const SYNC_PAIRS = new WeakMap<object, RateLimiter['hit']>();

/**
 * The limiter's `hitNow` when it still belongs with its `hit`: a limiter made from another (`{ ...limiter, hit }`)
 * whose `hit` was replaced has none, so the request path always goes through the replacement.
 */
export function hitNowOf(limiter: RateLimiter): RateLimiter['hitNow'] {
  const now = limiter.hitNow;
  return now && SYNC_PAIRS.get(now) === limiter.hit ? now : undefined;
}

/**
 * The bucket of a client address: the general one, or the stricter one for `/api/v1/auth/*`. IPv6 clients
 * are grouped by their /64, the block one subscriber normally holds, so rotating addresses inside it does
 * not buy fresh buckets.
 */
export function ipBucket(ip: string, isAuthPath: boolean): string {
  return `${isAuthPath ? 'auth' : 'ip'}:${remembered(partitions, ip, ipPartition)}`;
}

/**
 * Answers of the pure functions a bucket is chosen by, per input (a request's client address and path repeat
 * from request to request): at most {@link MEMO_MAX} each, emptied when full, so odd inputs cannot grow them.
 */
const MEMO_MAX = 1024;
const partitions = new Map<string, string>();
const authPaths = new Map<string, boolean>();

function remembered<T>(memo: Map<string, T>, input: string, compute: (input: string) => T): T {
  let answer = memo.get(input);
  if (answer === undefined) {
    answer = compute(input);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(input, answer);
  }
  return answer;
}

/**
 * The bucket of an API key: a SHA-256 of the key, so neither the cache nor its keys ever hold the secret.
 * Use it only for a key the validator accepted; an unknown key must be counted by IP, or every random header
 * value would open a fresh bucket.
 */
export function apiKeyBucket(key: string): string {
  return `key:${sha256Hex(key)}`;
}

/**
 * The signed-in routes that accept a password (issue 9: every password door has the same lock and the same
 * rate limit): they count on the stricter bucket like `/api/v1/auth/*`.
 */
const PASSWORD_DOOR_PATHS: ReadonlySet<string> = new Set([
  '/api/v1/personal/password',
  '/api/v1/personal/phone',
  '/api/v1/personal/phone/code',
]);

/**
 * Whether a request path takes the stricter bucket: `/api/v1/auth/*` and the signed-in password doors.
 * Compared after percent-decoding and case folding, so `/api/v1/%61uth/login` or `/API/v1/auth/login` cannot
 * reach a login route through the looser bucket.
 */
export function isAuthPath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed escapes: judge the raw text.
  }
  const p = decoded
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/$/, '');
  return p === '/api/v1/auth' || p.startsWith('/api/v1/auth/') || PASSWORD_DOOR_PATHS.has(p);
}

/** Rate-limit settings in effect (see `createRuntimeSettings().rateLimit()`). */
export interface RateLimitSettings {
  /** False when the deploy switch or the runtime key turns limiting off. @default true */
  enabled: boolean;
  /** @default 60 */
  windowSeconds: number;
  /** Requests per client IP per window. @default 300 */
  permitPerWindow: number;
  /** Requests per client IP per window on `/api/v1/auth/*`. @default 20 */
  authPermitPerWindow: number;
  /** Requests per API key per window; <= 0 = unlimited. @default 600 */
  keyPermitPerWindow: number;
}

/** What a request is counted against. */
export interface RateLimitTarget {
  bucket: string;
  rule: RateLimitRule;
}

/**
 * Picks the bucket and limit of one request, or null when it is not limited (limiting off, or an API key with
 * an unlimited key permit). An auth path always takes the client IP's auth bucket, also with a valid key: the
 * key's (looser) bucket there would let any key holder guess passwords at the key's rate.
 * @param input.apiKey a key the validator accepted; leave it undefined for an unknown key.
 */
export function rateLimitTarget(input: {
  clientIp: string;
  path: string;
  apiKey?: string | undefined;
  settings: RateLimitSettings;
}): RateLimitTarget | null {
  const { settings } = input;
  if (!settings.enabled) return null;
  const windowSeconds = settings.windowSeconds;
  const auth = remembered(authPaths, input.path, isAuthPath);
  if (input.apiKey !== undefined && !auth) {
    if (settings.keyPermitPerWindow <= 0) return null;
    return {
      bucket: apiKeyBucket(input.apiKey),
      rule: { permit: settings.keyPermitPerWindow, windowSeconds },
    };
  }
  const permit = auth ? settings.authPermitPerWindow : settings.permitPerWindow;
  return { bucket: ipBucket(input.clientIp, auth), rule: { permit, windowSeconds } };
}

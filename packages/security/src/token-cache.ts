/**
 * A bounded cache of verified access tokens, keyed by the token text. It saves only the signature and claim
 * checks: an entry lives until the token's `exp` plus the clock skew, never longer, and session revocation is
 * still checked by the caller on every request (a revoked session's token stays "verified" here, which is
 * correct: verification says who signed it, the session lookup says whether it still counts).
 */
import type { AccessClaims } from './claims.js';
import { CLOCK_SKEW_SECONDS, VERIFIED_TOKEN_CACHE_MAX } from './constants.js';

/** Options of {@link createVerifiedTokenCache}. */
export interface VerifiedTokenCacheOptions {
  /**
   * Most entries kept; beyond it the least recently used is evicted.
   * @default 10000 (`VERIFIED_TOKEN_CACHE_MAX`)
   */
  max?: number;
  /**
   * Seconds an entry outlives the token's `exp`, matching the verifier's tolerance.
   * @default 30 (`CLOCK_SKEW_SECONDS`)
   */
  skewSeconds?: number;
  /**
   * Clock in epoch milliseconds.
   * @default Date.now
   */
  now?: () => number;
}

/** The cache; the access-token verifier reads and fills it. */
export interface VerifiedTokenCache {
  /** The claims of a token verified earlier and not yet expired (marks it recently used). */
  get(token: string): AccessClaims | undefined;
  /** Remembers a token that has just been verified; an already expired one is not stored. */
  set(token: string, claims: AccessClaims): void;
  /** Forgets every entry (for example after the signing key changed). */
  clear(): void;
  /** Number of entries held, expired ones not yet swept included. */
  readonly size: number;
}

interface Entry {
  claims: AccessClaims;
  validUntilMs: number;
  /** The insertion count when the entry was (re)inserted. */
  at: number;
}

/**
 * Creates an LRU cache of verified tokens.
 * @example
 * const cache = createVerifiedTokenCache({ max: 5000 });
 * const tokens = createAccessTokens({ key, issuer: 'Service', cache });
 */
export function createVerifiedTokenCache(options: VerifiedTokenCacheOptions = {}): VerifiedTokenCache {
  const max = options.max ?? VERIFIED_TOKEN_CACHE_MAX;
  const skewMs = (options.skewSeconds ?? CLOCK_SKEW_SECONDS) * 1000;
  const now = options.now ?? Date.now;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new RangeError(`max must be a positive integer, got ${max}`);
  if (!Number.isFinite(skewMs) || skewMs < 0)
    throw new RangeError('skewSeconds must be a non-negative number');
  // A Map iterates in insertion order: re-inserting a hit moves it to the recent end, and the first key is the
  // least recent. A hit is re-inserted only once a quarter of the capacity was inserted after it: a token in
  // use costs one lookup per request, and it is moved back long before it could reach the eviction end.
  const entries = new Map<string, Entry>();
  const refreshAfter = max / 4;
  let inserted = 0;

  return {
    get(token) {
      const entry = entries.get(token);
      if (entry === undefined) return undefined;
      if (now() >= entry.validUntilMs) {
        entries.delete(token);
        return undefined;
      }
      if (inserted - entry.at > refreshAfter) {
        entries.delete(token);
        entry.at = ++inserted;
        entries.set(token, entry);
      }
      return entry.claims;
    },
    set(token, claims) {
      const validUntilMs = claims.exp * 1000 + skewMs;
      entries.delete(token);
      if (now() >= validUntilMs) return;
      entries.set(token, { claims, validUntilMs, at: ++inserted });
      while (entries.size > max) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        entries.delete(oldest.value);
      }
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

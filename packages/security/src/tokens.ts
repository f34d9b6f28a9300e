/**
 * Access tokens: HS256 JWTs carrying the spec's claims (`sub`, `sid`, `sadm`, `org`, `unique_name`) plus
 * `iss`, `iat`, `exp`. Verification pins the algorithm, checks the issuer (never the audience, per the spec),
 * tolerates 30 s of clock skew on the injected clock, and insists on every claim with its exact type. A
 * bounded cache of verified tokens saves the work for tokens seen before; it never replaces the caller's
 * per-request session check.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { JWT_MIN_SECRET_BYTES } from '@svc/kernel';
import { jwtVerify, SignJWT } from 'jose';
import { type AccessClaims, type AccessTokenClaims, isAccessTokenClaims, toAccessClaims } from './claims.js';
import { ACCESS_TOKEN_ALGORITHM, ACCESS_TOKEN_MAX_LENGTH, CLOCK_SKEW_SECONDS } from './constants.js';
import { createVerifiedTokenCache, type VerifiedTokenCache } from './token-cache.js';

/** Options of {@link createAccessTokens}. */
export interface AccessTokensOptions {
  /** HS256 signing key, at least 32 bytes (the resolved `Service:Jwt:SecretKey`). */
  key: Uint8Array;
  /** Written as `iss` and required on verification (`Service:Jwt:Issuer`). */
  issuer: string;
  /**
   * Clock in epoch milliseconds, used for `iat`/`exp` and for every expiry check.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Cache of verified tokens; `false` verifies every token from scratch.
   * @default createVerifiedTokenCache({ now }) (10,000 entries, on the same clock)
   */
  cache?: VerifiedTokenCache | false;
}

/** A freshly signed access token. */
export interface IssuedAccessToken {
  token: string;
  /** The token's `exp` as a date (whole seconds). */
  expiresAt: Date;
}

/** Issues and verifies access tokens. */
export interface AccessTokens {
  /** Signs a token for `claims`, valid for `lifetimeMinutes` from now. */
  issue(claims: AccessTokenClaims, lifetimeMinutes: number): Promise<IssuedAccessToken>;
  /**
   * The token's claims when it is ours, untampered, unexpired (30 s skew) and complete; otherwise null.
   * Never throws for any input: a token is attacker-controlled text.
   */
  verify(token: string): Promise<AccessClaims | null>;
  /**
   * What {@link AccessTokens.verify} can answer without waiting: the claims of a token verified earlier, null for
   * a token it refuses outright (malformed, too long, wrong signature), undefined when the full verification must
   * run. Never throws.
   */
  verifyNow(token: string): AccessClaims | null | undefined;
}

/** Claims every accepted token must carry, beside `iss` (required by the issuer check). */
const REQUIRED_CLAIMS = ['sub', 'sid', 'sadm', 'org', 'unique_name', 'iat', 'exp'];

/** Three non-empty base64url segments: the JWS compact serialization, nothing around it. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Whether `text` from `start` to its end is `expected`, in time independent of where they differ (both are
 * ASCII: `expected` is base64url, and the caller checked `text` against COMPACT_JWS). No buffers: decoding the
 * presented signature cost as much as the comparison it served.
 */
function sameText(expected: string, text: string, start: number): boolean {
  if (text.length - start !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ text.charCodeAt(start + i);
  return diff === 0;
}

/**
 * Creates the access-token issuer and verifier.
 * @example
 * const tokens = createAccessTokens({ key: resolved.key, issuer: options.Jwt.Issuer });
 * const { token, expiresAt } = await tokens.issue({ sub: '1', sid, sadm: true, org: null, unique_name: 'admin' }, 120);
 * const claims = await tokens.verify(token); // AccessClaims | null
 */
export function createAccessTokens(options: AccessTokensOptions): AccessTokens {
  if (!(options.key instanceof Uint8Array) || options.key.byteLength < JWT_MIN_SECRET_BYTES) {
    throw new RangeError(`The access-token key must be at least ${JWT_MIN_SECRET_BYTES} bytes.`);
  }
  if (typeof options.issuer !== 'string' || options.issuer.length === 0) {
    throw new RangeError('The access-token issuer must be a non-empty string.');
  }
  const issuer = options.issuer;
  const now = options.now ?? Date.now;
  const cache = options.cache === false ? undefined : (options.cache ?? createVerifiedTokenCache({ now }));
  // A KeyObject (copied, so later changes to the caller's array cannot alter it): jose caches the CryptoKey it
  // derives from one per algorithm, where a raw Uint8Array would be imported again on every call.
  const key: KeyObject = createSecretKey(Buffer.from(options.key));
  // The pre-check HMACs with raw bytes: building an HMAC from a KeyObject costs more per call.
  const rawKey = Buffer.from(options.key);

  /**
   * Cheap first gate: an HMAC-SHA256 over the signing input with node:crypto (about 2 µs) refuses forged,
   * edited, `none` and other-algorithm tokens before jose's asynchronous WebCrypto path runs. It only ever
   * refuses; jose's full verification below still decides every token it lets through. The signature must
   * also be the canonical base64url of the MAC (no padding, whitespace or spare bits): it is compared as text
   * with the MAC's own base64url, so one token has exactly one accepted spelling, which keeps the
   * verified-token cache keyed by the one real token text.
   */
  function signatureMatches(token: string): boolean {
    if (!COMPACT_JWS.test(token)) return false;
    const lastDot = token.lastIndexOf('.');
    const expected = createHmac('sha256', rawKey).update(token.slice(0, lastDot)).digest('base64url');
    return sameText(expected, token, lastDot + 1);
  }

  function verifyNow(token: string): AccessClaims | null | undefined {
    if (typeof token !== 'string' || token.length === 0 || token.length > ACCESS_TOKEN_MAX_LENGTH)
      return null;
    const cached = cache?.get(token);
    if (cached !== undefined) return cached;
    return signatureMatches(token) ? undefined : null;
  }

  return {
    async issue(claims, lifetimeMinutes) {
      if (!isAccessTokenClaims(claims))
        throw new TypeError('Access-token claims are incomplete or mistyped.');
      if (!Number.isFinite(lifetimeMinutes) || lifetimeMinutes <= 0) {
        throw new RangeError(`lifetimeMinutes must be a positive number, got ${lifetimeMinutes}`);
      }
      const iat = Math.floor(now() / 1000);
      const exp = iat + Math.max(1, Math.round(lifetimeMinutes * 60));
      const { sub, sid, sadm, org, unique_name } = claims;
      const token = await new SignJWT({ sid, sadm, org, unique_name })
        .setProtectedHeader({ alg: ACCESS_TOKEN_ALGORITHM, typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      // Just signed by us: the first request carrying it can skip verification.
      cache?.set(token, Object.freeze({ sub, sid, sadm, org, unique_name, iss: issuer, iat, exp }));
      return { token, expiresAt: new Date(exp * 1000) };
    },

    verifyNow,

    async verify(token) {
      const known = verifyNow(token);
      if (known !== undefined) return known;
      const at = now();
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, key, {
          algorithms: [ACCESS_TOKEN_ALGORITHM],
          issuer,
          clockTolerance: CLOCK_SKEW_SECONDS,
          currentDate: new Date(at),
          requiredClaims: REQUIRED_CLAIMS,
        }));
      } catch {
        // Every failure is "not a valid token": throwing here would turn attacker input into a 500.
        return null;
      }
      const claims = toAccessClaims(payload);
      // jose checks `iat` only with maxTokenAge; a token issued in the future (beyond the skew) is not ours.
      if (claims === undefined || claims.iat > at / 1000 + CLOCK_SKEW_SECONDS) return null;
      cache?.set(token, claims);
      return claims;
    },
  };
}

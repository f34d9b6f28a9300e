/**
 * The access-token claim set (spec "Token claims"). Names are the wire names, preserved exactly: no inbound
 * claim renaming, `unique_name` is the identity name.
 */

/** What the service puts into an access token. */
export interface AccessTokenClaims {
  /** User id, as a string (RFC 7519 §4.1.2 makes `sub` a string). */
  sub: string;
  /** Session id (GUID v7); every request checks that this session is still alive. */
  sid: string;
  /** Super-admin flag: bypasses the permission-code check. */
  sadm: boolean;
  /** Organisation id of the user, or null. */
  org: number | null;
  /** Login account: the identity name. */
  unique_name: string;
}

/** A verified token's claims: what was issued plus the registered claims the signer added. */
export interface AccessClaims extends AccessTokenClaims {
  /** Issuer (`Service:Jwt:Issuer`). */
  iss: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isOrg = (v: unknown): v is number | null => v === null || Number.isSafeInteger(v);

/** True when `claims` has the issued claims with their exact types. */
export function isAccessTokenClaims(claims: unknown): claims is AccessTokenClaims {
  if (typeof claims !== 'object' || claims === null) return false;
  const c = claims as Record<string, unknown>;
  return (
    nonEmpty(c.sub) &&
    nonEmpty(c.sid) &&
    typeof c.sadm === 'boolean' &&
    isOrg(c.org) &&
    nonEmpty(c.unique_name)
  );
}

/**
 * Copies a verified payload into a frozen {@link AccessClaims} with only the known members, or answers
 * undefined when a claim is missing or has the wrong type. Freezing matters because the object is shared by
 * the verified-token cache.
 */
export function toAccessClaims(payload: Record<string, unknown>): AccessClaims | undefined {
  if (!isAccessTokenClaims(payload)) return undefined;
  const { iss, iat, exp } = payload as Record<string, unknown>;
  if (!nonEmpty(iss) || !Number.isFinite(iat) || !Number.isFinite(exp)) return undefined;
  return Object.freeze({
    sub: payload.sub,
    sid: payload.sid,
    sadm: payload.sadm,
    org: payload.org,
    unique_name: payload.unique_name,
    iss,
    iat: iat as number,
    exp: exp as number,
  });
}

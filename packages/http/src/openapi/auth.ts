/**
 * Route-level authentication markers. Each route declares one; the marker is written into the contract as
 * `x-auth` (and `x-permission-code` for permission routes) and selects the guards registered in front of the
 * handler. The permission code is derived from the route itself (contract §4).
 */

/** How a route authenticates (contract §4: `x-auth` values, plus the combined schemes of the spec). */
export type AuthMarker =
  /** No credentials. */
  | 'anonymous'
  /** A live bearer session. */
  | 'authenticated'
  /** A live bearer session plus the route's permission code (super admin bypasses the code). */
  | 'permission'
  /** The API-key header only; a user JWT is refused. */
  | 'apikey'
  /** The API-key header, bound to a user who holds the route's permission code. */
  | 'apikey-permission'
  /** Bearer or API key. */
  | 'either';

/** What the contract shows for each marker (`x-auth`). */
export function contractAuthOf(marker: AuthMarker): 'anonymous' | 'authenticated' | 'permission' | 'apikey' {
  switch (marker) {
    case 'apikey':
    case 'apikey-permission':
      return 'apikey';
    case 'either':
      return 'authenticated';
    default:
      return marker;
  }
}

/** True when the marker includes a permission-code check. */
export const needsPermission = (marker: AuthMarker): boolean =>
  marker === 'permission' || marker === 'apikey-permission';

/** The permission code of a route: upper-case method, `:`, the route template in lower case (one rule, the seed's). */
export { permissionCode } from '@svc/data';

/** Per-route options beside the OpenAPI definition. */
export interface RouteMeta {
  method: string;
  /** OpenAPI template, e.g. `/api/v1/sys/user/{id}`. */
  path: string;
  auth: AuthMarker;
  /** Needs a recent re-authentication (enforced while the TOTP capability is on). */
  reauth?: boolean;
  /** Success answers the bare payload; failures still use the envelope. */
  skipEnvelope?: boolean;
  permissionCode?: string;
  /** Module of `Service:Api:DisabledModules` the route belongs to, if any. */
  module?: string;
}

/**
 * Who is calling: a person through a live session, or a machine through an API key. Route guards put one
 * of these on the request; services receive it explicitly.
 */

export interface UserPrincipal {
  kind: 'user';
  userId: number;
  /** Login account (`unique_name`). */
  account: string;
  sessionId: string;
  isSuperAdmin: boolean;
  orgId: number | null;
}

export interface ApiKeyCaller {
  kind: 'apikey';
  /** Key name: operation log, rate-limit partition, `unique_name`. */
  name: string;
  /** The bound user, when the key has one; permissions and data scope follow that user. */
  userId: number | null;
}

export type Principal = UserPrincipal | ApiKeyCaller;

/** The user id whose permissions apply, if any (an unbound key has none). */
export function actingUserId(principal: Principal): number | null {
  return principal.kind === 'user' ? principal.userId : principal.userId;
}

/** Request facts the auth services record (login log, session row). */
export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** The request's `X-Trace-Id`, written to every login-log row. @default none */
  traceId?: string | undefined;
}

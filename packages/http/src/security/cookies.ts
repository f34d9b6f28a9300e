/**
 * Cookie session mode (spec "Cookie session mode"): the refresh token travels only in the HttpOnly `app_rt`
 * cookie (scoped to the auth routes) and is emptied in the body; a readable `app_csrf` cookie carries a
 * session-bound CSRF value the frontend echoes in `X-App-CSRF`. Both are `Secure` with a strict SameSite by
 * default, and both expire on logout.
 *
 * A session is a cookie session when `CookieMode` is on (every session), or when its client asked for one
 * (`X-App-Session-Mode: cookie` on the login: the console does, so its refresh token is never readable by page
 * script on a host whose API clients keep body tokens), or when it is refreshed from its cookie.
 */
import type { IssuedSession } from '@svc/security';
import { CSRF_COOKIE_NAME, issueCsrf, REFRESH_COOKIE_NAME, SESSION_MODE_HEADER_NAME } from '@svc/security';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import { readHeader } from '../context.js';
import { sessionCookiesOf } from './cookie-guard.js';
import type { HttpSecurity } from './deps.js';

/** The refresh cookie is sent only to the auth routes that read it. */
export const REFRESH_COOKIE_PATH = '/api/v1/auth';

/** The login output of the spec and contract. */
export interface LoginOutput {
  accessToken: string;
  expiresAt: string;
  refreshToken: string;
  refreshExpiresAt: string;
  mustChangePassword: boolean;
  sessionMode: 'cookie' | 'token';
  csrfRequired: boolean;
  userId: number;
  account: string;
  name: string;
  isSuperAdmin: boolean;
}

function baseOptions(security: HttpSecurity): CookieOptions {
  const { domain, secure, sameSite } = security.cookies;
  return { secure: secure || sameSite === 'None', sameSite, ...(domain ? { domain } : {}) };
}

/** True when the request asks for a cookie session (`X-App-Session-Mode: cookie`, case-insensitive). */
export function asksForCookieSession(c: Context): boolean {
  return readHeader(c, SESSION_MODE_HEADER_NAME)?.trim().toLowerCase() === 'cookie';
}

/**
 * Builds the login output, setting the cookies for a cookie session: in cookie mode, when the client asked for
 * one, or when `cookieSession` says so (a refresh that came from the cookie stays in it).
 */
export function loginOutput(
  c: Context,
  security: HttpSecurity,
  issued: IssuedSession,
  now: Date,
  cookieSession = false,
): LoginOutput {
  const cookieMode = security.cookies.enabled || cookieSession || asksForCookieSession(c);
  if (cookieMode) {
    const maxAge = Math.max(1, Math.floor((issued.refreshExpiresAt.getTime() - now.getTime()) / 1000));
    setCookie(c, REFRESH_COOKIE_NAME, issued.refreshToken, {
      ...baseOptions(security),
      httpOnly: true,
      path: REFRESH_COOKIE_PATH,
      maxAge,
    });
    setCookie(c, CSRF_COOKIE_NAME, issueCsrf(issued.sessionId, security.csrfKey), {
      ...baseOptions(security),
      httpOnly: false,
      path: '/',
      maxAge,
    });
  }
  return {
    accessToken: issued.accessToken,
    expiresAt: issued.expiresAt.toISOString(),
    refreshToken: cookieMode ? '' : issued.refreshToken,
    refreshExpiresAt: issued.refreshExpiresAt.toISOString(),
    mustChangePassword: issued.mustChangePassword,
    sessionMode: cookieMode ? 'cookie' : 'token',
    csrfRequired: cookieMode,
    userId: issued.userId,
    account: issued.account,
    name: issued.name,
    isSuperAdmin: issued.isSuperAdmin,
  };
}

/** Expires both cookies (logout) in cookie mode, or when the request has a session cookie or asks for one. */
export function clearSessionCookies(c: Context, security: HttpSecurity): void {
  if (!security.cookies.enabled && !asksForCookieSession(c)) {
    const cookies = sessionCookiesOf(c);
    if (cookies.refresh === undefined && cookies.csrf === undefined && !cookies.duplicated) return;
  }
  deleteCookie(c, REFRESH_COOKIE_NAME, { ...baseOptions(security), path: REFRESH_COOKIE_PATH });
  deleteCookie(c, CSRF_COOKIE_NAME, { ...baseOptions(security), path: '/' });
}

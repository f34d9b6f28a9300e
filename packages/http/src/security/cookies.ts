/**
 * Cookie session mode (spec "Cookie session mode"): the refresh token travels only in the HttpOnly `app_rt`
 * cookie (scoped to the auth routes) and is emptied in the body; a readable `app_csrf` cookie carries a
 * session-bound CSRF value the frontend echoes in `X-App-CSRF`. Both are `Secure` with a strict SameSite by
 * default, and both expire on logout.
 */
import type { IssuedSession } from '@svc/security';
import { CSRF_COOKIE_NAME, issueCsrf, REFRESH_COOKIE_NAME } from '@svc/security';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
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

/** Builds the login output, setting the cookies in cookie mode. */
export function loginOutput(
  c: Context,
  security: HttpSecurity,
  issued: IssuedSession,
  now: Date,
): LoginOutput {
  const cookieMode = security.cookies.enabled;
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

/** Expires both cookies (logout). */
export function clearSessionCookies(c: Context, security: HttpSecurity): void {
  if (!security.cookies.enabled) return;
  deleteCookie(c, REFRESH_COOKIE_NAME, { ...baseOptions(security), path: REFRESH_COOKIE_PATH });
  deleteCookie(c, CSRF_COOKIE_NAME, { ...baseOptions(security), path: '/' });
}

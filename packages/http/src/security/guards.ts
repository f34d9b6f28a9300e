/**
 * Route guards: the middleware each route marker asks for (contract §4, spec "Endpoint-level attributes").
 * - `authenticated`: a bearer token whose session is alive on this very request (401, 40006 otherwise).
 * - `permission`: plus the route's permission code (403, 41001); the super admin bypasses the code, never the
 *   session check.
 * - `apikey`: the API-key header only; a user JWT is refused (401, 40027), and so is a key bound to a user who is
 *   disabled or deleted.
 * - `apikey-permission`: plus a key bound to a user who holds the code (403 for an unbound key).
 * - `either`: an API key when the key header is present, else a bearer session.
 * In cookie mode, writes on session routes also need `X-App-CSRF` equal to the `app_csrf` cookie and bound to
 * the session, a same-site origin and single session cookies (403, 40023, written to the login log; see
 * `cookie-guard.ts`).
 */
import type { ErrorCodeRegistry } from '@svc/kernel';
import { ErrorCode } from '@svc/kernel';
import type { Principal, UserPrincipal } from '@svc/security';
import { CSRF_HEADER_NAME, verifyCsrf } from '@svc/security';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { readHeader } from '../context.js';
import { failure } from '../errors/handlers.js';
import { markStandardBearer } from '../middleware/direct.js';
import type { RouteMeta } from '../openapi/auth.js';
import type { RouteGuards } from '../openapi/register.js';
import { bearerToken } from './bearer-token.js';
import { clientInfoOf } from './client.js';
import { requestIsCrossSite, sessionCookiesOf } from './cookie-guard.js';
import type { HttpSecurity } from './deps.js';

export { bearerToken };

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface ReauthCheck {
  /** True when the route may proceed (no TOTP capability, or a recent re-authentication). */
  satisfied(principal: UserPrincipal): Promise<boolean>;
}

/**
 * Whether the request may do what the re-authentication marker guards: machine principals and a service without
 * a check pass; a user needs a recent re-authentication while TOTP is on. The route guard and the routes whose need
 * depends on the request (the recycle bin's restore, by type) ask this one rule.
 */
export async function reauthSatisfied(
  reauth: ReauthCheck | undefined,
  principal: Principal | undefined,
): Promise<boolean> {
  if (!reauth || principal?.kind !== 'user') return true;
  return reauth.satisfied(principal);
}

export function createRouteGuards(
  security: HttpSecurity,
  errors: ErrorCodeRegistry,
  reauth?: ReauthCheck,
): RouteGuards {
  const unauthorized = (c: Context) => failure(c, errors, ErrorCode.TokenInvalid);
  const badKey = (c: Context) => failure(c, errors, ErrorCode.ApiKeyInvalid);
  const forbidden = (c: Context) => failure(c, errors, ErrorCode.NoPermission);

  function csrfOk(c: Context<AppEnv>, principal: UserPrincipal): boolean {
    if (!security.cookies.enabled || !WRITES.has(c.req.method)) return true;
    if (requestIsCrossSite(c, security.cookies.allowedOrigins)) return false;
    const cookies = sessionCookiesOf(c);
    if (cookies.duplicated) return false;
    return verifyCsrf({
      header: readHeader(c, CSRF_HEADER_NAME),
      cookie: cookies.csrf,
      sessionId: principal.sessionId,
      key: security.csrfKey,
    });
  }

  async function csrfRefused(c: Context<AppEnv>, principal: UserPrincipal) {
    await security.securityEvents.record({
      account: principal.account,
      userId: principal.userId,
      resultCode: ErrorCode.CsrfInvalid.code,
      client: clientInfoOf(c, security.resolveClientIp),
    });
    return failure(c, errors, ErrorCode.CsrfInvalid);
  }

  /** The guard's work once the principal is known (null: refused). */
  function admit(c: Context<AppEnv>, principal: UserPrincipal | null, next: () => Promise<void>) {
    if (!principal) return unauthorized(c);
    if (!csrfOk(c, principal)) return csrfRefused(c, principal);
    c.set('principal', principal);
    return next();
  }

  /**
   * Not an async function: when the session check can answer at once (memory cache, warm copies) the guard
   * answers without a promise of its own, so a warm read is answered in the same turn it arrived (issue 16).
   */
  function bearerGuard(c: Context<AppEnv>, next: () => Promise<void>) {
    const token = bearerToken(readHeader(c, 'authorization'));
    if (!token) return unauthorized(c);
    const known = security.sessions.authenticateNow?.(token);
    if (known !== undefined) return admit(c, known, next);
    return security.sessions
      .authenticate(token)
      .then((principal): Response | Promise<unknown> => admit(c, principal, next));
  }
  const bearer = bearerGuard as unknown as MiddlewareHandler<AppEnv>;
  // This guard answers 401 exactly as middleware/direct.ts does for a refused token of these sessions.
  markStandardBearer(bearer, security.sessions);

  const apiKey: MiddlewareHandler<AppEnv> = async function apiKeyGuard(c, next) {
    const caller = security.apiKeys.validate(readHeader(c, security.apiKeyHeader));
    if (!caller) return badKey(c);
    // A key bound to a user acts as that user: it stops the moment they are disabled or deleted.
    if (caller.userId !== null && !(await security.permissions.isActive(caller.userId))) return badKey(c);
    c.set('principal', { kind: 'apikey', name: caller.name, userId: caller.userId });
    return next();
  };

  const either: MiddlewareHandler<AppEnv> = async function eitherGuard(c, next) {
    if (readHeader(c, security.apiKeyHeader) !== undefined) return apiKey(c, next);
    return bearer(c, next);
  };

  function permission(code: string): MiddlewareHandler<AppEnv> {
    return async function permissionGuard(c, next) {
      const principal = c.get('principal') as Principal | undefined;
      if (!principal) return unauthorized(c);
      if (principal.kind === 'user' && principal.isSuperAdmin) return next();
      const userId = principal.userId;
      if (userId === null) return forbidden(c);
      const codes = await security.permissions.codesOf(userId);
      return codes.has(code) ? next() : forbidden(c);
    };
  }

  const reauthGuard: MiddlewareHandler<AppEnv> = async function reauthGuard(c, next) {
    return (await reauthSatisfied(reauth, c.get('principal')))
      ? next()
      : failure(c, errors, ErrorCode.ReauthRequired);
  };

  return {
    // Every guard here answers `next()`'s own answer, so routes may fuse them (openapi/register.ts).
    fusable: true,
    forRoute(meta: RouteMeta) {
      const chain: MiddlewareHandler<AppEnv>[] = [];
      switch (meta.auth) {
        case 'anonymous':
          return chain;
        case 'authenticated':
          chain.push(bearer);
          break;
        case 'permission':
          chain.push(bearer, permission(meta.permissionCode ?? ''));
          break;
        case 'apikey':
          chain.push(apiKey);
          break;
        case 'apikey-permission':
          chain.push(apiKey, permission(meta.permissionCode ?? ''));
          break;
        case 'either':
          chain.push(either);
          break;
      }
      if (meta.reauth) chain.push(reauthGuard);
      return chain;
    },
  };
}

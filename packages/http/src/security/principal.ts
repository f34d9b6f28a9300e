/** Reading the guard-set principal in handlers. */
import type { DataScopeFilter } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { DataScopeResolver, Principal, UserPrincipal } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../context.js';

/** The caller; a route without a guard has none and this throws 40006. */
export function requirePrincipal(c: Context<AppEnv>): Principal {
  const principal = c.get('principal');
  if (!principal) throw new BusinessError(ErrorCode.TokenInvalid);
  return principal;
}

/** The calling user (session routes). */
export function requireUser(c: Context<AppEnv>): UserPrincipal {
  const principal = requirePrincipal(c);
  if (principal.kind !== 'user') throw new BusinessError(ErrorCode.TokenInvalid);
  return principal;
}

/** The acting user id of the request (audit columns), null for an unbound API key. */
export function actorIdOf(c: Context<AppEnv>): number | null {
  return c.get('principal')?.userId ?? null;
}

/** The caller's data scope (the Admin module's resolver). */
export function scopeOf(
  c: Context<AppEnv>,
  scopes: Pick<DataScopeResolver, 'forPrincipal'>,
): Promise<DataScopeFilter> {
  return scopes.forPrincipal(requirePrincipal(c));
}

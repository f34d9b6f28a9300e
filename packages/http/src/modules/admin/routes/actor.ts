/** The one-liner of every administration route: the guard-set principal of this request as an actor. */
import type { AdminActor, AdminServices } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../../../context.js';
import { requirePrincipal } from '../../../security/principal.js';

/** The caller of this request as an administration actor. */
export function actorOf(c: Context<AppEnv>, deps: { admin: Pick<AdminServices, 'actorOf'> }): AdminActor {
  return deps.admin.actorOf(requirePrincipal(c));
}

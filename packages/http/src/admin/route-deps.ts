/**
 * What every administration route handler receives: the administration services, plus the one-liner that
 * turns the guard-set principal into an actor.
 */
import type { AdminActor, AdminServices, PortalService } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../context.js';
import type { ReauthCheck } from '../security/guards.js';
import { requirePrincipal } from '../security/principal.js';

export interface AdminRouteDeps {
  admin: AdminServices;
  /** The caller's portal (the personal menu is cached under the portal generation). */
  portal: PortalService;
  /** The re-authentication window, for checks that depend on what a request names (a recycle-bin type). */
  reauth: ReauthCheck;
}

/** The caller of this request as an administration actor. */
export function actorOf(c: Context<AppEnv>, deps: AdminRouteDeps): AdminActor {
  return deps.admin.actorOf(requirePrincipal(c));
}

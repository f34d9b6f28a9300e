/** What the portal routes receive: the portal services and the administration actor factory. */
import type { AdminActor, AdminServices, PortalServices } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../../../context.js';
import { requirePrincipal } from '../../../security/principal.js';

export interface PortalRouteDeps extends PortalServices {
  actorOf: AdminServices['actorOf'];
}

/** The caller of this request as an administration actor. */
export const actorOf = (c: Context<AppEnv>, d: PortalRouteDeps): AdminActor => d.actorOf(requirePrincipal(c));

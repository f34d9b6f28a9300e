/** What the `Admin` module builds: the administration services and the caller's portal. */
import type { AdminServices, PortalServices } from '@svc/security';
import type { HttpDeps } from '../../deps.js';

export interface AdminModuleServices {
  admin: AdminServices;
  portal: PortalServices;
  /** Transitional: the routes not yet in the module shape take the whole deps. */
  http: HttpDeps;
}

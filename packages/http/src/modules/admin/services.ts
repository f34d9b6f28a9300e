/**
 * What the `Admin` module builds: the administration services and the caller's portal (the personal menu is
 * cached under the portal generation). Other modules reach them through `use(adminModule)`, a server's
 * `configure` through `deps.modules.servicesOf(adminModule)`; each administration route takes a `Pick` of them.
 */
import type { AdminServices, PortalServices } from '@svc/security';

export interface AdminModuleServices {
  admin: AdminServices;
  portal: PortalServices;
}

/** What the administration route files pick from: the module's services. */
export type AdminRouteDeps = AdminModuleServices;

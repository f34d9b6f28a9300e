/**
 * The administration services of a server, as its `Admin` module built them (modules/admin). Kept for routes not
 * yet in the module shape and for a consumer's `configure(ctx, deps)` (e.g. to register its own recycle-bin
 * types); a module declares `dependsOn: [adminModule]` and calls `use(adminModule)` instead.
 */
import type { AdminServices } from '@svc/security';
import type { HttpDeps } from '../deps.js';
import { adminModule } from '../modules/admin/index.js';

/**
 * The administration services of the server `deps` belongs to.
 * @example adminServicesFor(deps).recycleBin.register(orderRecycleType);
 */
export function adminServicesFor(deps: Pick<HttpDeps, 'modules'>): AdminServices {
  return deps.modules.servicesOf(adminModule).admin;
}

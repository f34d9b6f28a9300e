/**
 * The portal services of one server (module administration, the caller's portal), built once from its deps
 * and reached through `portalServicesFor(deps)`. The memo is keyed by the deps' core services, as the other
 * areas' are, so every server has its own and nothing is global.
 */
import { createPortalServices, PORTAL_GENERATION_KEY, type PortalServices } from '@svc/security';
import { adminServicesFor } from '../admin/services.js';
import type { HttpDeps } from '../deps.js';

const built = new WeakMap<object, PortalServices>();

/**
 * The portal services of the server `deps` belongs to.
 * @example await portalServicesFor(deps).portal.modules(principal);
 */
export function portalServicesFor(
  deps: Pick<HttpDeps, 'core' | 'config' | 'security' | 'now' | 'logger'>,
): PortalServices {
  let services = built.get(deps.core);
  if (!services) {
    const { core, config, now } = deps;
    const personal = adminServicesFor(deps).personal;
    services = createPortalServices({
      repos: core.repos,
      cache: core.cache,
      bumpGeneration: () => core.cache.increment(PORTAL_GENERATION_KEY),
      ttlMs: config.service.Cache.PermissionMinutes * 60_000,
      now,
      menuTree: (principal) => personal.menu(principal),
    });
    built.set(core, services);
  }
  return services;
}

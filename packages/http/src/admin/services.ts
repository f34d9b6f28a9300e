/**
 * The administration services of one server, built once from its deps. Routes reach them through
 * `adminServicesFor(deps)`; so does a consumer's `configure(ctx, deps)` (e.g. to register its own recycle-bin
 * types). The memo is keyed by the deps' core services, so every server has its own and nothing is global.
 */
import { type AdminServices, createAdminServices, PORTAL_GENERATION_KEY } from '@svc/security';
import type { HttpDeps } from '../deps.js';
import { registerKernelRecycleTypes } from './recycle-types.js';

const built = new WeakMap<object, AdminServices>();

/**
 * The administration services of the server `deps` belongs to.
 * @example adminServicesFor(deps).recycleBin.register(orderRecycleType);
 */
export function adminServicesFor(
  deps: Pick<HttpDeps, 'core' | 'config' | 'security' | 'now' | 'logger'>,
): AdminServices {
  let services = built.get(deps.core);
  if (!services) {
    const { core, config, security, now } = deps;
    services = createAdminServices({
      repos: core.repos,
      sessions: core.sessions,
      permissions: core.permissions,
      settings: security.settings,
      defaultInitialPassword: config.service.Security.DefaultInitialPassword,
      pbkdf2Iterations: config.service.Security.Password.Pbkdf2Iterations,
      now,
      menusChanged: () => core.cache.increment(PORTAL_GENERATION_KEY),
    });
    registerKernelRecycleTypes(services.recycleBin, deps);
    built.set(core, services);
  }
  return services;
}

/**
 * Module `Admin`: users, organisations, positions, roles, menus, online sessions and the personal centre; always
 * on. Its services (the administration services and the caller's portal, which the personal menu is cached
 * under) are built once here; `Dashboard`, `Module` and the other areas reach them through `use(adminModule)`.
 */
import { createAdminServices, createPortalServices, PORTAL_GENERATION_KEY } from '@svc/security';
import { registerKernelRecycleTypes } from '../../admin/recycle-types.js';
import { defineModule } from '../../module/define.js';
import { registerAdminRoutes } from '../../routes/admin/index.js';
import { httpDepsOf, legacyRoutes } from '../legacy.js';
import type { AdminModuleServices } from './services.js';

export type { AdminModuleServices } from './services.js';

export const adminModule = defineModule({
  name: 'Admin',
  switchable: false,
  services: ({ core }): AdminModuleServices => {
    const { repos, sessions, permissions, cache, config, now } = core;
    const admin = createAdminServices({
      repos,
      sessions,
      permissions,
      settings: core.security.settings,
      defaultInitialPassword: config.service.Security.DefaultInitialPassword,
      pbkdf2Iterations: config.service.Security.Password.Pbkdf2Iterations,
      now,
      menusChanged: () => cache.increment(PORTAL_GENERATION_KEY),
    });
    const http = httpDepsOf(core);
    registerKernelRecycleTypes(admin.recycleBin, http);
    const portal = createPortalServices({
      repos,
      cache,
      bumpGeneration: () => cache.increment(PORTAL_GENERATION_KEY),
      ttlMs: config.service.Cache.PermissionMinutes * 60_000,
      now,
      menuTree: (principal) => admin.personal.menu(principal),
    });
    return { admin, portal, http };
  },
  routes: [legacyRoutes('Admin', registerAdminRoutes)],
});

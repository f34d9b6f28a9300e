/**
 * The multi-app portal (module `Module`): module administration and the caller's portal, built once from
 * their deps.
 */

import type { MenuNode } from '../admin/menus.js';
import type { UserPrincipal } from '../auth/principal.js';
import type { PortalDeps } from './deps.js';
import { createModuleAdminService, type ModuleAdminService } from './modules.js';
import { createPortalService, type PortalService } from './portal.js';

export interface PortalServices {
  modules: ModuleAdminService;
  portal: PortalService;
}

/** Builds the portal services; `menuTree` is the caller's full menu tree (the personal centre's). */
export function createPortalServices(
  deps: PortalDeps & { menuTree(principal: UserPrincipal): Promise<MenuNode[]> },
): PortalServices {
  return { modules: createModuleAdminService(deps), portal: createPortalService(deps) };
}

export type { PortalDeps } from './deps.js';
export * from './modules.js';
export * from './portal.js';

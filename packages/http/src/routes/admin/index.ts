/**
 * Administration (issue: users, organisations, positions, roles, menus, permission routes, data scope, online sessions, personal centre, recycle bin): registers the routes of this area.
 */
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';

export function registerAdminRoutes(_ctx: RegisterContext, _deps: HttpDeps): void {}

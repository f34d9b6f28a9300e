/**
 * Operations (config and dictionary centre, cache management, logs, monitor, files): registers the routes of this area.
 */
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';

export function registerOpsRoutes(_ctx: RegisterContext, _deps: HttpDeps): void {}

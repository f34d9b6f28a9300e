/**
 * Notices (module `Notice`): administration (publish, page, delete; permission codes) and the caller's inbox
 * (mine, unread count, read, read all; any live session). Fixed paths come before the `{id}` routes.
 */
import { adminServicesFor } from '../../admin/services.js';
import type { HttpDeps } from '../../deps.js';
import { noticeDepsOf } from '../../notices/service.js';
import type { RegisterContext } from '../../openapi/register.js';
import * as remove from './delete.js';
import * as mine from './mine.js';
import * as page from './page.js';
import * as publish from './publish.js';
import * as read from './read.js';
import * as readAll from './read-all.js';
import type { NoticeRouteDeps } from './schemas.js';
import * as unread from './unread-count.js';

export function registerNoticeRoutes(ctx: RegisterContext, deps: HttpDeps): void {
  const d: NoticeRouteDeps = {
    http: deps,
    notices: noticeDepsOf(deps),
    codesOf: (userId) => deps.security.permissions.codesOf(userId),
    scopeOf: (principal) => adminServicesFor(deps).scopes.forPrincipal(principal),
  };
  for (const route of [page, mine, unread, readAll, publish, read, remove]) route.register(ctx, d);
}

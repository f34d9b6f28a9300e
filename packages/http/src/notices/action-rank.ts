/**
 * The rank rule for notice actions. A POST action is a request stored in someone else's inbox: it runs with the
 * rights of whoever clicks it. So a publisher may put one on a notice only when they could make that request
 * themselves: every permission route the action's path may reach needs a code the publisher holds (41001 with
 * `args.index` and `args.codes` otherwise; the super admin is exempt), as role grants need (`assertCanGrant`).
 * Routes without a permission act on the clicker's own account or on nobody's and stay allowed; GET actions
 * only navigate the console.
 */
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { Principal } from '@svc/security';
import type { RouteTable } from '../openapi/register.js';
import type { NoticeAction } from './service.js';

interface CompiledRoute {
  pattern: RegExp;
  code: string;
}

/** The POST permission routes of a table as patterns, drawn again when the table grew. */
function compiledRoutes(table: RouteTable, cache: { size: number; routes: CompiledRoute[] }) {
  if (cache.size === table.routes.length) return cache.routes;
  cache.routes = table.permissionRoutes().flatMap((r) => {
    if (r.method.toUpperCase() !== 'POST' || !r.permissionCode) return [];
    const source = r.path
      .split('/')
      .map((part) => (/^\{.+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return [{ pattern: new RegExp(`^${source}/?$`, 'i'), code: r.permissionCode }];
  });
  cache.size = table.routes.length;
  return cache.routes;
}

/**
 * Every reading of the action's path a router might make: as written and percent-decoded (Hono decodes a path
 * that holds `%`), compared without case and with or without a trailing slash: one that reaches a route counts.
 */
function readings(url: string): string[] {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  // As a browser resolves it (dot segments, which the service refuses anyway).
  const out = [path, new URL(path, 'http://origin.invalid').pathname];
  try {
    out.push(decodeURI(path), decodeURIComponent(path));
  } catch {
    // Not decodable: a router would not decode it either.
  }
  return out;
}

/** The codes of the permission routes a POST to `url` may reach. */
export function postActionCodes(
  table: RouteTable,
  url: string,
  cache = { size: -1, routes: [] as CompiledRoute[] },
): string[] {
  const routes = compiledRoutes(table, cache);
  const codes = new Set<string>();
  for (const path of readings(url))
    for (const route of routes) if (route.pattern.test(path)) codes.add(route.code);
  return [...codes];
}

/**
 * Refuses (41001, `args.index`, `args.codes`) a POST action whose route needs a code the publisher lacks.
 * @example await assertActionsHeld(table, principal, (id) => permissions.codesOf(id), body.actions);
 */
export function actionRank(table: RouteTable, codesOf: (userId: number) => Promise<ReadonlySet<string>>) {
  const cache = { size: -1, routes: [] as CompiledRoute[] };
  return async function assertActionsHeld(
    principal: Principal | undefined,
    actions: readonly NoticeAction[] | undefined,
  ): Promise<void> {
    if (!actions || (principal?.kind === 'user' && principal.isSuperAdmin)) return;
    let held: ReadonlySet<string> | undefined;
    for (const [index, action] of actions.entries()) {
      if (action.method !== 'POST') continue;
      const needed = postActionCodes(table, action.url, cache);
      if (needed.length === 0) continue;
      const userId = principal?.userId ?? null;
      held ??= userId === null ? new Set<string>() : await codesOf(userId);
      const lacking = needed.filter((code) => !held?.has(code)).sort();
      if (lacking.length > 0) throw new BusinessError(ErrorCode.NoPermission, { index, codes: lacking });
    }
  };
}

/**
 * The rank rule for notice actions. A POST action is a request stored in someone else's inbox: it runs with the
 * rights of whoever clicks it. So a publisher may put one on a notice only when they could make that request
 * themselves: every permission route the action's path may reach needs a code the publisher holds (41001 with
 * `args.index` and `args.codes` otherwise; the super admin is exempt), as role grants need (`assertCanGrant`).
 * Routes without a permission act on the clicker's own account or on nobody's and stay allowed; GET actions
 * only navigate the console.
 *
 * Holding the codes is not enough: the click runs with the clicker's data scope and rank, so a department
 * administrator could have an administrator above them restore a user of another department, which the publisher
 * may not. A notice whose POST action reaches a permission route therefore goes only to receivers the publisher
 * outranks ({@link assertOutranksReceivers}): none above them, none outside their scope, never everyone. Then the
 * click can do nothing the publisher could not have done.
 */
import { NoticeReceiverType, type Repositories } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { NoticeAction } from '@svc/modules';
import { type AdminActor, assertOutranksUsersInScope, type Principal } from '@svc/security';
import type { RouteTable } from '../../openapi/register.js';

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
 * Refuses (41001, `args.index`, `args.codes`) a POST action whose route needs a code the publisher lacks; answers
 * whether some POST action reaches a permission route (then the receivers must be outranked too). The super
 * admin is exempt (answers false).
 * @example const acting = await assertActionsHeld(principal, body.actions);
 */
export function actionRank(table: RouteTable, codesOf: (userId: number) => Promise<ReadonlySet<string>>) {
  const cache = { size: -1, routes: [] as CompiledRoute[] };
  return async function assertActionsHeld(
    principal: Principal | undefined,
    actions: readonly NoticeAction[] | undefined,
  ): Promise<boolean> {
    if (!actions || (principal?.kind === 'user' && principal.isSuperAdmin)) return false;
    let held: ReadonlySet<string> | undefined;
    let acting = false;
    for (const [index, action] of actions.entries()) {
      if (action.method !== 'POST') continue;
      const needed = postActionCodes(table, action.url, cache);
      if (needed.length === 0) continue;
      acting = true;
      const userId = principal?.userId ?? null;
      held ??= userId === null ? new Set<string>() : await codesOf(userId);
      const lacking = needed.filter((code) => !held?.has(code)).sort();
      if (lacking.length > 0) throw new BusinessError(ErrorCode.NoPermission, { index, codes: lacking });
    }
    return acting;
  };
}

/**
 * Refuses a notice with an acting POST action addressed beyond the publisher: to everyone or to the super admin
 * (41001, `args.reason` = `action-receivers`), to a user outside their data scope (41005, `args.ids`), or to one
 * holding codes or role scopes beyond theirs (41001 / 41005, the rank rule). `userIds` are the receivers the notice
 * resolved to (a role's members at publish time), the very list it is delivered to.
 */
export async function assertOutranksReceivers(
  deps: { repos: Pick<Repositories, 'users' | 'roles' | 'orgs'> },
  actor: AdminActor,
  receiverType: number,
  userIds: readonly number[],
): Promise<void> {
  if (actor.isSuperAdmin) return;
  const beyond = (ids?: number[]) =>
    new BusinessError(ErrorCode.NoPermission, { reason: 'action-receivers', ...(ids ? { ids } : {}) });
  if (receiverType === NoticeReceiverType.All) throw beyond();
  const users = await deps.repos.users.findByIds(userIds);
  const above = users.filter((u) => u.isSuperAdmin).map((u) => u.id);
  if (above.length > 0) throw beyond(above);
  await assertOutranksUsersInScope(deps, actor, users);
}

/**
 * Registers one route: the guards its marker asks for, then the zod-openapi handler, and records it in the
 * route table (the source of `GET /api/v1/menu/routes` and of the seed-consistency test).
 */
import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { type AuthMarker, contractAuthOf, needsPermission, permissionCode, type RouteMeta } from './auth.js';

/** Supplies the middleware that enforces a route's marker (the security layer implements it). */
export interface RouteGuards {
  forRoute(meta: RouteMeta): MiddlewareHandler<AppEnv>[];
}

/** Every registered route, in registration order. */
export class RouteTable {
  readonly routes: RouteMeta[] = [];
  add(meta: RouteMeta): void {
    this.routes.push(meta);
  }
  /** Routes whose marker includes a permission check. */
  permissionRoutes(): RouteMeta[] {
    return this.routes.filter((r) => needsPermission(r.auth));
  }
}

export interface RegisterContext {
  app: OpenAPIHono<AppEnv>;
  table: RouteTable;
  guards?: RouteGuards | undefined;
  /** The area registering (documented as `x-module`); a route's own `module` option wins. */
  module?: string | undefined;
}

export interface RouteOptions {
  auth: AuthMarker;
  reauth?: boolean;
  skipEnvelope?: boolean;
  module?: string;
}

/**
 * A stable, readable operation id from the method and the path below `/api/v1`: `GET /api/v1/sys/user/page` is
 * `getSysUserPage`, `DELETE /api/v1/sys/user/{id}` is `deleteSysUserById`. Generated clients name their functions
 * after it, so it changes only when the route does.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v\d+\//, '/')
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment) ?? /^:(.+)$/.exec(segment);
      return param?.[1] ? `by-${param[1]}` : segment;
    })
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  const pascal = words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join('');
  return `${method.toLowerCase()}${pascal}`;
}

/** Adds `operationId`, `x-auth`, `x-permission-code` and `x-module` to a route definition. */
export function withAuth<R extends RouteConfig>(route: R, options: RouteOptions, module?: string): R {
  const extra: Record<string, unknown> = {
    operationId: route.operationId ?? operationIdOf(route.method, route.path),
    'x-auth': contractAuthOf(options.auth),
  };
  if (options.module ?? module) extra['x-module'] = options.module ?? module;
  if (needsPermission(options.auth)) extra['x-permission-code'] = permissionCode(route.method, route.path);
  if (options.auth === 'either') extra['x-auth-schemes'] = ['Bearer', 'ApiKey'];
  if (options.reauth) extra['x-reauth'] = true;
  if (options.skipEnvelope) extra['x-skip-envelope'] = true;
  return { ...route, ...extra };
}

/** Registers a route with its guards and records it. */
export function registerRoute<R extends RouteConfig>(
  ctx: RegisterContext,
  route: R,
  options: RouteOptions,
  handler: RouteHandler<R, AppEnv>,
): void {
  const meta: RouteMeta = {
    method: route.method.toUpperCase(),
    path: route.path,
    auth: options.auth,
    ...(options.reauth ? { reauth: true } : {}),
    ...(options.skipEnvelope ? { skipEnvelope: true } : {}),
    ...(options.module ? { module: options.module } : {}),
    ...(needsPermission(options.auth) ? { permissionCode: permissionCode(route.method, route.path) } : {}),
  };
  const guards = ctx.guards?.forRoute(meta) ?? [];
  const config = withAuth(route, options, ctx.module);
  // zod-openapi runs route middleware before validation, so guards answer 401/403 before a 48000 can.
  const middleware = guards.length > 0 ? { middleware: guards } : {};
  ctx.app.openapi({ ...config, ...middleware } as R, handler as never);
  ctx.table.add(meta);
}

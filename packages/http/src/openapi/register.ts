/**
 * Registers one route: the guards its marker asks for, then the zod-openapi handler, and records it in the
 * route table (the source of `GET /api/v1/menu/routes` and of the seed-consistency test).
 */
import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import { isDefaultHighSensitivity, type UserPrincipal } from '@svc/security';
import type { Context, MiddlewareHandler } from 'hono';
import { type AppEnv, headersFromIncoming } from '../context.js';
import type { DirectRoutes } from '../middleware/direct.js';
import { FUSED, type Pipeline, pipelineRan } from '../middleware/pipeline.js';
import { type AuthMarker, contractAuthOf, needsPermission, permissionCode, type RouteMeta } from './auth.js';
import { RoutePolicies, type RoutePolicy } from './policy.js';
import { boundedPageQuery } from './query.js';

/** Supplies the middleware that enforces a route's marker (the security layer implements it). */
export interface RouteGuards {
  forRoute(meta: RouteMeta): MiddlewareHandler<AppEnv>[];
  /**
   * True when every guard answers with what `next()` answered (`return next()`), never awaiting it and
   * answering nothing: then registerRoute may fuse the guards with the pipeline and the handler.
   */
  readonly fusable?: boolean;
}

/** Every registered route, in registration order, and the request policies they declared. */
export class RouteTable {
  readonly routes: RouteMeta[] = [];
  /** What the operation log and the body limit read of each route's options (openapi/policy.ts). */
  readonly policies: RoutePolicies = new RoutePolicies();
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
  /** The request pipeline (middleware/pipeline.ts); with it, routes run it themselves (fused). */
  pipeline?: Pipeline | undefined;
  /** Collects the routes the listener may answer or refuse before Hono (middleware/direct.ts). */
  direct?: DirectRoutes | undefined;
  /**
   * `Service:Api:MaxPageSize`: a route whose query is a paged query schema (`pageQuerySchema`) validates with
   * it bounded by this ceiling, so a larger `size` answers 48001 before the handler runs.
   */
  maxPageSize: number;
}

/**
 * A route's options beside its OpenAPI definition. `opLog` and `bodyLimit` are its request policy
 * (openapi/policy.ts): which reads the operation log records and which bodies only as a summary, and a body limit
 * of its own instead of `Service:Api:MaxBodyBytes`. Neither appears in the OpenAPI document.
 */
export interface RouteOptions extends RoutePolicy {
  auth: AuthMarker;
  reauth?: boolean;
  skipEnvelope?: boolean;
  module?: string;
  /**
   * The route's `data` as a function of the signed-in user alone, for a `GET` on a fixed path with `auth:
   * 'authenticated'` and no request parts: the reference listener may then answer it before Hono
   * (middleware/direct.ts). The handler must answer `ok(direct(user))` with 200, and both must be the same
   * synchronous function of the user without side effects: a route registered with this option is answered
   * either way, and a failed direct answer is computed again the usual way.
   */
  direct?: (user: UserPrincipal) => unknown;
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
  options = markedAsDefaultSet(route, options);
  const meta: RouteMeta = {
    method: route.method.toUpperCase(),
    path: route.path,
    auth: options.auth,
    ...(options.reauth ? { reauth: true } : {}),
    ...(options.skipEnvelope ? { skipEnvelope: true } : {}),
    ...(options.module ? { module: options.module } : {}),
    ...(needsPermission(options.auth) ? { permissionCode: permissionCode(route.method, route.path) } : {}),
  };
  if (options.direct !== undefined) directAllowed(route, options);
  const guards = ctx.guards?.forRoute(meta) ?? [];
  const { middleware: declared, ...config } = withAuth(
    withPageCeiling(route, ctx.maxPageSize),
    options,
    ctx.module,
  );
  // The route's own middleware (`createRoute({ middleware })`) runs after its guards: it never sees a caller
  // the route's marker refuses, and it cannot answer in their place.
  const own = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
  const firstEntry = ctx.app.routes.length;
  const pipeline = ctx.pipeline;
  if (pipeline && (guards.length === 0 || ctx.guards?.fusable === true)) {
    const first = registerFused(
      ctx.app,
      pipeline,
      config as RouteConfig,
      guards,
      own as MiddlewareHandler<AppEnv>[],
      handler as unknown as Handler,
    );
    const single = own.length === 0 && !hasValidation(config as RouteConfig);
    ctx.direct?.add({ ...meta, first, guards, answer: single ? options.direct : undefined });
  } else {
    // zod-openapi runs route middleware before validation, so guards answer 401/403 before a 48000 can.
    const chain = [...guards, ...(own as MiddlewareHandler<AppEnv>[])];
    ctx.app.openapi({ ...config, ...(chain.length > 0 ? { middleware: chain } : {}) } as R, handler as never);
  }
  ctx.table.add(meta);
  // Keyed by the router's own method and path of the route's first entry (the app's base path included).
  const entry = ctx.app.routes[firstEntry];
  if (entry) ctx.table.policies.add(ctx.app.router, entry.method, entry.path, policyOf(options));
}

/** The policy part of a route's options, if it declares any. */
function policyOf(options: RouteOptions): RoutePolicy | undefined {
  if (options.opLog === undefined && options.bodyLimit === undefined) return undefined;
  const limit = options.bodyLimit;
  const bytes = typeof limit === 'object' && limit !== null ? limit.upload : limit;
  if (limit !== undefined && !(Number.isSafeInteger(bytes) && (bytes as number) > 0))
    throw new TypeError(
      `bodyLimit must be a positive whole number of bytes or { upload: bytes } (got ${JSON.stringify(limit)})`,
    );
  return {
    ...(options.opLog !== undefined ? { opLog: options.opLog } : {}),
    ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
  };
}

/** `route` with its paged query schema, if it has one, bounded by the app's ceiling (openapi/query.ts). */
function withPageCeiling<R extends RouteConfig>(route: R, maxPageSize: number): R {
  const query = boundedPageQuery(route.request?.query, maxPageSize);
  return query === undefined ? route : { ...route, request: { ...route.request, query } };
}

/**
 * A permission route whose code is in the built-in high-sensitivity set carries the re-authentication marker
 * whether or not its definition says so: the set is the one rule, the guard and `x-reauth` follow it.
 */
function markedAsDefaultSet(route: RouteConfig, options: RouteOptions): RouteOptions {
  if (options.reauth || !needsPermission(options.auth)) return options;
  return isDefaultHighSensitivity(permissionCode(route.method, route.path))
    ? { ...options, reauth: true }
    : options;
}

type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;
type Answer = Response | undefined | Promise<unknown>;

/** The guards in order, then `last`; each guard answers what the next step answered (`fusable` guards). */
function throughGuards(guards: MiddlewareHandler<AppEnv>[], last: (c: Context<AppEnv>) => Answer) {
  let step = last;
  for (let i = guards.length - 1; i >= 0; i--) {
    const guard = guards[i] as MiddlewareHandler<AppEnv>;
    const next = step;
    step = (c) => guard(c, () => next(c) as Promise<void>) as Answer;
  }
  return step;
}

/**
 * Registers a route that runs the pipeline and its guards itself (issue 16; see middleware/pipeline.ts). Without
 * request validation or middleware of its own the route is one handler: pipeline, guards, handler. Otherwise the
 * pipeline and guards are the route's first middleware, so they still answer 401/403 before its own middleware
 * runs and before validation can answer 48000. The first handler
 * carries how many router entries the route has, which is how FusedRouter matches it alone.
 */
function registerFused(
  app: OpenAPIHono<AppEnv>,
  pipeline: Pipeline,
  config: RouteConfig,
  guards: MiddlewareHandler<AppEnv>[],
  own: MiddlewareHandler<AppEnv>[],
  handler: Handler,
): object {
  const before = app.routes.length;
  let first: object;
  if (own.length > 0 || hasValidation(config)) {
    // Pipeline and guards as the route's first middleware, with Hono's `next`: the route's own middleware and
    // the validators follow them.
    const pre: MiddlewareHandler<AppEnv> = (c, next) => {
      headersFromIncoming(c);
      const chain = throughGuards(guards, () => next());
      return (pipelineRan(c) ? chain(c) : pipeline.run(c, () => chain(c))) as Promise<void>;
    };
    app.openapi({ ...config, middleware: [pre, ...own] } as RouteConfig, handler as never);
    first = pre;
  } else {
    const chain = throughGuards(guards, answered(handler));
    const fused = (c: Context<AppEnv>) => (pipelineRan(c) ? chain(c) : pipeline.run(c, () => chain(c)));
    app.openapi(config, fused as never);
    first = fused;
  }
  Object.defineProperty(first, FUSED, { value: app.routes.length - before });
  return first;
}

/** The handler's answer, also set as the context's response (what `compose` does for the last handler). */
function answered(handler: Handler) {
  return (c: Context<AppEnv>): Answer => {
    const res = handler(c);
    if (res instanceof Promise) {
      return res.then((r) => {
        if (r instanceof Response && !c.finalized) c.res = r;
        return r;
      });
    }
    if (res instanceof Response && !c.finalized) c.res = res;
    return res;
  };
}

/** Refuses `direct` on a route the listener could not answer from the user alone. */
function directAllowed(route: RouteConfig, options: RouteOptions): void {
  const plain =
    route.method === 'get' &&
    options.auth === 'authenticated' &&
    options.reauth !== true &&
    options.skipEnvelope !== true &&
    !route.path.includes('{') &&
    route.middleware === undefined &&
    !hasValidation(route) &&
    options.direct?.constructor.name !== 'AsyncFunction';
  if (!plain) {
    throw new TypeError(
      `${route.method.toUpperCase()} ${route.path}: \`direct\` needs a GET on a fixed path, auth 'authenticated' without re-authentication, the envelope, no request parts, no middleware of its own and a synchronous answer.`,
    );
  }
}

/** True when zod-openapi adds validators for the route (any request part declared). */
function hasValidation(config: RouteConfig): boolean {
  const request = config.request;
  if (!request) return false;
  return Object.values(request).some((part) => part !== undefined);
}

/**
 * Builds the Hono app: its router, the request pipeline and its stages, validation and error envelopes, the
 * built-in routes of enabled modules, the docs, consumer routes and (optionally) the frontend, and the direct
 * answer the reference listener asks first. How a request then travels through them: middleware/pipeline.ts,
 * "The request path". The app is a plain value: serve it with node-server or drive it with `app.request()`.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorCode, fail } from '@svc/kernel';
import { createMasking, type SqlLog } from '@svc/logging';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import type { HttpDeps } from './deps.js';
import { createErrorHandler, createNotFoundHandler, failure, validationErrors } from './errors/handlers.js';
import { bodyLimitApplies, jsonBodyLimit } from './middleware/body-limit.js';
import {
  createDirectDispatch,
  type DirectDispatch,
  type DirectRateLimit,
  DirectRoutes,
} from './middleware/direct.js';
import { FusedRouter } from './middleware/fused-router.js';
import { createPipeline, isApiPath, type Stage } from './middleware/pipeline.js';
import { quickTraceId, traceId } from './middleware/trace-id.js';
import { registerMetricsRoute } from './observability/metrics-route.js';
import { pageSizeExceeded } from './openapi/query.js';
import { type RegisterContext, RouteTable } from './openapi/register.js';
import { opLog } from './ops/op-log.js';
import { sqlRequestScope } from './ops/sql-scope.js';
import { registerDocs } from './routes/docs/openapi.js';
import { demoMode, demoModeApplies } from './security/demo-mode.js';
import { createRouteGuards } from './security/guards.js';
import { rateLimitStage } from './security/rate-limit.js';
import { mountWebRoot } from './static/web-root.js';

export interface CreateAppOptions {
  /** Consumer routes, registered after the built-in ones and before the frontend fallback. */
  configure?: (ctx: RegisterContext, deps: HttpDeps) => void;
  /** Absolute web root when the frontend is served from this process. */
  webRoot?: string | undefined;
  /** The SQL console log: when its request summary is on, each API request gets its statement scope. */
  sqlLog?: SqlLog | undefined;
}

export interface SvcApp {
  app: OpenAPIHono<AppEnv>;
  routes: RouteTable;
  /**
   * What the reference listener asks before Hono (middleware/direct.ts); undefined when it could never decide
   * anything (metrics on, no route behind the built-in bearer guard).
   */
  direct?: DirectDispatch | undefined;
}

export function createApp(deps: HttpDeps, options: CreateAppOptions = {}): SvcApp {
  const app = new OpenAPIHono<AppEnv>({
    router: new FusedRouter(),
    defaultHook: (result, c) => {
      if (result.success) return;
      // A paged query's size above `Service:Api:MaxPageSize` (the schema refuses it only when all else is valid).
      const exceeded = pageSizeExceeded(result.error);
      if (exceeded !== undefined) return failure(c, deps.errors, ErrorCode.PageSizeExceeded, exceeded);
      const code = ErrorCode.ParamInvalid.code;
      return c.json(fail(code, deps.errors.msgKeyOf(code), { errors: validationErrors(result.error) }), 200);
    },
  });
  const onError = createErrorHandler(deps);
  app.onError(onError);
  app.notFound(createNotFoundHandler(deps));
  const routes = new RouteTable();
  const { stages, rateLimited } = pipelineStages(app, routes, deps, options);
  const pipeline = createPipeline({
    quick: quickTraceId({ metrics: deps.metrics }),
    first: traceId({ metrics: deps.metrics }),
    stages,
    onError,
  });
  // Everything passes the pipeline; routes registered with registerRoute run it themselves (FusedRouter).
  app.use('*', pipeline.middleware);

  const guards = deps.guards ?? createRouteGuards(deps.security, deps.errors);
  // The listener decides only for routes whose guards start with the built-in bearer guard of these sessions.
  const sessions = deps.security.sessions;
  const authenticateNow = sessions.authenticateNow?.bind(sessions);
  const direct = authenticateNow ? new DirectRoutes(sessions) : undefined;
  const ctx: RegisterContext = {
    app,
    table: routes,
    guards,
    pipeline,
    direct,
    maxPageSize: deps.config.service.Api.MaxPageSize,
  };
  deps.modules.registerRoutes(ctx);
  options.configure?.(ctx, deps);
  // On the main listener only when no separate metrics port is configured.
  if (deps.metrics && deps.config.service.Metrics.Port === 0) registerMetricsRoute(app, deps.metrics);
  registerDocs(app, deps);
  if (options.webRoot) mountWebRoot(app, options.webRoot);
  const dispatch =
    direct && authenticateNow
      ? createDirectDispatch({
          routes: direct,
          router: app.router as unknown as { match(method: string, path: string): unknown; version: number },
          pipeline,
          authenticateNow,
          ...(rateLimited ? { rateLimit: rateLimited } : {}),
          errors: deps.errors,
          observed: deps.metrics !== undefined,
        })
      : undefined;
  return { app, routes, direct: dispatch };
}

/**
 * The stages after the trace id, in the order the middlewares had: SQL request scope, body limit, rate limit,
 * demo mode, operation log. Each is there only when switched on, and says cheaply when it has nothing to do.
 * The body limit and the operation log read each route's own policy from the route table (openapi/policy.ts).
 */
function pipelineStages(
  app: OpenAPIHono<AppEnv>,
  routes: RouteTable,
  deps: HttpDeps,
  options: CreateAppOptions,
): { stages: Stage[]; rateLimited: DirectRateLimit | undefined } {
  const api = (c: Context<AppEnv>) => isApiPath(c.req.path);
  const stages: Stage[] = [];
  let rateLimited: DirectRateLimit | undefined;
  if (options.sqlLog?.wantsRequestScope) stages.push({ applies: api, run: sqlRequestScope(options.sqlLog) });
  stages.push({
    applies: (c) => bodyLimitApplies(c) && api(c),
    run: jsonBodyLimit({
      maxBytes: deps.config.service.Api.MaxBodyBytes,
      errors: deps.errors,
      limitOf: (method, path) => routes.policies.of(method, path)?.bodyLimit,
    }),
  });
  // `Service:Security:RateLimit:Enabled=false` is a deploy hard switch (restart needed): no stage at all.
  if (deps.config.service.Security.RateLimit.Enabled) {
    const stage = rateLimitStage(deps.security, deps.errors, deps.logger.child('Service.RateLimit'));
    const entry: Stage = { applies: api, run: stage.run, around: stage.around };
    stages.push(entry);
    rateLimited = { stage: entry, decideRaw: stage.decideRaw };
  }
  if (deps.security.demoMode) stages.push({ applies: demoModeApplies, run: demoMode(deps.errors) });
  // Every authenticated write, built-in or consumer; see ops/op-log.ts for why here and not in registerRoute.
  if (deps.config.service.Logging.OpLog.Enabled) {
    const stage = opLog({
      writer: deps.core.opLog,
      paramMaxChars: deps.config.service.Logging.OpLog.ParamMaxChars,
      resolveClientIp: deps.security.resolveClientIp,
      app,
      now: deps.now,
      // Contract §11: the configured API-key header name is masked as a fragment, whatever it is called.
      masking: createMasking({ fragments: [deps.security.apiKeyHeader] }),
      policies: routes.policies,
    });
    stages.push({
      applies: (c) => stage.applies(c) && api(c),
      run: stage.run,
      enter: stage.enter,
      leave: stage.leave,
    });
  }
  return { stages, rateLimited };
}

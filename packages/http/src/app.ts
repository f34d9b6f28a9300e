/**
 * Builds the Hono app: trace ids, body limit, validation and error envelopes, the built-in routes of enabled
 * modules, the docs, consumer routes and (optionally) the frontend. The app is a plain value: serve it with
 * node-server or drive it with `app.request()` in tests.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorCode, fail } from '@svc/kernel';
import type { SqlLog } from '@svc/logging';
import type { AppEnv } from './context.js';
import type { HttpDeps } from './deps.js';
import { createErrorHandler, createNotFoundHandler, validationErrors } from './errors/handlers.js';
import { jsonBodyLimit } from './middleware/body-limit.js';
import { traceId } from './middleware/trace-id.js';
import { registerMetricsRoute } from './observability/metrics-route.js';
import { type RegisterContext, RouteTable } from './openapi/register.js';
import { opLog } from './ops/op-log.js';
import { opsServicesFor } from './ops/services.js';
import { sqlRequestScope } from './ops/sql-scope.js';
import type { RealtimeHub } from './realtime/hub.js';
import { registerDocs } from './routes/docs/openapi.js';
import { IMPORT_BODY_PATHS } from './routes/excel/index.js';
import { registerBuiltInRoutes } from './routes/index.js';
import { ChunkPath } from './routes/ops/file/chunk.js';
import { UploadPath } from './routes/ops/file/upload.js';
import { demoMode } from './security/demo-mode.js';
import { createRouteGuards } from './security/guards.js';
import { rateLimit } from './security/rate-limit.js';
import { mountWebRoot } from './static/web-root.js';

export interface CreateAppOptions {
  /** Consumer routes, registered after the built-in ones and before the frontend fallback. */
  configure?: (ctx: RegisterContext, deps: HttpDeps) => void;
  /** Absolute web root when the frontend is served from this process. */
  webRoot?: string | undefined;
  /** The SQL console log: when its request summary is on, each API request gets its statement scope. */
  sqlLog?: SqlLog | undefined;
  /** The realtime hub, when on: its `/hub/realtime` route is mounted before the frontend fallback. */
  hub?: RealtimeHub | undefined;
}

export interface SvcApp {
  app: OpenAPIHono<AppEnv>;
  routes: RouteTable;
}

export function createApp(deps: HttpDeps, options: CreateAppOptions = {}): SvcApp {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const code = ErrorCode.ParamInvalid.code;
      return c.json(fail(code, deps.errors.msgKeyOf(code), { errors: validationErrors(result.error) }), 200);
    },
  });
  app.onError(createErrorHandler(deps));
  app.notFound(createNotFoundHandler(deps));
  app.use('*', traceId({ metrics: deps.metrics }));
  if (options.sqlLog?.wantsRequestScope) app.use('/api/*', sqlRequestScope(options.sqlLog));
  app.use(
    '/api/*',
    jsonBodyLimit({
      maxBytes: deps.config.service.Api.MaxBodyBytes,
      errors: deps.errors,
      uploads: {
        paths: [UploadPath, ChunkPath],
        maxFileBytes: deps.config.service.Upload.MaxSizeMb * 1024 * 1024,
      },
      imports: {
        paths: IMPORT_BODY_PATHS,
        maxBytes: deps.config.service.Import.MaxFileSizeMb * 1024 * 1024,
      },
    }),
  );
  // `Service:Security:RateLimit:Enabled=false` is a deploy hard switch (restart needed): no middleware at all.
  if (deps.config.service.Security.RateLimit.Enabled)
    app.use('/api/*', rateLimit(deps.security, deps.errors, deps.logger.child('Service.RateLimit')));
  if (deps.security.demoMode) app.use('*', demoMode(deps.errors));
  // Every authenticated write, built-in or consumer; see ops/op-log.ts for why a middleware and not registerRoute.
  if (deps.config.service.Logging.OpLog.Enabled) {
    app.use(
      '/api/*',
      opLog({
        writer: opsServicesFor(deps).opLog,
        paramMaxChars: deps.config.service.Logging.OpLog.ParamMaxChars,
        resolveClientIp: deps.security.resolveClientIp,
        app,
        now: deps.now,
      }),
    );
  }

  const routes = new RouteTable();
  const guards = deps.guards ?? createRouteGuards(deps.security, deps.errors);
  const ctx: RegisterContext = { app, table: routes, guards };
  registerBuiltInRoutes(ctx, deps);
  options.configure?.(ctx, deps);
  // On the main listener only when no separate metrics port is configured.
  if (deps.metrics && deps.config.service.Metrics.Port === 0) registerMetricsRoute(app, deps.metrics);
  options.hub?.mount(app);
  registerDocs(app, deps);
  if (options.webRoot) mountWebRoot(app, options.webRoot);
  return { app, routes };
}

/**
 * @svc/http: the Hono app, middleware, routes, OpenAPI contract and docs, and `createServer`, which composes
 * every layer into a running service.
 */

/** The route-definition helpers consumers use for their own routes, from the same @hono/zod-openapi instance. */
export { createRoute, z } from '@hono/zod-openapi';
export { type CreateAppOptions, createApp, type SvcApp } from './app.js';
export { type AppContext, type AppEnv, type AppVariables, readHeader } from './context.js';
export type { CoreServices, HealthCheck, HttpDeps } from './deps.js';
export { failure, validationErrors } from './errors/handlers.js';
export { httpStatusOf } from './errors/status.js';
export { seedPasswordBanner } from './host/banner.js';
export { type CreateServerOptions, createServer, type SvcServer } from './host/create-server.js';
export { type ListeningServer, listen, parseListenUrl } from './host/listen.js';
export { MODULE_LIBRARIES } from './host/module-libraries.js';
export { StartupError } from './host/startup-error.js';
export type { DirectDispatch } from './middleware/direct.js';
export { type ComposedModules, isModuleEnabled, type ModulePlan } from './module/compose.js';
export {
  type AnyModule,
  type DeclaredOptionsSpec,
  defineModule,
  defineRoute,
  type ModuleBuild,
  type ModuleDeclarations,
  type ModuleDefinition,
  type ModuleJobs,
  type ModuleLibrary,
  type ModuleOptionsSpec,
  type ModuleRoute,
  type ModuleTables,
  type ModuleUpgrade,
  moduleOptions,
  type ServicesOf,
  type SvcModule,
  type ZodOptionsSpec,
} from './module/define.js';
export { configurationTable, describeConfiguration } from './module/options-reference.js';
export type { AdminModuleServices } from './modules/admin/index.js';
export {
  adminModule,
  authModule,
  BUILT_IN_MODULES,
  cacheModule,
  configModule,
  dashboardModule,
  dictModule,
  externalAuthModule,
  healthModule,
  importModule,
  jobModule,
  logModule,
  metaModule,
  mfaModule,
  monitorModule,
  noticeModule,
  personalModule,
  portalModule,
  realtimeModule,
  recycleBinModule,
  uploadModule,
} from './modules/index.js';
export type { NoticeServices } from './modules/notice/index.js';
export { HUB_PATH, HubCloseCode, type RealtimeHub } from './modules/realtime/hub.js';
export type { RealtimeServices } from './modules/realtime/index.js';
export type { RecycleBinServices } from './modules/recycle-bin/index.js';
export type { AuthMarker, RouteMeta } from './openapi/auth.js';
export { buildDocument, errorCodeSchema } from './openapi/document.js';
export type { BodyLimit, OpLogPolicy, RoutePolicy } from './openapi/policy.js';
/**
 * The contract's query and path parameters (§3) for a module's own routes: `pageQuerySchema(filters)` (paging
 * plus filters, names case-insensitive, `size` bounded by `Service:Api:MaxPageSize` when the route registers),
 * `pageSchema` (the page envelope around an item), `idPath` (`{id}`), and the filter types `textParam`,
 * `intParam`, `idParam`, `boolParam` (malformed values answer 48000 naming the parameter).
 */
export {
  boolParam,
  idParam,
  idPath,
  intParam,
  pageQuerySchema,
  pageSchema,
  textParam,
} from './openapi/query.js';
export {
  type RegisterContext,
  type RouteGuards,
  type RouteOptions,
  RouteTable,
  registerRoute,
  withAuth,
} from './openapi/register.js';
export {
  commonErrorResponses,
  ErrorEnvelopeSchema,
  envelopeOf,
  envelopeResponses,
} from './openapi/schemas.js';
export { SCALAR_PACKAGE, SCALAR_RANGE } from './routes/docs/scalar-bundle.js';
export type { CookieSettings, HttpSecurity } from './security/deps.js';
export { bearerToken, createRouteGuards, type ReauthCheck } from './security/guards.js';
export { requirePrincipal, requireUser } from './security/principal.js';
export { uploadRootExposure } from './static/web-root.js';

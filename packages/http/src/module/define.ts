/**
 * The one shape of a module, built-in or a consumer's: `defineModule` declares what a module brings (its name in
 * `Service:Api:DisabledModules`, its options, error codes, seed menus, the services it builds once from the core
 * and from the modules it depends on, its routes, health checks, the user-purge hook, start and close), and `defineRoute` declares
 * one route with its policy. `createServer({ modules })` composes them (module/compose.ts): enabled modules only,
 * built once in dependency order, the switch read in one place.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { PeerNeed, SeedMenu, SiteFeature } from '@svc/data';
import type { Configuration, DbType, ErrorCodeSet, Infer, Section } from '@svc/kernel';
import type { AlertAdministrators, JobHandlerEntry, JobReclaimer } from '@svc/modules';
import type { RecycleBinType } from '@svc/security';
import type { z } from 'zod';
import type { AppEnv } from '../context.js';
import type { GaugeSource } from '../observability/metrics.js';
import { type RegisterContext, type RouteOptions, registerRoute } from '../openapi/register.js';
import type { HealthCheck, ModuleCore } from './core.js';

/** What a module's `services` factory (and its other hooks) receive. */
export interface ModuleBuild<O, T = unknown> {
  core: ModuleCore;
  /** The module's options, parsed from its configuration section with its schema's defaults. */
  options: O;
  /** The module's own tables on the connected dialect (typed as its SQLite set), migrated before it is built. */
  tables: T;
  /**
   * The public services of a module this one declares in `dependsOn` (or `optional` — then undefined when that
   * module is off). Asking for any other module is a programming error and throws.
   */
  use<M extends AnyModule>(module: M): ServicesOf<M>;
  useOptional<M extends AnyModule>(module: M): ServicesOf<M> | undefined;
  /** What the enabled modules declare (for the module that serves a declaration: Realtime and the message kinds). */
  declared: ModuleDeclarations;
  /**
   * What the enabled modules declare for the scheduled jobs (`jobs`, `reclaimers`, `jobAlert`), known once every
   * module is built (read it from `start`, or lazily from a service); module `Job` registers and runs them.
   */
  moduleJobs(): ModuleJobs;
  /**
   * The `siteFeatures` of the enabled modules, known once every module is built (read it lazily, at request time);
   * module `Config` puts them into the login page's site info.
   */
  moduleSiteFeatures(): readonly SiteFeature[];
}

/** The scheduled-job contributions of the enabled modules, in the order the modules were given. */
export interface ModuleJobs {
  /** Compiled handlers, each with the module declaring it; no two share a name. */
  readonly handlers: readonly (JobHandlerEntry & { readonly module: string })[];
  /** Run by the seeded log clean-up job, after the run log. */
  readonly reclaimers: readonly JobReclaimer[];
  /** Told when a job with `alertByNotice` goes to Panic; none declared leaves the Job module's default. */
  readonly alerts: readonly AlertAdministrators[];
}

/** What the definitions of the enabled modules declare, read before anything is built. */
export interface ModuleDeclarations {
  /** Realtime message kinds (`realtimeKinds`), each with the name of the module declaring it. */
  readonly realtimeKinds: ReadonlyMap<string, string>;
}

/**
 * Connections a module takes off the HTTP path on the reference listener (`listen`): Node hands the module the
 * upgrade requests it accepts (every other request carrying `Upgrade` is served as the plain HTTP request it also
 * is). Module `Realtime` takes the WebSocket upgrades of `/hub/realtime` this way.
 */
export interface ModuleUpgrade {
  /** Whether an upgrade request is this module's (asked when its headers are parsed: method, URL, headers). */
  accepts(request: IncomingMessage): boolean;
  /** Takes a request it accepted from the server's `upgrade` event; the socket is the module's from then on. */
  handle(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * The listener stops accepting: end the upgraded connections, which are no requests the drain waits for (the
   * module's `close` still runs later with the server's).
   */
  drain(): Promise<void>;
}

/**
 * One route of a module: its definition (method and path, read before anything registers) and its registration.
 * A route outside the API contract (no OpenAPI operation: the realtime hub's upgrade route) registers straight on
 * `ctx.app`; declared here, its path still takes part in the clash check.
 */
export interface ModuleRoute<S> {
  readonly route: Pick<RouteConfig, 'method' | 'path'>;
  register(ctx: RegisterContext, services: S): void;
}

/**
 * A module's options: the section under `Service` they are read from (`Service:<section>:…` in files and
 * `Service__<section>__…` in the environment; a nested section is written `Security:Passkey`) and the schema
 * parsing it, with its defaults. The schema is either zod, or the configuration's own declaration (`section`,
 * `int`, `str`, … of @svc/kernel, given through {@link moduleOptions}): that one takes the forms every other key
 * takes (`1`/`true`, decimal integers only, lists as `__0` entries), warns about unknown keys and appears in the
 * configuration reference.
 */
export type ModuleOptionsSpec<O> = ZodOptionsSpec<O> | DeclaredOptionsSpec<O>;

export interface ZodOptionsSpec<O> {
  section: string;
  schema: z.ZodType<O>;
}

export interface DeclaredOptionsSpec<O> {
  section: string;
  /** Declared with the leaves of @svc/kernel's options (`section({ MaxRows: int(10_000, '…') })`). */
  declared: Section;
  /** The parsed type, carried for inference only. */
  readonly parsed?: O;
}

/**
 * Options declared with the configuration's own leaves.
 * @example options: moduleOptions('Shop', section({ PageLimit: int(50, 'Most products a page shows.', { min: 1 }) }))
 */
export function moduleOptions<S extends Section>(
  section: string,
  declared: S,
): DeclaredOptionsSpec<Infer<S>> {
  return { section, declared };
}

/**
 * A library a module loads only when it is on and its options need it (an optional peer of the package whose code
 * imports it). Start-up checks it before anything connects, as for the database drivers: a missing one or one
 * outside its supported major stops start-up naming the package to install.
 */
export interface ModuleLibrary {
  /** The packages and version ranges, with the setting that selects them (for the start-up message). */
  needs: readonly PeerNeed[];
  /** Imports the library (start-up calls it only when the package.json check cannot tell). */
  load: () => Promise<unknown>;
  /** Where it resolves from: the `import.meta.url` of the package whose code imports it. */
  from: string;
}

/**
 * A module's own tables: the drizzle table objects of each dialect under the same keys (check them with
 * `TablesConform` of @svc/data) and drizzle-kit's migrations folder per dialect. At start-up the composition root
 * applies the connected dialect's migrations under the module's own journal (when code-first creation is on;
 * otherwise it checks the tables exist and stops naming the missing ones), before the module is built.
 */
export interface ModuleTables<T> {
  Sqlite: T;
  PostgreSQL?: { readonly [K in keyof T]: unknown };
  MySql?: { readonly [K in keyof T]: unknown };
  SqlServer?: { readonly [K in keyof T]: unknown };
  /** drizzle-kit's output per dialect: a path or a `file:` URL (`new URL('../migrations/pg', import.meta.url)`). */
  migrations: { readonly [D in DbType]?: string | URL };
  /** The journal table of the module's migrations. @default `sys_schema_version_<name in lower case>` */
  journal?: string;
}

export interface ModuleDefinition<Name extends string, S, O, T = unknown> {
  /** The module's name: its entry in `Service:Api:DisabledModules` and its `x-module` in the contract. */
  name: Name;
  /** False for the modules the service cannot run without (listed in DisabledModules, they stay on with a start-up warning). @default true */
  switchable?: boolean;
  /**
   * Extra condition besides the switch (e.g. `Service:Realtime:Enabled`), asked with the module's parsed options;
   * false leaves the module off.
   */
  when?: (config: Configuration, options: O) => boolean;
  /** Modules whose services this one uses; each must be enabled when this one is. */
  dependsOn?: readonly AnyModule[];
  /** Modules this one uses when they are on (`useOptional`). */
  optional?: readonly AnyModule[];
  options?: ModuleOptionsSpec<O>;
  /**
   * Problems of the module's options (each naming its key) that stop start-up before anything connects, when the
   * schema alone cannot tell (a value that depends on another section or on the environment).
   */
  check?: (options: O, config: Configuration) => readonly string[];
  /** The optional libraries the module loads with these options, checked at start-up (see {@link ModuleLibrary}). */
  libraries?: (options: O, config: Configuration) => readonly ModuleLibrary[];
  /** The module's own tables per dialect, with their migrations. */
  tables?: ModuleTables<T>;
  /** The module's error codes (its own number segment); two modules claiming one number fail start-up. */
  errorCodes?: readonly ErrorCodeSet[];
  /** Menus and buttons added to the default tree at first start. */
  seedMenus?: readonly SeedMenu[];
  /**
   * The realtime message kinds the module sends (module `Realtime`'s `publish`; the socket gets `{type: kind,
   * data}`). Two enabled modules claiming one kind fail start-up; publishing a kind no module declares throws.
   */
  realtimeKinds?: readonly string[];
  /** Builds the module's services once, after the modules it depends on. */
  services?: (build: ModuleBuild<O, T>) => S | Promise<S>;
  /** The module's routes, registered in this order (fixed paths before the `{id}` routes that would take them). */
  routes?: readonly ModuleRoute<NoInfer<S>>[];
  /**
   * Compiled job handlers this module brings (names as `handlerName` of a job with `handlerKind` 1). Module `Job`
   * registers those of every enabled module; two modules declaring one name fail start-up naming both.
   */
  jobs?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => readonly JobHandlerEntry[];
  /** What the seeded log clean-up job (module `Job`) runs to free what this module left behind. */
  reclaimers?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => readonly JobReclaimer[];
  /**
   * Told when a job with `alertByNotice` goes to Panic. Declared by any enabled module, these replace the Job
   * module's default (a notice to the super administrators while module `Notice` is on).
   */
  jobAlert?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => AlertAdministrators;
  /**
   * True for the module that runs the other modules' jobs (module `Job`): it starts after every other module and
   * closes before them, so no handler runs before its module started or after it closed. @default false
   */
  runsJobs?: boolean;
  /**
   * The module's recycle-bin types (`softDeleteRecycleType` of @svc/security, or a hand-written
   * `RecycleBinType`), made from its services once every module is built and registered into the bin of module
   * `RecycleBin` while that is on. A module that is off registers none; two modules claiming one type name fail
   * start-up naming both.
   */
  recycleTypes?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => readonly RecycleBinType[];
  /**
   * The module's Prometheus series, read at scrape time (`GaugeSource`: a gauge, a running total with `kind:
   * 'counter'`, one number or one per label value), registered while `Service:Metrics:Enabled`. A name another
   * module or the service already uses stops start-up naming both.
   */
  metrics?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => readonly GaugeSource[];
  /**
   * Told when a user is deleted for good (a recycle-bin purge, or any other `repos.users.purge` of the server),
   * once the user's row is gone: remove what the module keeps per user (module Passkey: the user's passkeys).
   * Only enabled modules are told, in build order; a failure is logged naming the module and the user, the other
   * modules are still told and the purge stands (what is left belongs to no user: user ids are never reused).
   */
  onUserPurged?: (services: NoInfer<S>, userId: number, build: ModuleBuild<O, T>) => Promise<void> | void;
  /**
   * Flags the login page learns from the anonymous site info (`GET /api/v1/sys/config/site`, `features`), while
   * module `Config` is on: `{ name, read, keys }`, `read` asked when the cached answer is built, `keys` the runtime
   * keys whose change drops it (module Passkey: `passkey`, on while passkeys work). Two modules declaring one name
   * stop start-up naming both.
   */
  siteFeatures?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => readonly SiteFeature[];
  /** Checked by `GET /health/ready`. */
  health?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => readonly HealthCheck[];
  /** The connections the module takes off the HTTP path on the reference listener (see {@link ModuleUpgrade}). */
  upgrade?: (services: NoInfer<S>) => ModuleUpgrade | undefined;
  /** Runs after every module is built and the routes are registered, in dependency order. */
  start?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => Promise<void> | void;
  /** Runs at shutdown, in reverse dependency order; errors are logged, never thrown. */
  close?: (services: NoInfer<S>, build: ModuleBuild<O, T>) => Promise<void> | void;
}

/** A defined module: its definition, frozen. */
export interface SvcModule<Name extends string = string, S = unknown, O = unknown, T = unknown>
  extends Readonly<ModuleDefinition<Name, S, O, T>> {
  readonly kind: 'svc-module';
}

// biome-ignore lint/suspicious/noExplicitAny: the variance-free shape of any module, for lists and constraints.
export type AnyModule = SvcModule<string, any, any, any>;

/** The options a module parses. */
// biome-ignore lint/suspicious/noExplicitAny: any services and tables match.
export type OptionsOf<M> = M extends SvcModule<string, any, infer O, any> ? O : never;

/** The services a module builds. */
// biome-ignore lint/suspicious/noExplicitAny: options sit in a contravariant position; any module matches.
export type ServicesOf<M> = M extends SvcModule<string, infer S, any, any> ? S : never;

/**
 * Defines a module.
 * @example
 * export const shop = defineModule({
 *   name: 'Shop',
 *   dependsOn: [admin],
 *   services: ({ core, use }) => createShopServices(core.repos, use(admin)),
 *   routes: [productPage, productCreate],
 * });
 */
export function defineModule<const Name extends string, S = unknown, O = unknown, T = unknown>(
  definition: ModuleDefinition<Name, S, O, T>,
): SvcModule<Name, S, O, T> {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(definition.name))
    throw new TypeError(
      `Module name "${definition.name}" must be letters and digits, starting with a letter.`,
    );
  return Object.freeze({ ...definition, kind: 'svc-module' as const });
}

/**
 * Defines one route of a module: the `createRoute` definition, its policy (auth marker, re-authentication, …)
 * and a handler made from the module's services. A policy that depends on the module's options (a body limit
 * from its section) is given as a function of the services, asked once when the route registers.
 * @example
 * export default defineRoute(route, { auth: 'permission', reauth: true }, (shop: ShopServices) => async (c) =>
 *   c.json(ok(await shop.products.remove(c.req.valid('param').id)), 200));
 * @example
 * defineRoute(route, (s: ShopServices) => ({ auth: 'permission', bodyLimit: s.options.MaxImageKb * 1024 }), handler);
 */
export function defineRoute<S, R extends RouteConfig>(
  route: R,
  options: RouteOptions | ((services: S) => RouteOptions),
  handler: (services: S) => RouteHandler<R, AppEnv>,
): ModuleRoute<S> {
  return {
    route,
    register: (ctx, services) =>
      registerRoute(
        ctx,
        route,
        typeof options === 'function' ? options(services) : options,
        handler(services),
      ),
  };
}

/**
 * Composes the layers into a running service: configuration, error codes, signing key, database (migrated or
 * checked), first-start seed, cache, and the HTTP app. Every failure an operator can fix becomes a
 * `StartupError` whose message names the key to change.
 */
import { readFileSync } from 'node:fs';
import {
  CONFIG_CHANGED_CHANNEL,
  type ConfigStore,
  createConfigStore,
  DICT_CHANGED_CHANNEL,
  type NewLoginLog,
  type SeedMenu,
} from '@svc/data';
import type { Cache, ResilientCache } from '@svc/data/cache';
import { createMemoryCache, createRedisCache, createResilientCache } from '@svc/data/cache';
import type { Configuration, ErrorCodeSet, Logger, ResolvedJwtKey } from '@svc/kernel';
import {
  ErrorCodeRegistry,
  loadConfiguration,
  resolveContentPath,
  resolveJwtKey,
  systemNow,
} from '@svc/kernel';
import {
  createExceptionRecorder,
  createSqlLog,
  createStructuredLogger,
  type DurableLogWriter,
  OP_LOG_DRAIN_MS,
  type OpLogWriter,
  resolveSqlColor,
} from '@svc/logging';
import type { JobSystem } from '@svc/modules';
import {
  DATABASE_BACKED_CACHE_PREFIXES,
  type MfaServices,
  RECOVERY_COUNTERS,
  SHARED_ONLY_CACHE_PREFIXES,
  type SmsSender,
} from '@svc/security';
import { type CreateAppOptions, createApp, type SvcApp } from '../app.js';
import type { HttpDeps } from '../deps.js';
import { type ComposedModules, composeModules, planModules } from '../module/compose.js';
import type { ModuleCore } from '../module/core.js';
import type { AnyModule } from '../module/define.js';
import { BUILT_IN_MODULES, jobModule, recycleBinModule } from '../modules/index.js';
import { uploadExposureOf } from '../modules/upload/index.js';
import { createServiceMetrics, type ServiceMetrics } from '../observability/metrics.js';
import { observeCache, observeLoginLog, registerServerGauges } from '../observability/sources.js';
import type { RouteTable } from '../openapi/register.js';
import { createRouteGuards } from '../security/guards.js';
import { type OpenedDatabase, prepareDatabase } from './database.js';
import { withDurableLoginLog } from './durable-logs.js';
import { buildMfa, lateLoginHooks } from './mfa.js';
import { checkModuleLibraries } from './module-libraries.js';
import { createServiceOpLog } from './op-log-writer.js';
import { buildSecurity, type SecurityServices } from './security.js';
import { asStartupError, StartupError } from './startup-error.js';
import { withUserPurgeHooks } from './user-purge.js';

export interface CreateServerOptions {
  /** Content root when `ASPNETCORE_CONTENTROOT` is not set. @default process.cwd() */
  contentRoot?: string;
  /** Environment variables. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Host defaults in code (`{ Service: {...} }`); appsettings files and the environment override them. */
  defaults?: Record<string, unknown>;
  /**
   * The consumer's modules (`defineModule`), composed after the built-in ones: built once in dependency order,
   * switched by `Service:Api:DisabledModules`; a clash of names, codes or routes stops start-up.
   */
  modules?: readonly AnyModule[];
  /** Consumer error-code sets; two sets claiming one number stop start-up. */
  errorCodes?: readonly ErrorCodeSet[];
  /** @default the structured logger (pretty on a Development terminal, else JSON lines) honouring `Logging:LogLevel` */
  logger?: Logger;
  /** Consumer routes. */
  configure?: CreateAppOptions['configure'];
  /** Seed menus added to the default tree at first start (buttons for the consumer's permission routes). */
  seedMenus?: readonly SeedMenu[];
  /** The service clock. @default () => new Date() */
  now?: () => Date;
  /** Where SMS codes go (an SMS gateway). @default writes `[SMS] purpose=… phone=… code=…` to the log */
  smsSender?: SmsSender;
  /**
   * How often a degraded Redis cache pings the server to find it back (tests shorten it).
   * @default 1000
   */
  cacheProbeIntervalMs?: number;
}

export interface SvcServer extends SvcApp {
  config: Configuration;
  deps: HttpDeps;
  database: OpenedDatabase;
  cache: Cache;
  /** The Redis cache with its in-process fallback and health state; undefined with the memory provider. */
  resilientCache: ResilientCache | undefined;
  configStore: ConfigStore;
  security: SecurityServices;
  jwtKey: ResolvedJwtKey;
  /** The audit writers: their `stats()` (queued, spilled, dropped…) are for the monitor and fault tests. */
  logWriters: { opLog: OpLogWriter; loginLog: DurableLogWriter<NewLoginLog> };
  /** Prometheus metrics when `Service:Metrics:Enabled`; `listen` serves them on their own port if configured. */
  metrics: ServiceMetrics | undefined;
  /** The modules of this server: `modules.servicesOf(adminModule)`, `modules.plan.isEnabled('Job')`. */
  modules: ComposedModules;
  /**
   * The job system of module `Job` (engine and service; handlers come from the modules' `jobs`); undefined when
   * `Job` is disabled.
   */
  jobs: JobSystem | undefined;
  /** Closes the cache and the database (the listener is closed by `listen`'s handle). */
  close(): Promise<void>;
}

/** The version written into the contract: this package's own. */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Builds the service. Throws `StartupError` for anything the operator must fix (bad option, short signing key,
 * unreachable database or cache, missing tables in Production, conflicting error codes, exposed upload root).
 */
export async function createServer(options: CreateServerOptions = {}): Promise<SvcServer> {
  let config: Configuration;
  try {
    config = loadConfiguration({
      ...(options.contentRoot ? { contentRoot: options.contentRoot } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.defaults ? { defaults: options.defaults } : {}),
      moduleSections: [...BUILT_IN_MODULES, ...(options.modules ?? [])].flatMap(
        (m) => m.options?.section ?? [],
      ),
    });
  } catch (error) {
    throw asStartupError(error);
  }
  const logger =
    options.logger ??
    createStructuredLogger({
      levels: config.logging.LogLevel,
      development: config.environment.isDevelopment,
    });
  const startup = logger.child('Service.Startup');
  for (const warning of config.warnings) startup.warn(warning);

  const { service, environment } = config;
  let errors: ErrorCodeRegistry;
  let jwtKey: ResolvedJwtKey;
  let plan: ReturnType<typeof planModules>;
  try {
    plan = planModules([...BUILT_IN_MODULES, ...(options.modules ?? [])], config, (warning) =>
      startup.warn(warning),
    );
    errors = new ErrorCodeRegistry([...plan.errorCodes, ...(options.errorCodes ?? [])]);
    const exposure = uploadExposureOf(config);
    if (exposure) throw new StartupError(exposure);
    jwtKey = resolveJwtKey({
      secretKey: service.Jwt.SecretKey,
      isDevelopment: environment.isDevelopment,
      contentRoot: environment.contentRoot,
    });
  } catch (error) {
    throw asStartupError(error);
  }
  // Before the database: an enabled module whose library is missing or unsupported names the package to install.
  try {
    await checkModuleLibraries(plan.libraries);
  } catch (error) {
    throw asStartupError(error);
  }
  if (jwtKey.source === 'dev-file') startup.warn(`Using the development signing key at ${jwtKey.path}.`);

  const now = options.now ?? systemNow;
  // Off by default: then nothing is measured and nothing below is decorated.
  const metrics = service.Metrics.Enabled ? createServiceMetrics() : undefined;
  const sqlOptions = service.Database.SqlLog;
  const sqlLog = createSqlLog({
    logger: logger.child('Service.Sql'),
    enabled: sqlOptions.Enabled,
    minMillis: sqlOptions.MinMillis,
    maxSqlChars: sqlOptions.MaxSqlChars,
    requestSummary: sqlOptions.RequestSummary,
    color: resolveSqlColor(sqlOptions.Color, process.stdout.isTTY, options.env ?? process.env),
    slowMillis: service.Database.SlowSqlMillis,
    logFailed: service.Database.LogFailedSql,
  });
  const database = await prepareDatabase(
    config,
    logger,
    { extraMenus: [...plan.seedMenus, ...(options.seedMenus ?? [])], now, modules: plan.enabled },
    sqlLog,
  );
  let cache: Cache;
  let resilientCache: ResilientCache | undefined;
  const cacheLog = logger.child('Service.Cache');
  // Failures inside the cache (a subscriber that throws, a lost Redis connection) go to the service log;
  // while Redis is known to be down its reconnect failures are not repeated there.
  const onError = (error: unknown) => {
    if (resilientCache?.health() === 'Degraded') return;
    cacheLog.error('Cache error.', { error });
    // A dropped connection is news before any request notices: check now, so the fallback takes over.
    void resilientCache?.probe().catch(() => {});
  };
  try {
    if (service.Cache.Provider === 'Redis') {
      const shared = await createRedisCache({
        url: requireRedisUrl(service.Cache.Redis.Configuration),
        keyPrefix: service.Cache.Redis.KeyPrefix,
        onError,
        // Redis away at start is the outage it is a minute later: start degraded (contract §11).
        startOffline: true,
      });
      resilientCache = createResilientCache({
        shared,
        fallback: createMemoryCache({
          entryLimit: service.Cache.MemoryEntryLimit,
          maxEntryMinutes: service.Cache.MaxEntryMinutes,
          onError,
        }),
        sharedOnlyPrefixes: SHARED_ONLY_CACHE_PREFIXES,
        databaseBackedPrefixes: DATABASE_BACKED_CACHE_PREFIXES,
        recoveryCounters: RECOVERY_COUNTERS,
        // Change events sent while Redis was down were lost: every instance drops its config and dictionary copies.
        recoveryMessages: [
          { channel: CONFIG_CHANGED_CHANNEL, message: { key: null } },
          { channel: DICT_CHANGED_CHANNEL, message: { typeCode: null } },
        ],
        ...(options.cacheProbeIntervalMs ? { probeIntervalMs: options.cacheProbeIntervalMs } : {}),
        onStateChange: (state, cause) => {
          if (state === 'Degraded') {
            cacheLog.warn(
              'Redis is unavailable: sessions and permissions are read from the database, lockout, rate limits ' +
                'and re-auth windows continue per instance, captcha, SMS and TOTP challenges answer 503 (50004).',
              { error: cause },
            );
          } else {
            cacheLog.info('Redis is back: local caches dropped, shared counters in use again.');
          }
        },
        onError: (error) => cacheLog.error('Cache error.', { error }),
      });
      cache = resilientCache;
    } else {
      cache = createMemoryCache({
        entryLimit: service.Cache.MemoryEntryLimit,
        maxEntryMinutes: service.Cache.MaxEntryMinutes,
        onError,
      });
    }
  } catch (error) {
    await database.close();
    throw asStartupError(error, 'Service:Cache');
  }
  cache = observeCache(cache, metrics);

  // Login-log rows the database refuses are kept (retried, spilled) like operation-log rows.
  const durableLogin = withDurableLoginLog(database.repos, {
    dir: resolveContentPath(environment.contentRoot, 'data'),
    maxBytes: service.Logging.OpLog.SpillMaxMb * 1024 * 1024,
    logger: logger.child('Service.LoginLog'),
  });
  // The modules are composed further down; a purge runs at request time, when they are.
  let userPurged: (userId: number) => Promise<void> = async () => {};
  const repos = withUserPurgeHooks(observeLoginLog(durableLogin.repos, metrics), (userId) =>
    userPurged(userId),
  );

  let configStore: ConfigStore;
  let security: SecurityServices;
  let mfa: MfaServices;
  // The route table exists once the app is built; the high-sensitivity list reads it at request time.
  let routeTable: RouteTable | undefined;
  const loginHooks = lateLoginHooks();
  try {
    configStore = await createConfigStore({
      repo: repos.configs,
      cache,
      ttlMs: service.Cache.PermissionMinutes * 60_000,
    });
    security = buildSecurity({
      config,
      repos,
      cache,
      configStore,
      jwtKey,
      logger,
      now,
      hooks: loginHooks.hooks,
      metrics,
    });
    // Codes a menu upgrade gave to seeded buttons reach the users who hold them now, not after the cache's TTL.
    if (database.menusUpgraded) await security.permissions.invalidateAll();
    const auth = security.auth;
    const builtMfa = buildMfa({
      config,
      database: database.database,
      repos,
      cache,
      settings: security.http.settings,
      auth: () => auth,
      sessions: security.sessions,
      passwords: security.passwords,
      logger,
      now,
      knownPermissionCodes: () => routeTable?.permissionRoutes().flatMap((r) => r.permissionCode ?? []) ?? [],
      smsSender: options.smsSender,
      metrics,
    });
    mfa = builtMfa.services;
    // Before any request: a leaked table then holds no unkeyed recovery code (docs/security-model.md).
    await builtMfa.rewrapLegacyRecoveryCodes();
    loginHooks.bind(mfa.steps.hooks);
  } catch (error) {
    durableLogin.writer.close();
    await Promise.allSettled([cache.close(), database.close()]);
    throw asStartupError(error);
  }

  const readiness: HttpDeps['readiness'] = [
    // A database that cannot serve a request within the acquire timeout (an SQLite file held by another
    // writer included) makes requests answer 503: readiness says so within the same bound (contract §11).
    {
      name: 'database',
      check: () => database.database.probe(),
      timeoutMs: service.Database.AcquireTimeoutSeconds * 1000,
    },
    {
      name: 'cache',
      // Redis down is Degraded (200), not Unhealthy: the fallbacks serve (contract §10).
      check: async () => {
        if (resilientCache === undefined) return cache.ping();
        return (await resilientCache.probe()) === 'Degraded' ? 'Degraded' : undefined;
      },
    },
  ];
  // Built once for the server: the op-log stage, module Monitor and the shutdown drain share it.
  const opLog = createServiceOpLog({ repo: repos.opLogs, config, logger });
  const coreServices: HttpDeps['core'] = {
    database: database.database,
    repos,
    cache,
    configStore,
    auth: security.auth,
    sessions: security.sessions,
    permissions: security.permissions,
    jwtKey,
    passwords: security.passwords,
    mfa,
    opLog,
  };
  const exceptions = createExceptionRecorder({
    sink: database.repos.exceptionLogs,
    logger: logger.child('Service.Exceptions'),
    now,
  });
  const moduleCore: ModuleCore = {
    ...coreServices,
    config,
    errors,
    logger,
    now,
    exceptions,
    security: security.http,
    metrics,
    cacheHealth: resilientCache,
    readiness,
  };
  const modules = composeModules(plan, moduleCore, {
    logger: startup,
    recycleBin: (servicesIfOn) => servicesIfOn(recycleBinModule)?.recycleBin,
  });
  userPurged = (userId) => modules.userPurged(userId);
  const deps: HttpDeps = {
    config,
    errors,
    logger,
    exceptions,
    readiness,
    version: packageVersion(),
    metrics,
    security: security.http,
    guards: createRouteGuards(security.http, errors, mfa.reauth),
    core: coreServices,
    now,
    modules,
  };
  if (metrics) {
    registerServerGauges(metrics, {
      database: database.database,
      cache,
      rateLimiter: security.http.rateLimiter,
      opLog,
      loginLog: durableLogin.writer,
    });
  }
  try {
    await modules.build();
    // After the service's own series: a module's name clashing with one of them is refused naming it.
    if (metrics) modules.registerMetrics(metrics);
  } catch (error) {
    opLog.close();
    durableLogin.writer.close();
    await Promise.allSettled([cache.close(), database.close()]);
    throw asStartupError(error);
  }
  readiness.push(...modules.health());
  const built = createApp(deps, {
    ...(options.configure ? { configure: options.configure } : {}),
    sqlLog,
    webRoot: service.Web.Enabled
      ? resolveContentPath(environment.contentRoot, service.Web.RootPath)
      : undefined,
  });

  routeTable = built.routes;

  // The module Job starts its engine here, after the other modules started.
  try {
    await modules.start();
  } catch (error) {
    await modules.close();
    await Promise.allSettled([cache.close(), database.close()]);
    throw asStartupError(error, 'A module could not start');
  }

  let closed = false;
  return {
    ...built,
    config,
    deps,
    // The repositories the services use (login log kept durable, purges told to the modules), so a caller of
    // server.database.repos goes through the same doors as a request.
    database: { ...database, repos },
    cache,
    resilientCache,
    configStore,
    security,
    jwtKey,
    logWriters: { opLog, loginLog: durableLogin.writer },
    metrics,
    modules,
    jobs: modules.servicesIfOn(jobModule)?.jobs,
    async close() {
      if (closed) return;
      closed = true;
      // The job engine stops first (module Job closes before the others): runs in flight are aborted and written
      // before the pools close.
      await modules.close();
      // Spec: the operation-log queue gets 5 s to drain before the pools close; what is left is spilled.
      await Promise.all([
        opLog.drain(OP_LOG_DRAIN_MS).catch(() => {}),
        durableLogin.writer.drain(OP_LOG_DRAIN_MS).catch(() => {}),
      ]);
      opLog.close();
      durableLogin.writer.close();
      // The repeats counted in open exception windows get their summary rows before the pool closes.
      await deps.exceptions.flush?.(true).catch(() => {});
      deps.exceptions.close?.();
      await configStore.close().catch(() => {});
      await Promise.allSettled([cache.close(), database.close()]);
    },
  };
}

function requireRedisUrl(url: string | null): string {
  if (!url)
    throw new StartupError(
      'Service:Cache:Redis:Configuration is required when Service:Cache:Provider is Redis.',
    );
  return url;
}

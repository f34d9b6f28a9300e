/**
 * What the composition root hands every module: the services below HTTP (database, cache, sessions, second
 * factors, …), the configuration, error codes, logger and clock.
 */
import type { ConfigStore, Database, Repositories } from '@svc/data';
import type { Cache, ResilientCache } from '@svc/data/cache';
import type { Configuration, ErrorCodeRegistry, Logger, ResolvedJwtKey } from '@svc/kernel';
import type { ExceptionRecorder, OpLogWriter } from '@svc/logging';
import type {
  MfaServices,
  PasswordCheck,
  PermissionCache,
  SessionAuthService,
  SessionManager,
} from '@svc/security';
import type { ServiceMetrics } from '../observability/metrics.js';
import type { HttpSecurity } from '../security/deps.js';

/** The services below HTTP that route modules build their own services from. */
export interface CoreServices {
  database: Database;
  repos: Repositories;
  cache: Cache;
  /** Runtime `sys.*` values with change events. */
  configStore: ConfigStore;
  auth: SessionAuthService;
  /** Revocation of sessions (forced logout, disable/delete of users). */
  sessions: SessionManager;
  /** Permission codes per user, with invalidation after grant changes. */
  permissions: PermissionCache;
  jwtKey: ResolvedJwtKey;
  /**
   * The one lock-aware password check of the login, with both counters (password, second factor) and the
   * login-log writer: a module's way in (a passkey) follows the same locks and writes the same rows.
   */
  passwords: PasswordCheck;
  /** Captcha, SMS and TOTP steps, re-authentication and the high-sensitivity list (the login hooks' instance). */
  mfa: MfaServices;
  /**
   * The operation-log writer (built once by the composition root): the op-log stage queues into it, module
   * `Monitor` reports its state, the host drains it at shutdown.
   */
  opLog: OpLogWriter;
}

/**
 * A dependency the readiness probe checks. `check` rejects (or times out) when the dependency is down, which
 * makes the service Unhealthy; it resolves `'Degraded'` when the service still works without it (Redis down,
 * the database and in-process fallbacks serving meanwhile, contract §10); any other value means healthy.
 */
export interface HealthCheck {
  name: string;
  check(): Promise<unknown>;
  /** How long the check may take before it counts as failed. @default 3000 (READINESS_TIMEOUT_MS) */
  timeoutMs?: number;
}

/** What every module builds its services from: the layers below HTTP, as the composition root built them. */
export interface ModuleCore extends CoreServices {
  config: Configuration;
  errors: ErrorCodeRegistry;
  logger: Logger;
  /** The service clock. */
  now: () => Date;
  exceptions: ExceptionRecorder;
  /** Authentication, rate limits, runtime settings, client IP resolution. */
  security: HttpSecurity;
  /** Prometheus metrics when `Service:Metrics:Enabled`. */
  metrics: ServiceMetrics | undefined;
  /** Every readiness check: the core's (database, cache) and each module's `health`, once all are built. */
  readiness: readonly HealthCheck[];
  /** The Redis cache's health state (probe and changes: the realtime hub's resync); undefined with the in-process cache. */
  cacheHealth: Pick<ResilientCache, 'health' | 'probe' | 'onStateChange'> | undefined;
}

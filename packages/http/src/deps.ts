/**
 * What the HTTP layer needs from the layers below, passed in (never reached through module singletons), so
 * that every piece can be replaced by a consumer or a test.
 */
import type { ConfigStore, Database, Repositories } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import type { Configuration, ErrorCodeRegistry, Logger, ResolvedJwtKey } from '@svc/kernel';
import type { ExceptionRecorder } from '@svc/logging';
import type { MfaServices, PermissionCache, SessionAuthService, SessionManager } from '@svc/security';
import type { JobModule } from './jobs/module.js';
import type { ServiceMetrics } from './observability/metrics.js';
import type { RouteGuards } from './openapi/register.js';
import type { HttpSecurity } from './security/deps.js';

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
  /** Captcha, SMS and TOTP steps, re-authentication and the high-sensitivity list (the login hooks' instance). */
  mfa: MfaServices;
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

export interface HttpDeps {
  config: Configuration;
  errors: ErrorCodeRegistry;
  logger: Logger;
  exceptions: ExceptionRecorder;
  /** Checked by `GET /health/ready`. */
  readiness: HealthCheck[];
  /** Database, cache and security services. */
  core: CoreServices;
  /** Authentication, rate limits, demo mode and cookie mode. */
  security: HttpSecurity;
  /** Enforcement of route markers. @default the guards built from `security` */
  guards?: RouteGuards;
  /** The clock of the HTTP layer (timestamps in answers). */
  now: () => Date;
  /** Package version shown in the contract. */
  version: string;
  /** Prometheus metrics (`Service:Metrics:Enabled`); undefined when off, and then nothing is measured. */
  metrics?: ServiceMetrics | undefined;
  /** Scheduled jobs (module `Job`); undefined when the module is disabled, and then its routes are absent. */
  jobs?: JobModule | undefined;
}

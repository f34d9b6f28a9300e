import type { Configuration, ErrorCodeRegistry, Logger } from '@svc/kernel';
import type { ExceptionRecorder } from '@svc/logging';
import type { ComposedModules } from './module/compose.js';
import type { CoreServices, HealthCheck } from './module/core.js';
import type { ServiceMetrics } from './observability/metrics.js';
import type { RouteGuards } from './openapi/register.js';
import type { HttpSecurity } from './security/deps.js';

export type { CoreServices, HealthCheck } from './module/core.js';

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
  /** The server's modules: which are on (`modules.plan.isEnabled`) and the services each built. */
  modules: ComposedModules;
}

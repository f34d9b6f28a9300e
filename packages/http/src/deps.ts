/**
 * What the HTTP layer needs from the layers below, passed in (never reached through module singletons), so
 * that every piece can be replaced by a consumer or a test.
 */
import type { Configuration, ErrorCodeRegistry, Logger } from '@svc/kernel';
import type { ExceptionRecorder } from '@svc/logging';
import type { RouteGuards } from './openapi/register.js';
import type { HttpSecurity } from './security/deps.js';

/** A dependency the readiness probe checks. */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

export interface HttpDeps {
  config: Configuration;
  errors: ErrorCodeRegistry;
  logger: Logger;
  exceptions: ExceptionRecorder;
  /** Checked by `GET /health/ready`. */
  readiness: HealthCheck[];
  /** Authentication, rate limits, demo mode and cookie mode. */
  security: HttpSecurity;
  /** Enforcement of route markers. @default the guards built from `security` */
  guards?: RouteGuards;
  /** The clock of the HTTP layer (timestamps in answers). */
  now: () => Date;
  /** Package version shown in the contract. */
  version: string;
}

/**
 * What the HTTP layer needs from the layers below, passed in (never reached through module singletons), so
 * that every piece can be replaced by a consumer or a test.
 */
import type { Configuration, ErrorCodeRegistry, Logger } from '@svc/kernel';
import type { ExceptionRecorder } from '@svc/logging';
import type { RouteGuards } from './openapi/register.js';

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
  /** Enforcement of route markers; supplied by the security layer. */
  guards?: RouteGuards;
  /** Package version shown in the contract. */
  version: string;
}

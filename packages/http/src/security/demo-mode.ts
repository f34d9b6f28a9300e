/**
 * Demo mode (`Service:DemoMode`): GET, HEAD and OPTIONS pass, and so does everything under `/api/v1/auth/`;
 * every other POST, PUT, PATCH or DELETE answers 403 with 41002, for every caller including the super admin.
 * It runs before authentication, so no write handler is ever reached.
 */
import type { ErrorCodeRegistry } from '@svc/kernel';
import { ErrorCode } from '@svc/kernel';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { failure } from '../errors/handlers.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Matched on the path as routed (percent-escapes decoded by the router), case-sensitively like the routes. */
const AUTH_PREFIX = '/api/v1/auth/';

/** True when demo mode has something to say about this request: a write outside the auth routes. */
export function demoModeApplies(c: Context<AppEnv>): boolean {
  return !READS.has(c.req.method) && !c.req.path.startsWith(AUTH_PREFIX);
}

export function demoMode(errors: ErrorCodeRegistry): MiddlewareHandler<AppEnv> {
  return async function demoModeMiddleware(c, next) {
    if (!demoModeApplies(c)) return next();
    return failure(c, errors, ErrorCode.DemoModeReadOnly);
  };
}

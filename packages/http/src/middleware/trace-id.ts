/**
 * Gives every request a trace identifier (32 hex characters, the W3C trace-id form) and answers it in
 * `X-Trace-Id`. Incoming ids are not trusted: a client must not be able to make log rows collide.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';

export const TRACE_HEADER = 'X-Trace-Id';

export function traceId(): MiddlewareHandler<AppEnv> {
  return async function traceIdMiddleware(c, next) {
    const id = randomUUID().replaceAll('-', '');
    c.set('traceId', id);
    await next();
    c.res.headers.set(TRACE_HEADER, id);
  };
}

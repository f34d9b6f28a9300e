/**
 * Gives every request a trace identifier (32 hex characters, the W3C trace-id form) and answers it in
 * `X-Trace-Id`. Incoming ids are not trusted: a client must not be able to make log rows collide.
 */
import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';

export const TRACE_HEADER = 'X-Trace-Id';

export function traceId(): MiddlewareHandler<AppEnv> {
  return async function traceIdMiddleware(c, next) {
    const id = randomUUID().replaceAll('-', '');
    c.set('traceId', id);
    // On node-server the header goes straight onto the Node response: setting it on `c.res` after the handler
    // would turn node-server's light response into a full Web `Headers` object (perf-notes.md).
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    if (outgoing) {
      outgoing.setHeader(TRACE_HEADER, id);
      return next();
    }
    await next();
    c.res.headers.set(TRACE_HEADER, id);
  };
}

/**
 * Gives every request a trace identifier (32 hex characters, the W3C trace-id form) and answers it in
 * `X-Trace-Id`. Incoming ids are not trusted: a client must not be able to make log rows collide.
 *
 * The same first middleware sets the secure headers of `/api/` responses (secure-headers.ts) before dispatch:
 * one place for the headers every response starts with, and no extra async layer on the hot path
 * (perf-notes.md). Error, 404 and 413 envelopes carry them too, because they are set before anything can fail.
 */
import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { API_SECURE_HEADERS, wantsApiSecureHeaders } from './secure-headers.js';

export const TRACE_HEADER = 'X-Trace-Id';

export function traceId(): MiddlewareHandler<AppEnv> {
  return async function traceIdMiddleware(c, next) {
    const id = randomUUID().replaceAll('-', '');
    c.set('traceId', id);
    // On node-server the header goes straight onto the Node response: setting it on `c.res` after the handler
    // would turn node-server's light response into a full Web `Headers` object (perf-notes.md).
    const env = c.env as Partial<HttpBindings> | undefined;
    const outgoing = env?.outgoing;
    if (outgoing) {
      outgoing.setHeader(TRACE_HEADER, id);
      // The path the router matches (dot segments resolved, absolute-form targets reduced to their path), not
      // the raw target: `/x/../api/v1/…` or `GET http://host/api/v1/…` reach the API too. `c.req.path` reads
      // the light request's URL string; no Web `Request` or `Headers` is materialised for the decision.
      if (wantsApiSecureHeaders(c.req.path))
        for (const [name, value] of API_SECURE_HEADERS) outgoing.setHeader(name, value);
      return next();
    }
    await next();
    c.res.headers.set(TRACE_HEADER, id);
    if (wantsApiSecureHeaders(c.req.path))
      for (const [name, value] of API_SECURE_HEADERS) c.res.headers.set(name, value);
  };
}

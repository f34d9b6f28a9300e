/**
 * Gives every request a trace identifier (32 hex characters, the W3C trace-id form) and answers it in
 * `X-Trace-Id`. Incoming ids are not trusted: a client must not be able to make log rows collide. The one
 * exception is an operator's choice: when an OpenTelemetry SDK is registered (with its propagator), the request
 * span continues an incoming `traceparent` and its trace id becomes the trace id, so logs and traces join.
 *
 * This is also the observation stage (metrics, spans; observability/request.ts): no extra middleware layer.
 * With metrics off and no SDK registered it does what it always did plus one global lookup.
 *
 * It is the first stage of the request path (middleware/pipeline.ts, "The request path", step 4) and also sets
 * the secure headers of `/api` answers (secure-headers.ts) before dispatch: one place for the headers every
 * response starts with (error, 404 and 413 envelopes included, because they are set before anything can fail).
 */
import type { HttpBindings } from '@hono/node-server';
import { isSpanContextValid } from '@opentelemetry/api';
import { traceIdAt } from '@svc/kernel';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import type { ServiceMetrics } from '../observability/metrics.js';
import {
  activeTracer,
  finish,
  type Observation,
  observeNodeResponse,
  startSpan,
  withSpanContext,
} from '../observability/request.js';
import { isApiPath } from './pipeline.js';
import { API_SECURE_HEADERS, hasPresetHeaders, PERMISSIONS_POLICY } from './secure-headers.js';

export const TRACE_HEADER = 'X-Trace-Id';

export interface TraceIdOptions {
  /** Request metrics; undefined when `Service:Metrics:Enabled` is false (nothing is measured). */
  metrics?: ServiceMetrics | undefined;
}

/**
 * The trace id, the permissions policy and, for the API, the secure headers, straight onto the Node response. `path` is the path the
 * router matches (dot segments resolved, absolute-form targets reduced to their path), not the raw target:
 * `/x/../api/v1/…` or `GET http://host/api/v1/…` reach the API too. `c.req.path` reads the light request's URL
 * string; no Web `Request` or `Headers` is materialised for the decision.
 */
function setTraceHeaders(outgoing: NonNullable<HttpBindings['outgoing']>, id: string, path: string): void {
  outgoing.setHeader(TRACE_HEADER, id);
  outgoing.setHeader(PERMISSIONS_POLICY[0], PERMISSIONS_POLICY[1]);
  if (isApiPath(path)) for (const [name, value] of API_SECURE_HEADERS) outgoing.setHeader(name, value);
}

/**
 * A new trace id: 32 hex characters, time-ordered (kernel `traceIdAt`: 48 bits of milliseconds, 80 random).
 * Also the trace id of the answers the listener gives before Hono (direct.ts, host/request-target.ts).
 */
export function newTraceId(): string {
  return traceIdAt(Date.now());
}

/**
 * The trace-id stage done synchronously when nothing needs to wrap the request (node-server, metrics off, no
 * tracer registered): sets the id and the headers on the Node response and answers true. Otherwise answers
 * false, and {@link traceId} runs as a middleware.
 */
export function quickTraceId(options: TraceIdOptions = {}): (c: Context<AppEnv>) => boolean {
  if (options.metrics) return () => false;
  return function quickTraceIdStage(c) {
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    if (!outgoing || activeTracer()) return false;
    const id = newTraceId();
    c.set('traceId', id);
    if (hasPresetHeaders(outgoing)) {
      outgoing.presetTraceId = id;
      outgoing.presetSecure = isApiPath(c.req.path);
    } else {
      setTraceHeaders(outgoing, id, c.req.path);
    }
    return true;
  };
}

export function traceId(options: TraceIdOptions = {}): MiddlewareHandler<AppEnv> {
  const metrics = options.metrics;
  return async function traceIdMiddleware(c, next) {
    const env = c.env as Partial<HttpBindings> | undefined;
    const outgoing = env?.outgoing;
    const tracer = activeTracer();
    let id: string | undefined;
    let observation: Observation | undefined;
    let spanCtx: ReturnType<typeof startSpan>['ctx'] | undefined;
    if (tracer) {
      const started = startSpan(tracer, c, outgoing ? env?.incoming?.headers : undefined);
      const spanContext = started.span.spanContext();
      if (isSpanContextValid(spanContext)) id = spanContext.traceId;
      spanCtx = started.ctx;
      observation = { c, start: performance.now(), span: started.span, metrics };
    } else if (metrics) {
      observation = { c, start: performance.now(), span: undefined, metrics };
    }
    id ??= newTraceId();
    c.set('traceId', id);
    // On node-server the header goes straight onto the Node response: setting it on `c.res` after the handler
    // would turn node-server's light response into a full Web `Headers` object (perf-notes.md).
    if (outgoing) {
      setTraceHeaders(outgoing, id, c.req.path);
      if (!observation) return next();
      observeNodeResponse(outgoing, observation);
      return spanCtx ? withSpanContext(spanCtx, next) : next();
    }
    try {
      await (spanCtx ? withSpanContext(spanCtx, next) : next());
    } finally {
      if (observation) finish(observation, c.res.status);
    }
    c.res.headers.set(TRACE_HEADER, id);
    if (!c.res.headers.has(PERMISSIONS_POLICY[0]))
      c.res.headers.set(PERMISSIONS_POLICY[0], PERMISSIONS_POLICY[1]);
    if (isApiPath(c.req.path)) for (const [name, value] of API_SECURE_HEADERS) c.res.headers.set(name, value);
  };
}

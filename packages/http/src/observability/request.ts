/**
 * Per-request observation for metrics and OpenTelemetry, hooked into the trace-id stage (no middleware layer of
 * its own, perf-notes.md). On node-server the end of a request is heard on the Node response's `close` event
 * through one shared listener (no closure per request); the request's state rides on the response under a
 * symbol. Under `app.request()` (tests, other runtimes) it is recorded after `next()`.
 *
 * Tracing goes through `@opentelemetry/api` only. Without a registered SDK nothing is started (one global
 * lookup per request); with one, a SERVER span per request continues an incoming W3C `traceparent` through the
 * globally registered propagator, is named `METHOD /route/{template}` and carries the http attributes.
 */
import type { ServerResponse } from 'node:http';
import {
  type Context as OtelContext,
  context as otelContext,
  ProxyTracerProvider,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { type ServiceMetrics, UNMATCHED_ROUTE } from './metrics.js';

const TRACER_NAME = '@svc/http';

/** The SDK's tracer, or undefined while none is registered (the API alone is a no-op). */
export function activeTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  if (provider instanceof ProxyTracerProvider) return provider.getDelegateTracer(TRACER_NAME);
  return provider.getTracer(TRACER_NAME);
}

/** Hono's `/user/:id{[0-9]+}` as the OpenAPI-style template `/user/{id}`; memoised (one entry per route). */
const templates = new Map<string, string>();
export function toTemplate(path: string): string {
  let template = templates.get(path);
  if (template === undefined) {
    template = path.replace(/:([A-Za-z0-9_]+)(\{(?:[^{}]|\{[^{}]*\})*\})?\??/g, '{$1}');
    templates.set(path, template);
  }
  return template;
}

/**
 * The template of the route that answered: the handler at `routeIndex` (the last one dispatched). When a
 * middleware answered instead (a rate-limit refusal, the body limit), the first route registered for a method
 * after it, i.e. the one that would have answered. Middleware (`use`) registers for every method (`ALL`); when
 * no route matched, the request is {@link UNMATCHED_ROUTE}.
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = Math.max(c.req.routeIndex, 0); i < routes.length; i++) {
    const route = routes[i];
    if (route && route.method !== 'ALL') return toTemplate(route.path);
  }
  return UNMATCHED_ROUTE;
}

const nodeHeaders: TextMapGetter<NodeJS.Dict<string | string[]>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};
const webHeaders: TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

/** A request being observed. */
export interface Observation {
  c: Context;
  start: number;
  span: Span | undefined;
  metrics: ServiceMetrics | undefined;
}

/** Starts the request's span (when an SDK is registered); its context is the one `next()` must run in. */
export function startSpan(
  tracer: Tracer,
  c: Context,
  headers: NodeJS.Dict<string | string[]> | undefined,
): { span: Span; ctx: OtelContext } {
  const parent = headers
    ? propagation.extract(ROOT_CONTEXT, headers, nodeHeaders)
    : propagation.extract(ROOT_CONTEXT, c.req.raw.headers, webHeaders);
  const method = c.req.method;
  const span = tracer.startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': c.req.path } },
    parent,
  );
  return { span, ctx: trace.setSpan(parent, span) };
}

/** Records the end of a request: the metrics series and the span's name, route and status. */
export function finish(observation: Observation, status: number): void {
  const { c, span, metrics } = observation;
  const route = routeTemplate(c);
  const method = c.req.method;
  metrics?.request(method, route, status, (performance.now() - observation.start) / 1000);
  if (span) {
    span.updateName(`${method} ${route}`);
    span.setAttribute('http.route', route);
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}

const OBSERVATION = Symbol('svc.observation');
type ObservedResponse = ServerResponse & { [OBSERVATION]?: Observation };

/** The one `close` listener of every observed Node response. */
function onResponseClose(this: ObservedResponse): void {
  const observation = this[OBSERVATION];
  if (!observation) return;
  this[OBSERVATION] = undefined;
  try {
    finish(observation, this.statusCode);
  } catch {
    // An event listener must never throw (it would be an uncaught exception): a lost sample is the lesser harm.
  }
}

/** Observes a node-server request until its response closes (sent, or cut by the client). */
export function observeNodeResponse(outgoing: ServerResponse, observation: Observation): void {
  (outgoing as ObservedResponse)[OBSERVATION] = observation;
  // `on`, not `once`: `once` wraps the listener in a new closure; `close` fires once anyway.
  outgoing.on('close', onResponseClose);
}

/** Runs `fn` inside the span's context (propagates to the handler's async work when a context manager is set). */
export function withSpanContext<T>(ctx: OtelContext, fn: () => T): T {
  return otelContext.with(ctx, fn);
}

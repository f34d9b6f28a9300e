/**
 * The operation-log middleware (spec "Log masking", "Limits"). Mounted once with `app.use('/api/*')` rather
 * than inside `registerRoute`, so that it sees every write of the API — built-in routes, consumer routes
 * registered through `registerRoute` and consumer routes added with plain Hono — and the answer the error
 * handler made of a failure. It only acts after `await next()`: by then the route guards have set `principal`,
 * so anonymous routes and refused credentials (no principal) are never logged, and reads only when their route
 * says so. A route's `opLog` option (openapi/policy.ts) is its policy here: `read` logs a `GET` (the exports),
 * `summary` logs a JSON body only as its summary (the imports).
 * The title is the route's OpenAPI summary (else `METHOD path`); the parameters are the path parameters, the
 * query and the body, masked and capped by @svc/logging; the result code is the envelope's `code`.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { epochMs } from '@svc/kernel';
import {
  DEFAULT_MASKING,
  type KnownJsonText,
  type Masking,
  type OpLogEntry,
  type OpLogWriter,
  opLogParamsText,
  type PendingParams,
  UNSERIALIZABLE,
} from '@svc/logging';
import type { ClientIpResolver, Principal } from '@svc/security';
import type { Context, MiddlewareHandler } from 'hono';
import { HonoRequest } from 'hono/request';
import { matchedRoutes } from 'hono/route';
import type { RouterRoute } from 'hono/types';
import { type AppEnv, announcesBody, readHeader } from '../context.js';
import { jsonTextParsed } from '../middleware/body-limit.js';
import { isThenable, type PipelineResult } from '../middleware/pipeline.js';
import type { OpLogPolicy, RoutePolicies } from '../openapi/policy.js';
import { clientIpOf } from '../security/client.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A body text with nothing to mask that the route parsed as JSON, and one it did not parse (shared, frozen). */
const CLEAN_JSON: KnownJsonText = Object.freeze({ clean: true, parsed: true });
const CLEAN_TEXT: KnownJsonText = Object.freeze({ clean: true });

export interface OpLogMiddlewareOptions {
  writer: OpLogWriter;
  /** `Logging:OpLog:ParamMaxChars`. */
  paramMaxChars: number;
  resolveClientIp: ClientIpResolver;
  /** The app whose OpenAPI registry names the routes (read on first use, after every route is registered). */
  app: OpenAPIHono<AppEnv>;
  now: () => Date;
  /** What is masked: the built-in names and the configured API-key header name. @default DEFAULT_MASKING */
  masking?: Masking;
  /** The app's route policies (`RouteTable.policies`): each route's `opLog` option. @default none: writes only */
  policies?: Pick<RoutePolicies, 'of'>;
}

/** `METHOD /hono/:path` → summary, from the OpenAPI route definitions. */
function summaries(app: OpenAPIHono<AppEnv>): Map<string, string> {
  const map = new Map<string, string>();
  for (const def of app.openAPIRegistry.definitions) {
    if (def.type !== 'route' || !def.route.summary) continue;
    const path = def.route.path.replaceAll(/\/{(.+?)}/g, '/:$1');
    map.set(`${def.route.method.toUpperCase()} ${path}`, def.route.summary);
  }
  return map;
}

/** What a row takes from the route that answered: its title and whether its template has path parameters. */
interface RouteFacts {
  title: string | undefined;
  params: boolean;
}

/** A router's match: `[[handler, route], params]` entries first (Hono's `Result`). */
type MatchResult = [[[unknown, RouterRoute], unknown][], ...unknown[]];

/**
 * The key of `HonoRequest`'s getter of the router's match, the one symbol-keyed getter of its prototype, which
 * `matchedRoutes` reads before it maps every entry to a new array. Undefined unless there is exactly one such
 * getter (a Hono release that drops it or adds another): then `matchedRoutes` is used (op-log.test.ts checks
 * that both name the same route).
 */
export const MATCH_RESULT: symbol | undefined = ((getters: symbol[]) =>
  getters.length === 1 ? getters[0] : undefined)(
  Object.getOwnPropertySymbols(HonoRequest.prototype).filter(
    (key) => typeof Object.getOwnPropertyDescriptor(HonoRequest.prototype, key)?.get === 'function',
  ),
);

/** The route entry at the request's route index, read from the match without copying it. */
export function routeAtIndex(c: Context<AppEnv>): RouterRoute | undefined {
  if (MATCH_RESULT === undefined) return matchedRoutes(c)[c.req.routeIndex];
  const match = (c.req as unknown as Record<symbol, MatchResult | undefined>)[MATCH_RESULT];
  const entry = match?.[0]?.[c.req.routeIndex];
  return Array.isArray(entry) && Array.isArray(entry[0]) ? entry[0][1] : matchedRoutes(c)[c.req.routeIndex];
}

/**
 * The route that answered, e.g. `PUT /api/v1/sys/config/:id`: after `next()` the request's route index points
 * at the last handler that ran (`/sys/config/batch` also matches `/sys/config/:id`, which never ran).
 */
function matchedRoute(c: Context<AppEnv>): RouterRoute | undefined {
  const route = routeAtIndex(c);
  return route && route.method === c.req.method ? route : undefined;
}

/** A File in a multipart body is described, never stored. */
function describeForm(body: Record<string, unknown>): Record<string, unknown> {
  const describe = (value: unknown) =>
    typeof File !== 'undefined' && value instanceof File
      ? { fileName: value.name, size: value.size, type: value.type }
      : value;
  const out: Record<string, unknown> = {};
  // A repeated field (`f[]`, or `all: true` parsing) is an array, of files too.
  for (const [key, value] of Object.entries(body))
    out[key] = Array.isArray(value) ? value.map(describe) : describe(value);
  return out;
}

/**
 * The body of a request whose JSON text the body limit did not keep, or that its route logs as a summary, read
 * from Hono's body cache.
 */
async function bodyOf(c: Context<AppEnv>, summary: OpLogPolicy['summary'] | undefined): Promise<unknown> {
  const type = readHeader(c, 'content-type') ?? '';
  try {
    if (summary) return type.includes('application/json') ? summary(await c.req.json()) : undefined;
    if (type.includes('application/json')) return await c.req.json();
    if (type.includes('multipart/form-data') || type.includes('application/x-www-form-urlencoded')) {
      return describeForm(await c.req.parseBody());
    }
    return undefined;
  } catch {
    return UNSERIALIZABLE;
  }
}

/**
 * The one context variable of this middleware: the context's own `json` and the envelope code it answered. One
 * entry, not two: the variable map of a write holds the trace id, the JSON text and the principal, and two more
 * entries outgrew its first table, which was then rebuilt on every logged request.
 */
const CAPTURE = 'svc.opLog.capture';

/**
 * A class, not an object literal: V8 may pretenure a literal's allocation site (allocate its objects straight in
 * the old generation) once most of them were alive at a young-generation collection, as a request's are. A dead
 * old capture then keeps the context's own `json` closure, and with it the whole request (context, headers,
 * parsed body, SQL), alive through every young collection until the next full one: measured on the reference
 * host, 2.2 KB more promoted per logged write (an ablation, docs/performance.md). Instances of a class are
 * never pretenured.
 */
class Capture {
  // Declared, and stored by the constructor: class fields would be defined one by one (`DefineOwnProperty`).
  declare readonly json: (...args: unknown[]) => Response;
  declare code: number | undefined;
  constructor(json: (...args: unknown[]) => Response) {
    this.json = json;
    this.code = undefined;
  }
}

const GIVEN_BODY = 'svc.opLog.body';

/**
 * What the operation log records as this request's body, for a route that consumed a streamed body itself
 * (the upload route: the log gets the file's description, never its bytes).
 */
export function setOpLogBody(c: Context, body: Record<string, unknown>): void {
  (c as unknown as CaptureContext).set(GIVEN_BODY, body);
}

interface CaptureContext {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/**
 * The one `c.json` of every logged request: records the envelope `code` and calls the context's own `json`.
 * It is a single shared function reading the request's state from `this`, because putting a fresh closure in
 * `c.json` on every request cost about 80 µs of CPU per request on Node 20 (bench/oplog.mjs), a third of a
 * cheap write, where storing a shared function costs nothing measurable.
 */
function capturingJson(this: CaptureContext, object: unknown, arg?: unknown, headers?: unknown): Response {
  const capture = this.get(CAPTURE) as Capture;
  const code = (object as { code?: unknown } | null)?.code;
  if (typeof code === 'number') capture.code = code;
  // Hono's `json(object, arg?, headers?)`, passed on as they came (no rest array a request).
  return capture.json(object, arg, headers);
}

/**
 * Records the envelope `code` of whatever this request answers through `c.json` (handlers and the error
 * handler alike), so the response is never cloned or re-parsed: on node-server that would turn its light
 * string response into a streamed one. Read it back with `envelopeCode`.
 */
function captureEnvelopeCode(c: Context<AppEnv>): void {
  const capture = new Capture(c.json as Capture['json']);
  (c as unknown as CaptureContext).set(CAPTURE, capture);
  c.json = capturingJson as unknown as typeof c.json;
}

function envelopeCode(c: Context<AppEnv>): number | undefined {
  return ((c as unknown as CaptureContext).get(CAPTURE) as Capture | undefined)?.code;
}

/** The operation log as a pipeline stage (`enter` and `leave`, no promise of its own) and as a middleware. */
export interface OpLogStage {
  /**
   * True for the requests the operation log looks at: writes, and the reads whose route says `opLog: { read:
   * true }`. By method and path alone (a pipeline stage's `applies`).
   */
  applies(c: Context<AppEnv>): boolean;
  run: MiddlewareHandler<AppEnv>;
  /** Starts the clock and the envelope capture; answers the start time. */
  enter(c: Context<AppEnv>): number;
  /** Records the answered request (queues its row) and answers `res`, once the row is queued. */
  leave<R>(c: Context<AppEnv>, started: number, res: R): R | Promise<R>;
}

export function opLog(options: OpLogMiddlewareOptions): OpLogStage {
  let titles: Map<string, string> | undefined;
  const masking = options.masking ?? DEFAULT_MASKING;
  /** The row's time in epoch milliseconds: `Date.now` on the system clock, no `Date` a request. */
  const nowMs = epochMs(options.now);
  const policies = options.policies;

  function applies(c: Context<AppEnv>): boolean {
    const method = c.req.method;
    return WRITES.has(method) || (method === 'GET' && policies?.of(method, c.req.path)?.opLog?.read === true);
  }

  /** The route's body summary, when its `opLog` option has one. */
  function summaryOf(c: Context<AppEnv>): OpLogPolicy['summary'] | undefined {
    return policies?.of(c.req.method, c.req.path)?.opLog?.summary;
  }

  /**
   * The row of a request that has been answered: its own promise only when the body must be read first (a form,
   * an import's summary, JSON the body limit did not check); a JSON body the body limit checked is at hand.
   */
  function record(c: Context<AppEnv>, started: number): void | Promise<void> {
    const principal = c.get('principal');
    if (!principal) return;
    // Whole milliseconds, as the column stores them: an integer field, not a boxed double, in the queued row.
    const elapsedMs = Math.round(performance.now() - started);
    const given = (c as unknown as CaptureContext).get(GIVEN_BODY);
    let bodyJson: string | undefined;
    if (given === undefined && announcesBody(c)) {
      const summary = summaryOf(c);
      bodyJson = summary ? undefined : c.get('jsonText');
      if (bodyJson === undefined) return recordWithBody(c, principal, elapsedMs, summary);
    }
    return queue(rowOf(c, principal, elapsedMs, given, bodyJson));
  }

  /**
   * {@link record} once the body is read. A function of its own: a closure inside `record` would have made every
   * call of it allocate the context the closure shares, whichever way the request went.
   */
  function recordWithBody(
    c: Context<AppEnv>,
    principal: Principal,
    elapsedMs: number,
    summary: OpLogPolicy['summary'] | undefined,
  ): Promise<void> {
    return bodyOf(c, summary).then((body) => queue(rowOf(c, principal, elapsedMs, body, undefined)));
  }

  /** Queues the row (async mode) or writes it (sync mode). */
  function queue(row: OpLogEntry): void | Promise<void> {
    if (!options.writer.enqueue(row)) return options.writer.write(row);
  }

  /** Title and parameters by route entry (Hono's route objects live as long as the app). */
  const known = new WeakMap<RouterRoute, RouteFacts>();
  function factsOf(route: RouterRoute | undefined): RouteFacts | undefined {
    if (!route) return undefined;
    let facts = known.get(route);
    if (!facts) {
      titles ??= summaries(options.app);
      facts = { title: titles.get(`${route.method} ${route.path}`), params: route.path.includes(':') };
      known.set(route, facts);
    }
    return facts;
  }

  function rowOf(
    c: Context<AppEnv>,
    principal: Principal,
    elapsedMs: number,
    body: unknown,
    bodyJson: string | undefined,
  ): OpLogEntry {
    const route = factsOf(matchedRoute(c));
    const method = c.req.method;
    const path = c.req.path;
    // Every field from the start: one object shape for every row (adding them as found moved each row's parts
    // through a chain of hidden-class transitions). The parts and their cap are one object, queued as they are.
    const parts: PendingParams = {
      params: undefined,
      query: undefined,
      body,
      bodyJson,
      bodyJsonKnown: undefined,
      masking,
      maxChars: options.paramMaxChars,
    };
    // A template without `:` has no path parameters; a URL without `?` has no query (both cost a parse).
    if (route === undefined || route.params) {
      const pathParams = c.req.param();
      if (Object.keys(pathParams).length > 0) parts.params = pathParams;
    }
    if (c.req.url.includes('?')) {
      const query = c.req.query();
      if (Object.keys(query).length > 0) parts.query = query;
    }
    const resultCode = envelopeCode(c) ?? (c.res.ok ? 0 : c.res.status);
    const ip = clientIpOf(c, options.resolveClientIp, false);
    const userAgent = readHeader(c, 'user-agent');
    const some =
      parts.params !== undefined ||
      parts.query !== undefined ||
      parts.body !== undefined ||
      parts.bodyJson !== undefined;
    // The text is written with the row's batch (writer.ts) when what it is made of is small and cheap: path
    // parameters, a query, a JSON text within the cap that has nothing to mask. A body object (a form, a summary,
    // JSON the body limit did not check) or a longer text is written and capped now, so a queue that fills while
    // the database is away holds no more than the capped rows would; a text to mask is masked now, so that a
    // batch never stalls the event loop with two hundred of them.
    let later = some && parts.body === undefined;
    if (later && bodyJson !== undefined) {
      later = bodyJson.length <= options.paramMaxChars && masking.nothingToMask(bodyJson);
      // What the batch need not find out again: nothing to mask, and (when the route read it) that it is JSON.
      if (later) parts.bodyJsonKnown = jsonTextParsed(c) ? CLEAN_JSON : CLEAN_TEXT;
    }
    return {
      title: route?.title ?? `${method} ${path}`,
      httpMethod: method,
      path,
      paramJson: some && !later ? opLogParamsText(parts, options.paramMaxChars) : null,
      pendingParams: later ? parts : undefined,
      resultCode,
      success: resultCode === 0,
      elapsedMs,
      operatorId: principal.userId,
      operatorName: principal.kind === 'user' ? principal.account : principal.name,
      ip: ip || null,
      userAgent: userAgent ? userAgent.slice(0, 500) : null,
      traceId: c.get('traceId') ?? null,
      createTime: nowMs(),
    };
  }

  function enter(c: Context<AppEnv>): number {
    captureEnvelopeCode(c);
    return performance.now();
  }

  /** What the request answered, once its row is queued (or, in sync mode, written). */
  function leave<R>(c: Context<AppEnv>, started: number, answer: R): R | Promise<R> {
    const recorded = record(c, started);
    return recorded === undefined ? answer : recorded.then(() => answer);
  }

  /** `enter` and `leave` around `next` (the middleware form). */
  function around(c: Context<AppEnv>, next: () => PipelineResult): PipelineResult {
    const started = enter(c);
    const answer = next();
    return isThenable(answer)
      ? answer.then((r) => leave(c, started, r))
      : (leave(c, started, answer) as PipelineResult);
  }

  return {
    applies,
    enter,
    leave,
    run: async (c, next) => {
      if (!applies(c)) return next();
      await around(c, async () => {
        await next();
      });
    },
  };
}

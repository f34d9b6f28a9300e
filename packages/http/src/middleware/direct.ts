/**
 * The direct answer: step 2 of the request path (middleware/pipeline.ts, "The request path", says when it
 * applies and when it steps aside). The reference listener hands each request here first; what can be decided
 * from the raw Node request alone is answered on the Node response at once, anything else returns false
 * untouched and takes the usual way.
 *
 * An answer is given only when it is exactly the one the usual way gives (host/direct.test.ts compares both
 * over the wire): the refused token's 401/40006 is the built-in bearer guard's answer, a `direct` route's 200
 * is its handler's `ok(direct(user))`, and the headers are those the first stage and node-server would write
 * ({@link headRecord}; the listener's response class still adds `Connection: close` while the server drains).
 * The rate limit, the one stage allowed to apply, counts the request here first as its stage would
 * (`DirectRateLimit.decideRaw`); a refusal, or a limiter that needs a round trip or a settings read, goes the
 * usual way, which answers from the kept decision or counts the request itself. Whether a path may be decided
 * here is drawn once per path from the router's match and the stages' tests, and again when the router changes.
 *
 * What it saves: node-server's light request and its URL, Hono's context, a router lookup, the response
 * object and its conversion to Node's header record: about a fifth of a bare Hono route's CPU per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, type ErrorCodeRegistry, fail, ok } from '@svc/kernel';
import type { UserPrincipal } from '@svc/security';
import { httpStatusOf } from '../errors/status.js';
import { hostVerdicts } from '../host/request-target.js';
import { activeTracer } from '../observability/request.js';
import type { RouteMeta } from '../openapi/auth.js';
import { bearerToken } from '../security/bearer-token.js';
import { handlerOf } from './fused-router.js';
import { isApiPath, isThenable, type Pipeline, type Stage } from './pipeline.js';
import { API_SECURE_HEADERS, PERMISSIONS_POLICY } from './secure-headers.js';
import { newTraceId, TRACE_HEADER } from './trace-id.js';

/** A fused route as registered: its marker, its first handler, its guards and its `direct` answer if any. */
export interface DirectRoute extends RouteMeta {
  /** The route's first Hono handler: the router's match must start with it. */
  first: object;
  /** The guards the route runs, in order. */
  guards: readonly object[];
  answer: ((user: UserPrincipal) => unknown) | undefined;
}

/** A route kept for the direct path, with what its answers carry. */
interface KeptRoute extends DirectRoute {
  /** Under `/api`: answers carry the secure headers. */
  secure: boolean;
}

/** A route's verdict: kept, and whether the rate limit counts its requests. */
interface Verdict {
  route: KeptRoute;
  limited: boolean;
}

/** The bearer guards of `createRouteGuards`, with the sessions each checks. */
const STANDARD_BEARERS = new WeakMap<object, object>();

/** Marks a guard that answers a refused token exactly as this module does (security/guards.ts). */
export function markStandardBearer(guard: object, sessions: object): void {
  STANDARD_BEARERS.set(guard, sessions);
}

/**
 * The registered routes this module may decide: a `GET` on a fixed path whose first guard is the built-in
 * bearer guard of the same sessions (so a refused token is answered 401 before anything else could answer),
 * and which is answered here only when that guard is its only one.
 */
export class DirectRoutes {
  readonly #byPath = new Map<string, KeptRoute>();

  /** @param sessions the sessions whose `authenticateNow` the dispatcher calls. */
  constructor(private readonly sessions: object) {}

  add(route: DirectRoute): void {
    if (route.method !== 'GET' || route.path.includes('{')) return;
    const first = route.guards[0];
    if (first === undefined || STANDARD_BEARERS.get(first) !== this.sessions) return;
    const answer = route.guards.length === 1 ? route.answer : undefined;
    this.#byPath.set(route.path, { ...route, answer, secure: isApiPath(route.path) });
  }

  get(path: string): KeptRoute | undefined {
    return this.#byPath.get(path);
  }

  get size(): number {
    return this.#byPath.size;
  }
}

/** Answers the request and returns true, or returns false and leaves it untouched. */
export type DirectDispatch = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

export interface DirectDispatchOptions {
  routes: DirectRoutes;
  /** The app's router (`app.router`): the route must be matched alone, with no consumer middleware before it. */
  router: { match(method: string, path: string): unknown; readonly version?: number };
  pipeline: Pipeline;
  /** The session check that answers without waiting (`SessionAuthenticator.authenticateNow`). */
  authenticateNow: (token: string) => UserPrincipal | null | undefined;
  errors: ErrorCodeRegistry;
  /** Observers of every request (metrics): with any, nothing is decided here. */
  observed: boolean;
  /**
   * The rate-limit stage, when it runs: on the routes it applies to, the request is counted here first
   * (`decideRaw`); a refusal, or a limiter that cannot decide now, goes the usual way (which answers the 429
   * from the decision kept, or counts the request itself).
   */
  rateLimit?: DirectRateLimit;
}

/** The rate-limit stage as the direct path uses it. */
export interface DirectRateLimit {
  stage: Stage;
  decideRaw(incoming: IncomingMessage, path: string): boolean | undefined;
}

const JSON_TYPE = 'application/json';

/**
 * The headers of an answer, as the usual way writes them: Content-Type and Content-Length (Hono's `c.json`, then
 * node-server), the trace id, the permissions policy and, under `/api`, the secure headers (the first stage's presets).
 */
function headRecord(length: number, traceId: string, secure: boolean): (string | number)[] {
  const head: (string | number)[] = [
    'Content-Type',
    JSON_TYPE,
    'Content-Length',
    length,
    TRACE_HEADER,
    traceId,
    ...PERMISSIONS_POLICY,
  ];
  if (secure) for (const [name, value] of API_SECURE_HEADERS) head.push(name, value);
  return head;
}

/** The dispatcher, or undefined when nothing could ever be decided here (metrics on, no route). */
export function createDirectDispatch(options: DirectDispatchOptions): DirectDispatch | undefined {
  const { routes, router, pipeline, authenticateNow, errors } = options;
  if (options.observed || routes.size === 0) return undefined;
  const refusedCode = ErrorCode.TokenInvalid.code;
  const refusedStatus = httpStatusOf(refusedCode);
  const refusedBody = JSON.stringify(fail(refusedCode, errors.msgKeyOf(refusedCode)));
  const refusedLength = Buffer.byteLength(refusedBody);

  // Per path: the route when the router matches it alone and no stage applies; null otherwise. Drawn again
  // whenever the router changes: the match, not an assumption about the order of later routes, decides.
  let verdictVersion = router.version;
  const verdicts = new Map<string, Verdict | null>();
  const limiter = options.rateLimit;
  const hostOk = hostVerdicts();

  function verdictOf(path: string): Verdict | null {
    if (router.version !== verdictVersion) {
      verdicts.clear();
      verdictVersion = router.version;
    }
    const known = verdicts.get(path);
    if (known !== undefined) return known;
    const route = routes.get(path);
    // Only registered paths get a verdict, so the map is bounded by the route table.
    if (route === undefined) return null;
    // No stage may apply but the rate limit, which the direct path applies itself.
    const quiet = pipeline.quietFor('GET', path, limiter?.stage) && matchedAlone(path, route);
    const verdict = quiet ? { route, limited: !pipeline.quietFor('GET', path) } : null;
    verdicts.set(path, verdict);
    return verdict;
  }

  function matchedAlone(path: string, route: KeptRoute): boolean {
    const [entries] = router.match('GET', path) as [[unknown, unknown][]];
    const first = entries[0];
    return first !== undefined && handlerOf(first[0]) === route.first;
  }

  function send(outgoing: ServerResponse, route: KeptRoute, status: number, body: string, length: number) {
    const head = headRecord(length, newTraceId(), route.secure);
    outgoing.writeHead(status, head as unknown as string);
    outgoing.end(body);
  }

  /**
   * The answer to send (status and body), or undefined for the usual way. Nothing here may throw into Node's
   * request listener: any failure (a cache, a route's answer) leaves the request to the usual way, which meets
   * it again and answers it as it answers any error.
   */
  function decide(incoming: IncomingMessage): [KeptRoute, number, string, number] | undefined {
    if (incoming.method !== 'GET') return undefined;
    const url = incoming.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const verdict = verdictOf(path);
    if (verdict === null || activeTracer() !== undefined) return undefined;
    const route = verdict.route;
    // The first Host and Authorization, as Node's header object would hold them (it drops later ones of both),
    // read from the raw list: the object itself is built only if the usual way asks for it.
    const raw = incoming.rawHeaders;
    let host: string | undefined;
    let authorization: string | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      if (host === undefined && name.length === 4 && name.toLowerCase() === 'host') host = raw[i + 1];
      else if (authorization === undefined && name.length === 13 && name.toLowerCase() === 'authorization')
        authorization = raw[i + 1];
    }
    if (!hostOk(host)) return undefined;
    // Counted as the stage counts it, before anything is answered; a refusal is answered the usual way.
    if (verdict.limited && limiter?.decideRaw(incoming, path) !== true) return undefined;
    const token = bearerToken(authorization);
    const user = token === undefined ? null : authenticateNow(token);
    if (user === null) return [route, refusedStatus, refusedBody, refusedLength];
    if (user === undefined || route.answer === undefined) return undefined;
    const data = route.answer(user);
    if (isThenable(data)) {
      // Not what `direct` may answer (registerRoute refuses async functions; a function may still return a
      // promise): never left unhandled, and the usual way answers.
      Promise.resolve(data).catch(() => {});
      return undefined;
    }
    const body = JSON.stringify(ok(data));
    return [route, 200, body, Buffer.byteLength(body)];
  }

  return function direct(incoming, outgoing) {
    let answer: ReturnType<typeof decide>;
    try {
      answer = decide(incoming);
    } catch {
      return false;
    }
    if (answer === undefined) return false;
    send(outgoing, answer[0], answer[1], answer[2], answer[3]);
    return true;
  };
}

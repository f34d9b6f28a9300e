/**
 * The request path: how a request travels from the node listener to its handler and back (issues 16 and 45).
 * This is its one description; direct.ts, fused-router.ts, segment-router.ts, trace-id.ts, host/listen.ts and
 * openapi/register.ts describe only their own part and point here. What each step saves, measured, is in
 * docs/performance.md ("How a request stays cheap"); the rule throughout: no Web `Headers` object, no
 * `compose` and no promise of its own where a warm read does not need one.
 *
 * 1. **Listener** (host/listen.ts). node:http calls the request listener listen.ts puts in front of
 *    node-server's with the raw `IncomingMessage`. It offers the request to the direct answer first (step 2);
 *    then a target node-server could not build a `Request` of is answered with the 48000 envelope
 *    (host/request-target.ts); everything else goes to node-server, which wraps it in its light `Request` and
 *    calls `app.fetch`. The server's response class (`serviceResponse`) writes the headers the first stage
 *    preset (trace id, permissions policy, the secure headers of `/api`) in its one `writeHead`, and
 *    `Connection: close` while the server drains. A WebSocket upgrade a module takes (the realtime hub's) leaves
 *    the HTTP path before all of this, through node:http's `upgrade` event.
 * 2. **Direct answer** (direct.ts), on the reference listener only (never through `app.request()`). A `GET` on
 *    a fixed path, registered through `registerRoute` with the built-in bearer guard first, is answered on the
 *    Node response without Hono when that is exactly what the usual way would answer: 401/40006 for a token
 *    missing or refused outright (malformed, forged, expired, a revoked session), or `ok(direct(user))` for a
 *    route registered with `direct` (the ping) whose session `authenticateNow` confirms without waiting. It
 *    steps aside (returns false) when a stage other than the rate limit applies to the path
 *    ({@link Pipeline.quietFor}), when the router's match is not the route alone (a consumer's middleware in
 *    front), with metrics or a tracer on, for a Host header node-server refuses, when the rate limit refuses or
 *    cannot decide now, and when the session needs a check or a write.
 * 3. **Router** (fused-router.ts over segment-router.ts). Hono's dispatch asks `app.router`, a `FusedRouter`:
 *    it matches with the segment router (with Hono's TrieRouter once a path outside that router's form is
 *    registered) and memoises the match of a path without parameters. A match whose route was registered fused
 *    (its first handler carries {@link FUSED}) is cut to the route's own entries: the global pipeline
 *    middleware before it and whatever follows are left out, so Hono calls one handler, without `compose`. Any
 *    other match (a consumer's plain Hono route or middleware, the docs, the web root, a 404) keeps the global
 *    `pipeline.middleware` (`app.use('*')`, marked {@link PIPELINE}) first and goes through `compose`.
 * 4. **Stages** (this file; app.ts `pipelineStages` lists them). First the trace id and the headers every
 *    answer starts with (trace-id.ts): synchronously (`quickTraceId`) on node-server without metrics or a
 *    tracer, else as a middleware that also observes the request. Then, in this order and each only when
 *    switched on: the SQL request scope, the body limit, the rate limit, demo mode, the operation log. Each
 *    {@link Stage} tells with `applies(c)`, from the method and path alone, whether it has anything to do; one
 *    that has not is not called, so a warm read runs none. A fused route runs the stages itself
 *    (`pipeline.run`) unless the global middleware already did ({@link pipelineRan}: a fused route behind a
 *    consumer's middleware).
 * 5. **Guards and handler** (openapi/register.ts `registerFused`). After the stages come the guards of the
 *    route's marker (`RouteGuards.forRoute`: bearer or API key, permission, re-authentication), then the
 *    handler. A route with request parts or middleware of its own has the stages and guards as its first
 *    middleware and Hono composes the rest (its middleware, zod's validators, the handler); a route without is
 *    one function. With guards that cannot be fused (`RouteGuards.fusable` false) a route is a plain
 *    zod-openapi route behind the global middleware.
 * 6. **Back.** The handler's `Response` is settled into `c.res` as `compose` does; a throw anywhere below a
 *    stage becomes the error handler's envelope there, so a stage acting after the rest (the operation log's
 *    `leave`) sees the failure's answer. Hono returns the `Response`, node-server writes it to the Node
 *    response, and the response class adds the preset headers in the same `writeHead`.
 *
 * **Where a route's policy is read.** All of it comes from the route's own definition and `RouteOptions`,
 * taken once by register.ts `registerRoute`: the auth marker, permission code and re-authentication give the
 * guards, the paged query's ceiling bounds its schema, `direct` enters the route in direct.ts `DirectRoutes`,
 * and `opLog` and `bodyLimit` go into the app's route table (`RouteTable.policies`, openapi/policy.ts). Per
 * request the stages ask the table by method and path alone (`policies.of`: the policy of the first route the
 * router matches): the body limit acts on every write under `/api`, with the route's `bodyLimit` in place of
 * `Service:Api:MaxBodyBytes`; the operation log on every write under `/api` and the reads marked `opLog.read`,
 * a body recorded as its `opLog.summary` when the route has one. The rate limit and the SQL scope take all of
 * `/api`, demo mode every write outside `/api/v1/auth/`.
 */
import type { Context, ErrorHandler, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';

/** One stage: a middleware and the test of whether it has anything to do for this request. */
export interface Stage {
  /**
   * Decided by the request's method and path alone (`c.req.method`, `c.req.path`), the same for the life of the
   * app: the pipeline also asks it with a probe holding only those two, to tell which routes no stage touches
   * ({@link Pipeline.quietFor}), and that verdict is kept per path.
   */
  applies(c: Context<AppEnv>): boolean;
  run: MiddlewareHandler<AppEnv>;
  /**
   * The same stage without promises of its own (the operation log): calls `next` once and answers what it
   * answered, synchronously when that was synchronous. Used instead of `run` when present.
   */
  around?(c: Context<AppEnv>, next: () => PipelineResult): PipelineResult;
  /**
   * The same stage as two halves, for one that only acts once the rest has answered (the operation log): `enter`
   * (when given) runs before the rest and `leave` with its settled answer, inside the rest's own promise callback,
   * so the stage adds no promise or turn of its own to an asynchronous route. A stage with `leave` is run this
   * way, not with `around` or `run`. `leave` answers the response (or a promise of it); a throw or rejection of
   * it becomes the error handler's response, as it would after `next()` in a middleware.
   */
  enter?(c: Context<AppEnv>): number;
  leave?(c: Context<AppEnv>, entered: number, res: Response | undefined): Settled;
}

/** A step's answer once settled: the response kept in `c.res`, now or later. */
type Settled = Response | undefined | Promise<Response | undefined>;

/** What a step answers: a response now, none, or a promise of the rest. */
export type PipelineResult = Response | undefined | Promise<unknown>;

/** What runs after the stages: a fused route's guards and handler, or Hono's `next`. */
export type Inner = () => PipelineResult;

export interface Pipeline {
  /** Runs the stages that apply, then `inner`. */
  run(c: Context<AppEnv>, inner: Inner): PipelineResult;
  /** The pipeline as a global middleware, for everything that is not a fused route. */
  middleware: MiddlewareHandler<AppEnv>;
  /**
   * True when no stage after the first has anything to do for a request of this method and path (a test that
   * throws on the probe counts as having something to do), `except` left out of the question.
   */
  quietFor(method: string, path: string, except?: Stage): boolean;
}

/** Marks the pipeline middleware, so the router can leave it out of a fused route's match. */
export const PIPELINE = Symbol('svc.pipeline');
/** On a fused route's first handler: how many match entries belong to the route (itself, validators, handler). */
export const FUSED = Symbol('svc.fused');

/**
 * True for `/api` and the paths under it (what `app.use('/api/*')` matched): the stages' scope and the paths
 * whose answers carry the secure headers. Asked of a routed path (`c.req.path`, a route's path), never of a
 * raw target with its query.
 */
export function isApiPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/api';
}

export interface PipelineOptions {
  /**
   * The first stage's synchronous form: does its whole work now and answers true (trace id and secure headers
   * on node-server without metrics or tracing), or answers false and `first.run` runs as a stage.
   */
  quick(c: Context<AppEnv>): boolean;
  first: MiddlewareHandler<AppEnv>;
  stages: readonly Stage[];
  /** The app's error handler (what `compose` calls when a layer throws). */
  onError: ErrorHandler<AppEnv>;
}

/** `then` of a settled answer, now or once it settles. */
const chain = (res: Settled, then: (res: Response | undefined) => Settled): Settled =>
  isThenable(res) ? res.then(then) : then(res);

/** A promise or any other thenable (what `await` would wait for). */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

export function createPipeline(options: PipelineOptions): Pipeline {
  const { quick, first, stages, onError } = options;
  const count = stages.length;

  /** The answer of a step, kept as the context's response (what compose does). */
  function settled(c: Context<AppEnv>, res: unknown, failed: boolean): Response | undefined {
    if (res instanceof Response && (!c.finalized || failed)) c.res = res;
    return res instanceof Response ? res : undefined;
  }

  /** A thrown error as the error handler's response (what compose does); anything else is thrown on. */
  function failedWith(
    c: Context<AppEnv>,
    error: unknown,
  ): Response | undefined | Promise<Response | undefined> {
    if (!(error instanceof Error)) throw error;
    c.error = error;
    const res = onError(error, c);
    return isThenable(res) ? Promise.resolve(res).then((r) => settled(c, r, true)) : settled(c, res, true);
  }

  /**
   * Calls `step` as compose would: a throw or rejection becomes the error response in `c.res`. Synchronous
   * when `step` and the error handler are, so a stage with `around` adds no promise to a synchronous route.
   * `then` (a stage's `leave`) gets the settled answer in the same callback.
   */
  function guarded(
    c: Context<AppEnv>,
    step: () => PipelineResult,
    then?: (res: Response | undefined) => Settled,
  ): Settled {
    let res: unknown;
    try {
      res = step();
    } catch (error) {
      return then ? chain(failedWith(c, error), (r) => leaving(c, then, r)) : failedWith(c, error);
    }
    if (isThenable(res)) {
      return then
        ? Promise.resolve(res).then(
            (r) => leaving(c, then, settled(c, r, false)),
            (error: unknown) => chain(failedWith(c, error), (r) => leaving(c, then, r)),
          )
        : Promise.resolve(res).then(
            (r) => settled(c, r, false),
            (error: unknown) => failedWith(c, error),
          );
    }
    return then ? leaving(c, then, settled(c, res, false)) : settled(c, res, false);
  }

  /** A stage's `leave` of a settled answer: its throw or rejection is the error handler's response. */
  function leaving(
    c: Context<AppEnv>,
    leave: (res: Response | undefined) => Settled,
    res: Response | undefined,
  ): Settled {
    let out: Settled;
    try {
      out = leave(res);
    } catch (error) {
      return failedWith(c, error);
    }
    // Only a `leave` that must wait (the log reading a body first, or writing its row now) pays a promise here.
    return isThenable(out) ? out.then(undefined, (error: unknown) => failedWith(c, error)) : out;
  }

  /** The first stage from `i` on that has something to do for this request (`count` when none has). */
  function nextApplying(c: Context<AppEnv>, i: number): number {
    while (i < count && !(stages[i] as Stage).applies(c)) i++;
    return i;
  }

  /** Runs stage `i` (which applies), the stages after it that apply, then `inner`. */
  function from(c: Context<AppEnv>, i: number, inner: Inner): PipelineResult {
    if (i === count) return guarded(c, inner);
    const stage = stages[i] as Stage;
    if (stage.leave) {
      const leave = stage.leave;
      const entered = stage.enter ? stage.enter(c) : 0;
      const after = nextApplying(c, i + 1);
      // The last stage that applies (the operation log is the last there is) wraps `inner` itself: through `from`
      // an asynchronous route's answer would be settled in a promise callback of its own, then left in another.
      return guarded(c, after === count ? inner : () => from(c, after, inner), (res) =>
        leave(c, entered, res),
      );
    }
    if (stage.around) {
      const around = stage.around;
      return guarded(c, () => around(c, () => from(c, nextApplying(c, i + 1), inner)));
    }
    return guarded(c, () =>
      stage.run(c, async () => {
        await from(c, nextApplying(c, i + 1), inner);
      }),
    );
  }

  function run(c: Context<AppEnv>, inner: Inner): PipelineResult {
    if (quick(c)) {
      // The common read: no stage applies, and `inner` runs in this very call.
      const i = nextApplying(c, 0);
      return i === count ? inner() : from(c, i, inner);
    }
    return guarded(c, () =>
      first(c, async () => {
        await from(c, nextApplying(c, 0), inner);
      }),
    );
  }

  const middleware: MiddlewareHandler<AppEnv> = (c, next) =>
    run(c, async () => {
      await next();
    }) as Promise<Response | undefined>;
  Object.defineProperty(middleware, PIPELINE, { value: true });

  function quietFor(method: string, path: string, except?: Stage): boolean {
    const probe = { req: { method, path } } as unknown as Context<AppEnv>;
    try {
      return stages.every((stage) => stage === except || !stage.applies(probe));
    } catch {
      return false;
    }
  }
  return { run, middleware, quietFor };
}

/** True when the stages already ran for this request (a fused route behind the global middleware). */
export function pipelineRan(c: Context<AppEnv>): boolean {
  return c.get('traceId') !== undefined;
}

/**
 * The request pipeline as one stage (issue 16): trace id and secure headers, SQL request scope, body limit,
 * rate limit, demo mode and the operation log run here, in that order, instead of as a chain of Hono
 * middlewares. Each stage says with a cheap synchronous test whether it has anything to do for a request; a
 * stage with nothing to do is not called at all, so a read on node-server with metrics and tracing off costs
 * the trace id, a few `setHeader` calls and no promise of its own.
 *
 * Routes registered with `registerRoute` carry the pipeline inside their own handler (fused with their guards,
 * see openapi/register.ts), and {@link FusedRouter} leaves the global pipeline middleware out of their match:
 * Hono then takes its single-handler path (no `compose`). Everything else (consumer routes added with plain
 * Hono, the docs, the web root, unmatched paths) still passes the same pipeline as a global middleware. A fused
 * route behind a consumer's own middleware keeps the global pipeline first; its handler sees the trace id set
 * and does not run the stages twice.
 *
 * Semantics are those of Hono's `compose`: an error thrown below a stage is turned into the error response
 * there, so a stage that runs after `next()` (the operation log) sees the failure's envelope in `c.res`.
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

/** What runs after the stages: a fused route's guards and handler, or Hono's `next`. */
export type Inner = () => Response | undefined | Promise<unknown>;

export type PipelineResult = Response | undefined | Promise<unknown>;

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

/** True for paths under `/api` (what `app.use('/api/*')` matched). */
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

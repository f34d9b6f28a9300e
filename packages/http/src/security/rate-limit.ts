/**
 * Fixed-window rate limiting (spec "Rate limiting"): per client IP, a stricter bucket on `/api/v1/auth/*`, and
 * a separate bucket per valid API key (partitioned by a hash of the key). Unknown keys count against the IP,
 * so inventing keys opens no fresh buckets. Over the limit: HTTP 429, code 40008, `args.retryAfterSeconds`
 * and `Retry-After`. Refusals are security events of a kind that comes in floods (contract §10): they are
 * counted (`rateLimiter.stats()`) and the first one of each bucket and window is logged as one warning, never
 * a row each.
 */
import type { IncomingMessage } from 'node:http';
import type { ErrorCodeRegistry, Logger } from '@svc/kernel';
import { ErrorCode, silentLogger } from '@svc/kernel';
import {
  hitNowOf,
  type RateLimitDecision,
  type RateLimitSettings,
  type RateLimitTarget,
  rateLimitTarget,
} from '@svc/security';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { rawHeader, readHeader } from '../context.js';
import { failure } from '../errors/handlers.js';
import type { PipelineResult } from '../middleware/pipeline.js';
import { clientIpOf } from './client.js';
import type { HttpSecurity } from './deps.js';

/** The rate limit as a pipeline stage: `around` decides in the same turn when it can, `run` is the middleware. */
export interface RateLimitStage {
  run: MiddlewareHandler<AppEnv>;
  around(c: Context<AppEnv>, next: () => PipelineResult): PipelineResult;
  /**
   * Counts and decides a request from the Node request alone, for the listener's direct path
   * (middleware/direct.ts): true when allowed, false when refused, undefined when it cannot decide now (nothing
   * counted). A counted request keeps its decision, which the stage then applies instead of counting it again
   * when the request goes the usual way (a refusal is answered there, with its warning).
   */
  decideRaw(incoming: IncomingMessage, path: string): boolean | undefined;
}

/** What the direct path counted for a request, applied by the stage instead of counting again. */
interface Counted {
  target: RateLimitTarget;
  decision: RateLimitDecision;
}

/** Where a request keeps what the direct path counted for it (a property of the Node request: no side table). */
const COUNTED = Symbol('svc.rateLimit.counted');
type CountedRequest = IncomingMessage & { [COUNTED]?: Counted | undefined };

/**
 * The rate-limit middleware and stage. Where the settings are known (the config snapshot the last request read
 * is still current) and the cache counts without I/O (the memory provider), a request is counted and decided in
 * the same turn: an allowed one goes on without a promise of the stage's own. Otherwise (Redis, a config change
 * to read first) the same rules run through the asynchronous path.
 * @param logger Receives one warning per bucket and window. @default silentLogger
 */
export function rateLimitStage(
  security: HttpSecurity,
  errors: ErrorCodeRegistry,
  logger: Logger = silentLogger,
): RateLimitStage {
  const settingsNow = security.settings.rateLimitNow;
  const hitNow = hitNowOf(security.rateLimiter);

  const keyHeader = security.apiKeyHeader.toLowerCase();

  function targetFor(
    presented: string | undefined,
    clientIp: string,
    path: string,
    settings: RateLimitSettings,
  ): RateLimitTarget | null {
    const apiKey = presented && security.apiKeys.validate(presented) ? presented : undefined;
    return rateLimitTarget({ clientIp, path, apiKey, settings });
  }

  function targetOf(c: Context<AppEnv>, settings: RateLimitSettings): RateLimitTarget | null {
    const presented = readHeader(c, security.apiKeyHeader);
    return targetFor(presented, clientIpOf(c, security.resolveClientIp), c.req.path, settings);
  }

  /** The decision the direct path already counted for this request, taken once. */
  function countedFor(c: Context<AppEnv>): Counted | undefined {
    const incoming = c.env?.incoming as CountedRequest | undefined;
    const found = incoming?.[COUNTED];
    if (found) incoming[COUNTED] = undefined;
    return found;
  }

  function decideRaw(incoming: IncomingMessage, path: string): boolean | undefined {
    const settings = hitNow ? settingsNow?.() : undefined;
    if (!hitNow || !settings) return undefined;
    if (!settings.enabled) return true;
    // The client address and the key header as the stage reads them (clientIpOf, readHeader), from the raw
    // list: the header object is built only if the usual way asks for it.
    const presented = rawHeader(incoming, keyHeader);
    const forwardedFor = rawHeader(incoming, 'x-forwarded-for');
    const clientIp = security.resolveClientIp({
      remoteAddress: incoming.socket?.remoteAddress,
      forwardedFor,
    });
    const target = targetFor(presented, clientIp, path, settings);
    if (!target) return true;
    const decision = hitNow(target.bucket, target.rule);
    (incoming as CountedRequest)[COUNTED] = { target, decision };
    return decision.allowed;
  }

  function refuse(c: Context<AppEnv>, target: RateLimitTarget, decision: RateLimitDecision): Response {
    if (decision.firstRefusal) {
      logger.warn('Rate limit reached; further refusals in this window are counted, not logged.', {
        bucket: target.bucket,
        permit: target.rule.permit,
        windowSeconds: target.rule.windowSeconds,
        path: c.req.path,
        traceId: c.get('traceId'),
      });
    }
    c.header('Retry-After', String(decision.retryAfterSeconds));
    return failure(
      c,
      errors,
      ErrorCode.TooManyRequests,
      { retryAfterSeconds: decision.retryAfterSeconds },
      429,
    );
  }

  const run: MiddlewareHandler<AppEnv> = async function rateLimitMiddleware(c, next) {
    const known = countedFor(c);
    if (known) return known.decision.allowed ? next() : refuse(c, known.target, known.decision);
    const settings = await security.settings.rateLimit();
    if (!settings.enabled) return next();
    const target = targetOf(c, settings);
    if (!target) return next();
    const decision = await security.rateLimiter.hit(target.bucket, target.rule);
    if (decision.allowed) return next();
    return refuse(c, target, decision);
  };

  function around(c: Context<AppEnv>, next: () => PipelineResult): PipelineResult {
    const known = countedFor(c);
    if (known) return known.decision.allowed ? next() : refuse(c, known.target, known.decision);
    const settings = hitNow ? settingsNow?.() : undefined;
    if (!hitNow || !settings) return run(c, async () => void (await next())) as PipelineResult;
    if (!settings.enabled) return next();
    const target = targetOf(c, settings);
    if (!target) return next();
    const decision = hitNow(target.bucket, target.rule);
    return decision.allowed ? next() : refuse(c, target, decision);
  }

  return { run, around, decideRaw };
}

/**
 * Fixed-window rate limiting (spec "Rate limiting"): per client IP, a stricter bucket on `/api/v1/auth/*`, and
 * a separate bucket per valid API key (partitioned by a hash of the key). Unknown keys count against the IP,
 * so inventing keys opens no fresh buckets. Over the limit: HTTP 429, code 40008, `args.retryAfterSeconds`
 * and `Retry-After`. Refusals are security events of a kind that comes in floods (contract §10): they are
 * counted (`rateLimiter.stats()`) and the first one of each bucket and window is logged as one warning, never
 * a row each.
 */
import type { ErrorCodeRegistry, Logger } from '@svc/kernel';
import { ErrorCode, silentLogger } from '@svc/kernel';
import { rateLimitTarget } from '@svc/security';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { readHeader } from '../context.js';
import { failure } from '../errors/handlers.js';
import { clientIpOf } from './client.js';
import type { HttpSecurity } from './deps.js';

/**
 * The rate-limit middleware.
 * @param logger Receives one warning per bucket and window. @default silentLogger
 */
export function rateLimit(
  security: HttpSecurity,
  errors: ErrorCodeRegistry,
  logger: Logger = silentLogger,
): MiddlewareHandler<AppEnv> {
  return async function rateLimitMiddleware(c, next) {
    const settings = await security.settings.rateLimit();
    if (!settings.enabled) return next();
    const presented = readHeader(c, security.apiKeyHeader);
    const apiKey = presented && security.apiKeys.validate(presented) ? presented : undefined;
    const target = rateLimitTarget({
      clientIp: clientIpOf(c, security.resolveClientIp),
      path: c.req.path,
      apiKey,
      settings,
    });
    if (!target) return next();
    const decision = await security.rateLimiter.hit(target.bucket, target.rule);
    if (decision.allowed) return next();
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
  };
}

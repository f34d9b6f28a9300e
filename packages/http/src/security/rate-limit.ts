/**
 * Fixed-window rate limiting (spec "Rate limiting"): per client IP, a stricter bucket on `/api/v1/auth/*`, and
 * a separate bucket per valid API key (partitioned by a hash of the key). Unknown keys count against the IP,
 * so inventing keys opens no fresh buckets. Over the limit: HTTP 429, code 40008, `args.retryAfterSeconds`
 * and `Retry-After`.
 */
import type { ErrorCodeRegistry } from '@svc/kernel';
import { ErrorCode } from '@svc/kernel';
import { rateLimitTarget } from '@svc/security';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { readHeader } from '../context.js';
import { failure } from '../errors/handlers.js';
import { clientIpOf } from './client.js';
import type { HttpSecurity } from './deps.js';

export function rateLimit(security: HttpSecurity, errors: ErrorCodeRegistry): MiddlewareHandler<AppEnv> {
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

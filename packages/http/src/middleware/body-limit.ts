/**
 * Refuses request bodies above `Service:Api:MaxBodyBytes` (default 1 MiB) with HTTP 413 and the envelope,
 * by declared length or, for chunked bodies, while reading. Upload routes set their own limit.
 */
import type { ErrorCodeRegistry } from '@svc/kernel';
import { ErrorCode } from '@svc/kernel';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../context.js';
import { failure } from '../errors/handlers.js';

export function jsonBodyLimit(options: {
  maxBytes: number;
  errors: ErrorCodeRegistry;
}): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: options.maxBytes,
    onError: (c) => failure(c, options.errors, ErrorCode.PayloadTooLarge, { maxBytes: options.maxBytes }),
  });
  return async function jsonBodyLimitMiddleware(c, next) {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    return limit(c, next);
  };
}

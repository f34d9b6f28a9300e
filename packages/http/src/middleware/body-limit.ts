/**
 * Refuses request bodies above `Service:Api:MaxBodyBytes` (default 1 MiB) with HTTP 413 and the envelope,
 * by declared length or, for chunked bodies, while reading. Upload routes are exempt from that limit and get
 * their own: `Upload:MaxSizeMb` plus room for the multipart framing, answered with 44002 `FileTooLarge`.
 *
 * Within the limit, a JSON body is decoded and checked once here (json-text.ts: invalid UTF-8, NUL, lone
 * surrogates answer 48000) and the checked text is what the route's parser reads: one pass, no extra layer.
 */
import type { ErrorCodeRegistry } from '@svc/kernel';
import { ErrorCode } from '@svc/kernel';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../context.js';
import { failure } from '../errors/handlers.js';
import { checkJsonBody, isJsonContentType } from './json-text.js';

/** Multipart framing around one file (boundaries, part headers, a few small fields). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export interface UploadLimit {
  /** Exact request paths of upload routes. */
  paths: readonly string[];
  /** Largest accepted file in bytes. */
  maxFileBytes: number;
}

export function jsonBodyLimit(options: {
  maxBytes: number;
  errors: ErrorCodeRegistry;
  /** Upload routes and their limit. @default none */
  uploads?: UploadLimit;
}): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: options.maxBytes,
    onError: (c) => failure(c, options.errors, ErrorCode.PayloadTooLarge, { maxBytes: options.maxBytes }),
  });
  const uploadPaths = new Set(options.uploads?.paths ?? []);
  const maxFileBytes = options.uploads?.maxFileBytes ?? 0;
  const uploadLimit = bodyLimit({
    maxSize: maxFileBytes + MULTIPART_OVERHEAD_BYTES,
    onError: (c) => failure(c, options.errors, ErrorCode.FileTooLarge, { maxBytes: maxFileBytes }),
  });
  return async function jsonBodyLimitMiddleware(c, next) {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    if (uploadPaths.has(c.req.path)) return uploadLimit(c, next);
    return limit(c, async () => {
      if (c.req.raw.body && isJsonContentType(c.req.raw.headers.get('content-type'))) {
        const checked = checkJsonBody(new Uint8Array(await c.req.arrayBuffer()));
        if ('problem' in checked) {
          c.res = failure(c, options.errors, ErrorCode.ParamInvalid, { errors: [checked.problem] });
          return;
        }
        // Hono's body cache holds promises although its type says otherwise; `c.req.json()` reads this text.
        (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(checked.text);
      }
      await next();
    });
  };
}

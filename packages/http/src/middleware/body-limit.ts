/**
 * Refuses request bodies above `Service:Api:MaxBodyBytes` (default 1 MiB) with HTTP 413 and the envelope,
 * by declared length or, for chunked bodies, while reading. Upload routes are exempt from that limit and get
 * their own: `Upload:MaxSizeMb` plus room for the multipart framing, answered with 44002 `FileTooLarge`; a
 * body within it is streamed by the upload route, which enforces the file size while the bytes arrive.
 *
 * A refused body is closed cleanly (issue 11): the rest of it is read and thrown away (at most
 * {@link LINGER_BYTES}) before the answer goes out with `Connection: close`, so the client has finished
 * sending, reads the answer and opens a new connection for its next request. Answering while the client is
 * still sending and then closing makes the kernel reset the connection, and the client loses the answer.
 */
import type { ErrorCodeRegistry } from '@svc/kernel';
import { ErrorCode } from '@svc/kernel';
import type { Context, MiddlewareHandler } from 'hono';
import { type AppEnv, readHeader } from '../context.js';
import { failure } from '../errors/handlers.js';

/** Multipart framing around one file (boundaries, part headers, a few small fields). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/**
 * Bytes of a refused body read and discarded before answering. Beyond it the answer goes out and the
 * connection is dropped (the client may then see a reset instead of the answer): a bound on what a client
 * can make the server read for nothing.
 */
export const LINGER_BYTES = 64 * 1024 * 1024;

export interface UploadLimit {
  /** Exact request paths of upload routes. */
  paths: readonly string[];
  /** Largest accepted file in bytes. */
  maxFileBytes: number;
}

/**
 * Reads and discards what is left of a body stream, at most `maxBytes`. Answers true when the body was read to
 * its end (the connection can carry another request), false when it was cut off.
 */
export async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes = LINGER_BYTES,
): Promise<boolean> {
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      read += value.byteLength;
      if (read > maxBytes) {
        await reader.cancel().catch(() => {});
        return false;
      }
    }
  } catch {
    return false;
  }
}

/** Reads and discards the body of this request (see {@link discardRest}). */
export async function discardBody(c: Context, maxBytes = LINGER_BYTES): Promise<boolean> {
  const body = c.req.raw.body;
  if (!body || body.locked) return false;
  return discardRest(body.getReader(), maxBytes);
}

/** After this answer the server closes the connection (Node honours the response header). */
export function closeAfterAnswer(c: Context): void {
  c.header('Connection', 'close');
}

export function jsonBodyLimit(options: {
  maxBytes: number;
  errors: ErrorCodeRegistry;
  /** Upload routes and their limit. @default none */
  uploads?: UploadLimit;
}): MiddlewareHandler<AppEnv> {
  const uploadPaths = new Set(options.uploads?.paths ?? []);
  const maxFileBytes = options.uploads?.maxFileBytes ?? 0;
  const maxUploadBytes = maxFileBytes + MULTIPART_OVERHEAD_BYTES;

  function refuse(c: Context, upload: boolean): Response {
    closeAfterAnswer(c);
    return upload
      ? failure(c, options.errors, ErrorCode.FileTooLarge, { maxBytes: maxFileBytes })
      : failure(c, options.errors, ErrorCode.PayloadTooLarge, { maxBytes: options.maxBytes });
  }

  return async function jsonBodyLimitMiddleware(c, next) {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const upload = uploadPaths.has(c.req.path);
    const max = upload ? maxUploadBytes : options.maxBytes;
    const declared = readHeader(c, 'content-length');
    if (declared !== undefined) {
      if (Number(declared) > max) {
        await discardBody(c);
        return refuse(c, upload);
      }
      // The framing bounds a body with a length: nothing to count.
      return next();
    }
    // An upload without a length is counted by the route's streaming reader.
    if (upload) return next();
    const body = c.req.raw.body;
    if (!body) return next();
    // A chunked body: counted while the route reads it; over the limit the rest is discarded, then refused.
    const reader = body.getReader();
    let size = 0;
    let exceeded = false;
    const counted = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            return;
          }
          size += value.byteLength;
          if (size > max) {
            exceeded = true;
            await discardRest(reader);
            controller.error(new Error('request body over the limit'));
            return;
          }
          controller.enqueue(value);
        } catch (error) {
          controller.error(error);
        }
      },
    });
    c.req.raw = new Request(c.req.raw, { body: counted, duplex: 'half' } as RequestInit);
    await next();
    if (exceeded) c.res = refuse(c, false);
  };
}

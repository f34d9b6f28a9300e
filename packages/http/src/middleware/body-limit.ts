/**
 * Refuses request bodies above `Service:Api:MaxBodyBytes` (default 1 MiB) with HTTP 413 and the envelope,
 * by declared length or, for chunked bodies, while reading. A route may declare a limit of its own
 * (`bodyLimit` in its options, openapi/policy.ts): a number is that many bytes (the import routes give
 * `Import:MaxFileSizeMb`); an upload route (`{ upload: maxFileBytes }`) gets its file size plus room for the
 * multipart framing, answered with 44002 `FileTooLarge`, and a body within it is streamed by the route, which
 * enforces the file size while the bytes arrive.
 *
 * A declared `Content-Length` over the route's limit is answered at once, before any of the body is read
 * (contract §11), with 413 and `Connection: close`: a client announcing 50 MB learns at once that they will be
 * refused. The reference listener then closes the connection without a reset (listen.ts, `lingerOnClose`):
 * it ends its side after the answer and reads and drops what the client still sends, at most
 * {@link LINGER_BYTES}, so the kernel never answers those bytes with a reset that would lose the answer.
 * A chunked body over the limit is refused once the limit is passed; the rest of it is read and thrown away (at
 * most {@link LINGER_BYTES}) before the answer goes out with `Connection: close` (issue 11).
 *
 * Within the limit, a JSON body is decoded and checked once here (json-text.ts: invalid UTF-8, NUL, lone
 * surrogates answer 48000) and the checked text is what the route's parser reads: one pass, no extra layer.
 */

import type { IncomingMessage } from 'node:http';
import type { ErrorCodeRegistry } from '@svc/kernel';
import { ErrorCode } from '@svc/kernel';
import { UploadErrorCode } from '@svc/modules';
import type { Context, HonoRequest, MiddlewareHandler } from 'hono';
import { type AppEnv, announcesBody, readHeader } from '../context.js';
import { failure } from '../errors/handlers.js';
import type { BodyLimit } from '../openapi/policy.js';
import { checkJsonBody, isJsonContentType } from './json-text.js';

/** Multipart framing around one file (boundaries, part headers, a few small fields). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/**
 * Bytes of a refused body read and discarded before answering. Beyond it the answer goes out and the
 * connection is dropped (the client may then see a reset instead of the answer): a bound on what a client
 * can make the server read for nothing.
 */
export const LINGER_BYTES = 64 * 1024 * 1024;

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

/**
 * The body of a request with a declared length, read from Node's `IncomingMessage` without node-server's Web
 * `Request` (a `ReadableStream` over the socket, an `AbortSignal`, undici's headers: a third of a validated JSON
 * update's CPU on SQLite, 620 → 410 µs in bench/oplog.mjs). Answers undefined when something has already read, or begun to read, the stream (a
 * consumer's middleware, node-server's `Request`): then the body is read through that `Request`. The bytes are
 * left as `incoming.rawBody`, which node-server's `Request` serves as the body should anything ask for it later.
 * A request whose connection closes before the declared bytes arrived rejects (it has no one to answer).
 */
export function readUntouched(incoming: IncomingMessage, length: number): Promise<Buffer> | undefined {
  if (incoming.readableFlowing !== null || incoming.readableDidRead || incoming.readableEnded)
    return undefined;
  if ('rawBody' in incoming) return undefined;
  // Gone before anyone read it (the client hung up while something earlier waited): no 'end' will come.
  if (incoming.destroyed || incoming.errored || incoming.readableAborted) {
    return Promise.reject(new Error(`the connection closed before its ${length} body bytes were read`));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    };
    const settle = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onEnd = () => {
      settle();
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
      resolve(body);
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onClose = () => {
      settle();
      reject(new Error(`the connection closed after ${size} of ${length} body bytes`));
    };
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onError);
    incoming.once('close', onClose);
  });
}

/**
 * Whether node-server has built the full Web `Request` behind its light one (something asked for its `body`,
 * `signal` or another part only the full request has): it then owns the Node stream. node-server keeps it under
 * a symbol of its own, looked up by description; a request that is not node-server's light one (replaced, or
 * `app.request()`) counts as built.
 */
export function webRequestBuilt(raw: Request): boolean {
  const symbols = Object.getOwnPropertySymbols(raw);
  if (!symbols.some((s) => s.description === 'incomingKey')) return true;
  return symbols.some(
    (s) => s.description === 'requestCache' && (raw as unknown as Record<symbol, unknown>)[s] !== undefined,
  );
}

/** After this answer the server closes the connection (Node honours the response header). */
export function closeAfterAnswer(c: Context): void {
  c.header('Connection', 'close');
}

/**
 * Set in a request's body cache once `c.req.json()` has parsed the checked JSON text. A symbol: Hono's own loop
 * over the cache's keys (`for … in`, to find a cached body to convert) never sees it.
 */
const JSON_PARSED = Symbol('svc.jsonParsed');

/**
 * `c.req.json()` of a request whose JSON text the body limit checked: Hono's own parse of that text (a fresh value
 * each call, as Hono gives it), which also notes that the text is JSON, so that the operation log does not parse
 * it a second time to know (one function for every request, reading the request from `this`).
 */
function parseCheckedText(this: HonoRequest): Promise<unknown> {
  const cache = this.bodyCache as Record<string | symbol, unknown>;
  return this.text().then((text) => {
    const value: unknown = JSON.parse(text);
    cache[JSON_PARSED] = true;
    return value;
  });
}

/** True when the route parsed the request's checked JSON text (`jsonText`) successfully. */
export function jsonTextParsed(c: Context): boolean {
  return (c.req.bodyCache as Record<string | symbol, unknown>)[JSON_PARSED] === true;
}

/** True when the body limit has something to check: a method that may carry a body. */
export function bodyLimitApplies(c: Context<AppEnv>): boolean {
  const method = c.req.method;
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

export interface BodyLimitOptions {
  /** `Service:Api:MaxBodyBytes`: the limit of a route without one of its own. */
  maxBytes: number;
  errors: ErrorCodeRegistry;
  /** The `bodyLimit` of the route that answers this method and path (the route table's policies). @default none */
  limitOf?: (method: string, path: string) => BodyLimit | undefined;
}

export function jsonBodyLimit(options: BodyLimitOptions): MiddlewareHandler<AppEnv> {
  const limitOf = options.limitOf;

  /** The request's limit in bytes, by its route's `bodyLimit`. */
  function maxOf(limit: BodyLimit | undefined): number {
    if (limit === undefined) return options.maxBytes;
    return typeof limit === 'number' ? limit : limit.upload + MULTIPART_OVERHEAD_BYTES;
  }

  /** 413 with `Connection: close`; an upload's with 44002, which elsewhere is a business answer (HTTP 200). */
  function refuse(c: Context, limit: BodyLimit | undefined, max: number): Response {
    closeAfterAnswer(c);
    return typeof limit === 'object'
      ? failure(c, options.errors, UploadErrorCode.FileTooLarge, { maxBytes: limit.upload }, 413)
      : failure(c, options.errors, ErrorCode.PayloadTooLarge, { maxBytes: max });
  }

  /**
   * Decodes and checks a JSON body once; the route's parser then reads the checked text. A body with a declared
   * length is read from Node's request itself when nothing has touched it yet (see {@link readUntouched}).
   */
  async function checkedJson(c: Context<AppEnv>, next: () => Promise<void>, length?: number): Promise<void> {
    // The media type first: reading `body` builds node-server's full Web `Request`, which only JSON needs here.
    if (!isJsonContentType(readHeader(c, 'content-type'))) return next();
    const incoming = c.env?.incoming;
    // node-server's Web `Request`, once built, holds the stream: its body is read through it.
    const direct =
      length !== undefined && incoming && !webRequestBuilt(c.req.raw)
        ? readUntouched(incoming, length)
        : undefined;
    if (direct || c.req.raw.body) {
      const checked = checkJsonBody(direct ? await direct : new Uint8Array(await c.req.arrayBuffer()));
      if ('problem' in checked) {
        c.res = failure(c, options.errors, ErrorCode.ParamInvalid, { errors: [checked.problem] });
        return;
      }
      // Hono's body cache holds promises although its type says otherwise; `c.req.json()` reads this text.
      (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(checked.text);
      c.req.json = parseCheckedText as typeof c.req.json;
      c.set('jsonText', checked.text);
    }
    await next();
  }

  return async function jsonBodyLimitMiddleware(c, next) {
    if (!bodyLimitApplies(c)) return next();
    const limit = limitOf?.(c.req.method, c.req.path);
    const upload = typeof limit === 'object';
    const max = maxOf(limit);
    const declared = readHeader(c, 'content-length');
    if (declared !== undefined) {
      // At once, nothing of the body read (the listener drops what still arrives after the answer).
      if (Number(declared) > max) return refuse(c, limit, max);
      // The framing bounds a body with a length: nothing to count.
      return upload ? next() : checkedJson(c, next, Number(declared));
    }
    // An upload without a length is counted by the route's streaming reader.
    if (upload) return next();
    // Neither a length nor chunked framing: no body (context.ts), known without building a Web `Request` (the
    // common bodiless POST/DELETE).
    if (!announcesBody(c)) return next();
    const body = c.req.raw.body;
    if (!body) return next();
    // A chunked body: counted while it is read; over the limit the rest is discarded, then refused.
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
    try {
      await checkedJson(c, next);
    } catch (error) {
      if (!exceeded) throw error;
    }
    if (exceeded) c.res = refuse(c, limit, max);
  };
}

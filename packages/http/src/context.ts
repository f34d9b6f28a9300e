/**
 * The Hono environment of every @svc route: node-server bindings (the raw Node request, whose parsed headers
 * are cheaper to read than the Web `Headers` object) and the per-request variables.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Principal } from '@svc/security';
import type { Context } from 'hono';

export interface AppVariables {
  /** The request's trace identifier, echoed in `X-Trace-Id` and written to the exception log. */
  traceId: string;
  /** The authenticated caller, set by the route guards. */
  principal: Principal | undefined;
  /**
   * The client address once a stage before the answer resolved it (forwarded headers only from trusted proxies);
   * the operation log, which asks after the answer, resolves it without keeping it here.
   */
  clientIp: string | undefined;
  /**
   * The request's JSON body as checked text (valid UTF-8, no NUL or lone surrogate), set by the body limit before
   * any route reads it; what the operation log records without waiting for a parse.
   */
  jsonText: string | undefined;
}

export type AppEnv = { Bindings: Partial<HttpBindings>; Variables: AppVariables };

export type AppContext = Context<AppEnv>;

/**
 * Reads a request header, from the raw Node request when the app runs on node-server (no `Headers` object is
 * materialised), else through the Web API (`app.request()` in tests, other runtimes).
 */
export function readHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming) {
    const value = incoming.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return c.req.header(name) ?? undefined;
}

/** Headers of which Node's header object keeps the first (`_http_incoming.js` `matchKnownFields`). */
const FIRST_WINS = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'host',
  'authorization',
  'proxy-authorization',
  'if-modified-since',
  'if-unmodified-since',
  'from',
  'location',
  'max-forwards',
  'retry-after',
  'etag',
  'last-modified',
  'server',
  'age',
  'expires',
]);

/**
 * A request header as Node's header object would hold it, read from the raw list without building that object:
 * the first value of the headers Node keeps once, cookies joined with "; ", every other repeat joined with ", ".
 * `name` is lower-case. (`set-cookie`, an array there, is not a request header and is not asked for.)
 */
export function rawHeader(incoming: { rawHeaders: string[] }, name: string): string | undefined {
  const raw = incoming.rawHeaders;
  const first = FIRST_WINS.has(name);
  const separator = name === 'cookie' ? '; ' : ', ';
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i] as string;
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const next = raw[i + 1] as string;
    if (value === undefined) value = next;
    else if (first) break;
    else value = `${value}${separator}${next}`;
  }
  return value;
}

/**
 * Makes `c.req.header(name)` read the Node request's parsed headers, as {@link readHeader} does, instead of
 * node-server's Web `Headers`, which it would build from every raw header on first use (~10 CPU µs): Hono's
 * validators ask for `Content-Type` on every validated request, whatever part they validate. `c.req.header()`
 * without a name (all headers) and `c.req.raw.headers` are left as they were. Outside node-server it does nothing.
 */
export function headersFromIncoming(c: Context<AppEnv>): void {
  const incoming = c.env?.incoming;
  if (!incoming) return;
  const req = c.req;
  const all = req.header;
  req.header = ((name?: string) =>
    name === undefined ? all.call(req) : readHeader(c, name)) as typeof req.header;
}

/**
 * Whether the request carries a body, told by the raw headers where they can tell (no Web `Request` with a body
 * stream is built for it): on HTTP/1.x a body is announced by a `Content-Length` other than 0 or by
 * `Transfer-Encoding`, and without either there is none (RFC 9112 §6.3). Elsewhere (HTTP/2, whose frames carry
 * the body without either header, or `app.request()`) the Web `Request` is asked.
 */
export function announcesBody(c: Context): boolean {
  const length = readHeader(c, 'content-length');
  if (length === '0') return false;
  if (length !== undefined) return true;
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming?.httpVersionMajor === 1) return readHeader(c, 'transfer-encoding') !== undefined;
  return c.req.raw.body !== null;
}

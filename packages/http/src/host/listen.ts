/**
 * Serving and graceful shutdown (contract §1, issue 11): on SIGTERM/SIGINT stop accepting, finish in-flight
 * requests (up to `Service:Shutdown:DrainSeconds`), drain background work, close pools, exit 0.
 *
 * Draining keep-alive clients without resets (contract §11): `Service:Shutdown:DelaySeconds` first keeps serving
 * normally, for load balancers that still route here. Then the listener stops accepting, and from that moment
 * every response carries `Connection: close` (also those of requests in flight whose headers are not sent yet)
 * and its socket is ended once the response is written. An idle keep-alive socket is not closed by the server:
 * a request the client may already be sending on it is answered (with `Connection: close`) instead of reset; the
 * keep-alive timeout the client was told closes the others. Only what is still open at the end of
 * `Service:Shutdown:DrainSeconds` is cut.
 *
 * Idle and stalled connections are closed and the number of connections is bounded (connection-limits.ts).
 *
 * Malformed framing (a broken chunked body, a bad request line) is answered by `clientError` with a 400 and the
 * 48000 envelope where the socket can still take it, never reaching the exception log. A connection on which the
 * headers timeout passes is closed without an answer when it sent nothing of a request (a browser opens such
 * connections ahead of use), and answered 408 when part of one arrived.
 */
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type RequestListener,
  type Server,
  type ServerOptions,
  ServerResponse,
} from 'node:http';
import { type AddressInfo, Server as NetServer, Socket as NetSocket, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import { ErrorCode, type ErrorCodeRegistry, fail, type Logger } from '@svc/kernel';
import { LINGER_BYTES } from '../middleware/body-limit.js';
import {
  API_SECURE_HEADERS,
  PERMISSIONS_POLICY,
  PRESET,
  type PresetHeaders,
} from '../middleware/secure-headers.js';
import { TRACE_HEADER } from '../middleware/trace-id.js';
import { createMetricsServer } from '../observability/metrics-route.js';
import { applyConnectionLimits, requestTimeoutOptions } from './connection-limits.js';
import type { SvcServer } from './create-server.js';
import { answerBadTarget, hostVerdicts, targetProblem } from './request-target.js';
import { StartupError } from './startup-error.js';
import { declinedUpgrade, upgradeOnlyFor } from './upgrade-request.js';

export interface ListeningServer {
  /** The address actually bound (port 0 resolves to a free port). */
  url: string;
  /** The separate metrics listener (`Service:Metrics:Port` > 0), e.g. `http://127.0.0.1:9464`. */
  metricsUrl?: string;
  /** Stops accepting, waits for in-flight requests up to the drain time, then closes the service. */
  shutdown(): Promise<void>;
}

/** Parses a listen URL (`http://host:port`). */
export function parseListenUrl(url: string): { hostname: string; port: number } {
  let parsed: URL;
  try {
    parsed = new URL(url.replace('://*', '://0.0.0.0').replace('://+', '://0.0.0.0'));
  } catch {
    throw new StartupError(
      `ASPNETCORE_URLS/PORT gives "${url}", which is not a URL like http://localhost:5100.`,
    );
  }
  if (parsed.protocol !== 'http:') {
    throw new StartupError(`Only http:// listen URLs are served (terminate TLS at a proxy); got "${url}".`);
  }
  const port = parsed.port === '' ? 80 : Number(parsed.port);
  return { hostname: parsed.hostname.replace(/^\[|\]$/g, ''), port };
}

/** Starts listening on the configured URL (and on the metrics port when one is configured). */
export async function listen(
  server: SvcServer,
  logger: Logger,
  urlOverride?: string,
): Promise<ListeningServer> {
  const metrics = await listenMetrics(server, logger);
  try {
    const main = await listenMain(server, logger, urlOverride, metrics?.close);
    return metrics ? { ...main, metricsUrl: metrics.url } : main;
  } catch (error) {
    await metrics?.close();
    throw error;
  }
}

/** The separate metrics listener, when `Service:Metrics:Port` is set. */
async function listenMetrics(
  server: SvcServer,
  logger: Logger,
): Promise<{ url: string; close: () => Promise<void> } | undefined> {
  const { Port: port, Host: host } = server.config.service.Metrics;
  if (!server.metrics || port === 0) return undefined;
  const http = createMetricsServer(server.metrics, (error) =>
    logger.error('Could not render the metrics.', { error }),
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(`${host}:${port} is already in use; set Service:Metrics:Port to another port.`)
          : error,
      ),
    );
    http.listen(port, host, () => resolve());
  });
  const info = http.address() as AddressInfo;
  const shown = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  const url = `http://${shown}:${info.port}`;
  logger.info(`Metrics on: ${url}/metrics`);
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        http.close(() => done());
        http.closeAllConnections();
      }),
  };
}

function listenMain(
  server: SvcServer,
  logger: Logger,
  urlOverride: string | undefined,
  closeMetrics: (() => Promise<void>) | undefined,
): Promise<ListeningServer> {
  const { hostname, port } = parseListenUrl(urlOverride ?? server.config.environment.url);
  const drainMs = server.config.service.Shutdown.DrainSeconds * 1000;
  const delayMs = server.config.service.Shutdown.DelaySeconds * 1000;
  const drain = { on: false };
  const limits = server.config.service.Server;
  // What the modules take off the HTTP path (the realtime hub's WebSocket upgrades): with an `upgrade` listener
  // attached, only the upgrades some module accepts leave it.
  const upgrades = server.modules.upgrades();
  const taken = upgrades.length > 0;
  const accepts = (request: IncomingMessage) => upgrades.some((u) => u.accepts(request));
  const serverOptions: ServerOptions = {
    ServerResponse: serviceResponse(drain, taken ? declinedUpgrade : undefined),
    ...requestTimeoutOptions(limits),
    ...(taken ? { IncomingMessage: upgradeOnlyFor(accepts) } : {}),
  };
  return new Promise((resolve, reject) => {
    const direct = server.direct;
    const errors = server.deps.errors;
    const hostOk = hostVerdicts();
    // Step 1 of the request path (middleware/pipeline.ts, "The request path"): the direct answer first, then
    // the targets node-server cannot build a request of, then node-server and Hono.
    const withDirect = (options: ServerOptions, listener: RequestListener) =>
      createServer(options, (incoming, outgoing) => {
        noteRequest(incoming);
        if (direct?.(incoming, outgoing)) return;
        const problem = targetProblem(incoming, hostOk);
        if (problem === undefined) listener(incoming, outgoing);
        else answerBadTarget(outgoing, errors, problem);
      });
    const http = serve(
      { fetch: server.app.fetch, hostname, port, serverOptions, createServer: withDirect as never },
      (info: AddressInfo) => {
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        const shown = hostname === 'localhost' ? 'localhost' : host;
        const url = `http://${shown}:${info.port}`;
        logger.info(`Now listening on: ${url}`);
        let stopping: Promise<void> | undefined;
        resolve({
          url,
          shutdown() {
            stopping ??= (async () => {
              if (delayMs > 0) {
                logger.info(`Shutting down in ${delayMs / 1000} s: serving as before until then.`);
                await new Promise((done) => setTimeout(done, delayMs));
              }
              logger.info('Shutting down: no new connections, finishing in-flight requests.');
              drain.on = true;
              // Upgraded sockets are not requests: their modules close them, or the listener would wait for them.
              const upgradesDrained = Promise.all(upgrades.map((u) => u.drain()));
              // net.Server's close stops accepting; http.Server's would also close every idle keep-alive socket at
              // once, resetting a request a client is sending on one at that moment.
              const closed = new Promise<void>((done) => NetServer.prototype.close.call(http, () => done()));
              const timer = setTimeout(() => {
                if ('closeAllConnections' in http) http.closeAllConnections();
              }, drainMs);
              await closed;
              await upgradesDrained;
              clearTimeout(timer);
              // Ends http.Server's own timeout sweep (its close on a server that no longer listens does only that).
              http.close();
              await closeMetrics?.();
              await server.close();
              logger.info('Stopped.');
            })();
            return stopping;
          },
        });
      },
    );
    applyConnectionLimits(http as Server, limits);
    if (taken)
      http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        const upgrade = upgrades.find((u) => u.accepts(request));
        if (upgrade) upgrade.handle(request, socket, head);
        else socket.destroy();
      });
    answerMalformedFraming(http as Server, server.deps.errors, logger);
    http.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(
              `${hostname}:${port} is already in use; set ASPNETCORE_URLS or PORT to another address.`,
            )
          : error,
      );
    });
  });
}

/**
 * The server's response class. It writes the trace id, the permissions policy and the secure headers the first stage preset (see
 * `PRESET` in secure-headers.ts) with its own header write, where a header the response set itself wins. While
 * the server drains, a response whose headers are not sent yet gets `Connection: close`, and a keep-alive
 * socket whose response ends then is closed; so does the response to an upgrade the listener declined (`closes`). Per response: a copy of the header record with the presets added,
 * and a flag test; no `setHeader` per header, no listener.
 */
function serviceResponse(
  drain: { on: boolean },
  /** Requests whose response closes the connection (an upgrade the listener declined: upgrade-request.ts). */
  closes?: (request: IncomingMessage) => boolean,
): typeof ServerResponse {
  const ServiceResponse = class ServiceResponse<Request extends IncomingMessage = IncomingMessage>
    extends ServerResponse<Request>
    implements PresetHeaders
  {
    declare readonly [PRESET]: true;
    presetTraceId: string | undefined = undefined;
    presetSecure = false;

    // Node's own signature: `writeHead(status, reason?, headers?)`, `headers` in the second place without a
    // reason. Plain parameters, no rest or spread: this runs once per response.
    override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
      const traceId = this.presetTraceId;
      if (traceId !== undefined) {
        this.presetTraceId = undefined;
        if (typeof reason === 'string') headers = withPresets(this, traceId, this.presetSecure, headers);
        else reason = withPresets(this, traceId, this.presetSecure, reason);
      }
      if ((drain.on || closes?.(this.req)) && !this.headersSent) this.setHeader('Connection', 'close');
      return super.writeHead(statusCode, reason as string, headers as OutgoingHttpHeaders);
    }

    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      // Answered before its body arrived (a declared oversize body, contract §11): when the connection closes
      // after this answer, it closes without a reset.
      const socket = this.socket;
      const early = !this.req.complete && socket !== null;
      if (early) lingerOnClose(socket, this.req);
      // During the drain a keep-alive socket must not wait for another request: once this response's bytes are
      // handed to the kernel ('finish'), its socket is ended (flushed, then FIN). Not a sweep of every idle
      // connection: a response that has ended but not flushed counts as idle there and would be cut.
      if (drain.on && !this.writableFinished) {
        this.once('finish', () => (early ? socket.destroySoon() : socket?.end()));
      }
      return super.end(chunk as string, encoding as BufferEncoding, callback as () => void);
    }
  };
  // The marker the first stage looks for (hasPresetHeaders).
  Object.defineProperty(ServiceResponse.prototype, PRESET, { value: true });
  return ServiceResponse;
}

/**
 * Makes Node's close after a `Connection: close` answer (`destroySoon`: end, then destroy once written) a
 * lingering close for a connection whose request body has not all arrived. Destroying or ending a socket while
 * the client still sends loses the answer: the kernel answers the unread bytes with a reset, and many clients
 * stop at the server's FIN while they are still sending. Instead the answer goes out at once and the connection
 * stays open while the rest of the body is read and dropped (Node's dump of an unread request); once it is in,
 * Node's own close follows. A client that hangs up after reading the answer closes it earlier, more than
 * {@link LINGER_BYTES} of body close it at once, and a client that stops sending is closed by the idle timeout
 * (connection-limits.ts).
 */
function lingerOnClose(socket: Socket, request: IncomingMessage): void {
  if (LINGERING.has(socket)) return;
  LINGERING.add(socket);
  let lingering = false;
  socket.destroySoon = function lingeringDestroySoon(this: Socket) {
    if (lingering) return;
    lingering = true;
    const close = () => SOCKET_DESTROY_SOON.call(this);
    if (request.complete) return close();
    let dropped = 0;
    request.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) this.destroy();
    });
    request.once('end', close);
  };
}

/** Sockets whose close lingers. */
const LINGERING = new WeakSet<Socket>();
const SOCKET_DESTROY_SOON = NetSocket.prototype.destroySoon;

/**
 * The preset headers the response does not carry yet, added to a copy of the header record of the `writeHead`
 * call (never to the caller's own object, which may be shared), or with `setHeader` when there is no record. A
 * header the response set itself wins, whatever the case of its name.
 */
function withPresets(response: ServerResponse, traceId: string, secure: boolean, headers: unknown): unknown {
  const record =
    headers !== null && typeof headers === 'object' && !Array.isArray(headers)
      ? Object.assign({}, headers as Record<string, unknown>)
      : undefined;
  let names: Set<string> | undefined;
  if (record) {
    names = new Set();
    for (const name in record) if (record[name] !== undefined) names.add(name.toLowerCase());
  }
  const add = (name: string, lower: string, value: string) => {
    if (response.hasHeader(name)) return;
    if (record === undefined) response.setHeader(name, value);
    else if (!names?.has(lower)) record[name] = value;
  };
  add(TRACE_HEADER, TRACE_LOWER, traceId);
  add(PERMISSIONS_POLICY[0], PERMISSIONS_LOWER, PERMISSIONS_POLICY[1]);
  if (secure) for (const [name, lower, value] of SECURE_PRESETS) add(name, lower, value);
  return record ?? headers;
}

const TRACE_LOWER = TRACE_HEADER.toLowerCase();
const PERMISSIONS_LOWER = PERMISSIONS_POLICY[0].toLowerCase();
const SECURE_PRESETS = API_SECURE_HEADERS.map(([name, value]) => [name, name.toLowerCase(), value] as const);

/**
 * HTTP framing errors (a bad chunk size, a request line Node cannot parse, headers too large) are the client's:
 * answered 400 with the 48000 envelope and `Connection: close` while nothing was sent on the socket yet, then
 * the socket is closed. They are logged at debug level and never written to the exception log.
 */
function answerMalformedFraming(http: Server, errors: ErrorCodeRegistry, logger: Logger): void {
  http.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    logger.debug('Malformed HTTP framing from a client.', { code: error.code });
    const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // Contract §11: a connection that sent nothing of a request (a browser's pre-connection) is closed quietly.
    const silent = timedOut && pending == null && socket.bytesRead === bytesAtLastRequest(socket);
    if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent || silent) {
      socket.destroy();
      return;
    }
    const code = ErrorCode.ParamInvalid.code;
    const status = timedOut ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const message = timedOut ? 'the request did not arrive in time' : 'malformed HTTP framing';
    const body = JSON.stringify(fail(code, errors.msgKeyOf(code), { errors: [{ path: '', message }] }));
    // When the request was dispatched (its body is what broke), the app's own answer never goes out: the
    // socket is closed after this one.
    socket.once('finish', () => socket.destroy());
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The socket's byte count when its last request was dispatched (0 before any), kept by the listener. */
const LAST_REQUEST_BYTES = Symbol('svc.lastRequestBytes');

function bytesAtLastRequest(socket: Socket): number {
  return (socket as Socket & { [LAST_REQUEST_BYTES]?: number })[LAST_REQUEST_BYTES] ?? 0;
}

/** Notes where the socket's last request ended its headers: bytes after it belong to a request not yet whole. */
function noteRequest(incoming: IncomingMessage): void {
  const socket = incoming.socket as Socket & { [LAST_REQUEST_BYTES]?: number };
  socket[LAST_REQUEST_BYTES] = socket.bytesRead;
}

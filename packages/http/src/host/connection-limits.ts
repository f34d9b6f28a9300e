/**
 * Bounds on the listener's connections (`Service:Server:*`). Node's defaults leave a connection that never sends
 * a request open for ever, give a stalled request body 300 s and headers 60 s (checked every 30 s), and accept
 * connections until the process runs out of file descriptors, after which `/health` and the database pools fail
 * too: 1000 silent sockets stayed open for minutes, and 400 of them under `ulimit -n 300` took the service down.
 *
 * The idle timeout is Node's socket inactivity timer (`server.timeout`: any byte read or written restarts it, so
 * a download or upload that moves keeps its connection). When it fires, {@link idleVerdict} decides: a socket
 * waiting for the client (no request, a body that stopped arriving, a response the client stopped reading) is
 * closed; one waiting for the service (a request it is still working on) is kept, as that work has its own
 * bounds (database deadlines, job timeouts). Upgraded WebSocket sockets leave Node's timeout handling at the
 * upgrade and `ws` clears their timer; the hub's heartbeat looks after them.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ServiceOptions } from '@svc/kernel';
import { StartupError } from './startup-error.js';

type Limits = ServiceOptions['Server'];

/** How often Node checks the headers and request timeouts (its default, 30 s, would let them run 30 s over). */
const TIMEOUT_CHECK_MS = 1_000;

/** File descriptors kept back from `MaxConnections` 0: database pools, Redis, log and upload files. */
const DESCRIPTOR_SHARE = 0.75;

/** Options for `createServer`: the request timeouts, which Node takes only there. */
export function requestTimeoutOptions(limits: Limits): ServerOptions {
  if (limits.HeadersTimeoutSeconds > limits.RequestTimeoutSeconds) {
    throw new StartupError(
      `Service:Server:HeadersTimeoutSeconds (${limits.HeadersTimeoutSeconds}) must not exceed Service:Server:RequestTimeoutSeconds (${limits.RequestTimeoutSeconds}).`,
    );
  }
  return {
    headersTimeout: limits.HeadersTimeoutSeconds * 1000,
    requestTimeout: limits.RequestTimeoutSeconds * 1000,
    connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, limits.HeadersTimeoutSeconds * 1000),
  };
}

/** Sets the idle timeout and the connection bound on a created server. */
export function applyConnectionLimits(server: Server, limits: Limits): void {
  server.timeout = limits.IdleTimeoutSeconds * 1000;
  const max = limits.MaxConnections > 0 ? limits.MaxConnections : descriptorBound();
  if (max !== undefined) server.maxConnections = max;
  // With a listener here Node no longer destroys a timed-out socket itself: the verdict does.
  server.on('timeout', (socket: Socket) => {
    if (idleVerdict(socket) === 'close') socket.destroy();
  });
}

/**
 * What to do with a socket on which nothing moved for the idle timeout: `close` when the service waits for the
 * client, `keep` when the client waits for the service.
 */
export function idleVerdict(socket: Socket): 'close' | 'keep' {
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  // No request: the client never sent one, or it is between requests.
  if (!response) return 'close';
  const request: IncomingMessage = response.req;
  // The body stopped arriving.
  if (!request.complete) return 'close';
  // The answer waits in the socket's buffer: the client stopped reading.
  if (socket.writableLength > 0) return 'close';
  return 'keep';
}

/** Three quarters of the soft open-file limit (Linux `/proc/self/limits`), or undefined where unknown or unlimited. */
function descriptorBound(): number | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\d+)/m.exec(text)?.[1];
  return soft === undefined ? undefined : Math.max(1, Math.floor(Number(soft) * DESCRIPTOR_SHARE));
}

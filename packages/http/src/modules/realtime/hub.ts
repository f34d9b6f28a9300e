/**
 * The realtime hub: `GET /hub/realtime` upgraded to a WebSocket (`ws` on the Node listener's `upgrade` event), built
 * once by module `Realtime` (on when `Service:Realtime:Enabled`, default: Development only, and not switched off).
 *
 * - Authentication happens before the upgrade: the access token from `Authorization: Bearer …`, or from
 *   `?access_token=` (accepted on this path only; browsers cannot set headers on a WebSocket), verified as bearer
 *   requests are, with a live session. Otherwise HTTP 401 and no socket. The token's own expiry closes the socket
 *   (4401) at the next heartbeat, so a client reconnects with a fresh token and is checked again.
 * - Messages are JSON `{type, data}`: a module's message of a kind it declares (`realtimeKinds`) to its recipients,
 *   e.g. `notice-changed` (`{noticeId, action}`) to the receivers of a published, deleted or restored notice (module
 *   `Notice`); the hub's own: `force-logout` (`{reason}`) to each session that ended, after which its socket is closed
 *   (4001); `resync` when messages may have been lost: after the cache's shared store (Redis) came back from an
 *   outage (to every client of this instance) and right after connecting with `?resume=1` (a client that
 *   reconnects after a drop asks for it). A client answering `resync` refetches its inbox and unread count.
 * - Events travel through the cache's publish/subscribe (`realtime` channel), so a change made on one instance
 *   reaches sockets on every instance.
 * - Heartbeat: every `HeartbeatSeconds` each socket is pinged; one that did not answer the previous ping is
 *   dropped, and so is one that leaves more than `MAX_UNREAD_BYTES` of messages unread. Connections are bounded per user and per instance (HTTP 429 / 503 before the upgrade): a slot is
 *   taken before the upgrade and given back exactly once, when the connection's TCP socket closes (an open
 *   socket keeps its slot however long it lives), or when a handshake has not opened within
 *   `HANDSHAKE_TIMEOUT_MS` on the service clock (its socket is then cut).
 * - What a client sends is bounded per user on this instance: every frame (message, binary or not, ping, pong) of any
 *   of the user's sockets here takes one token of the user's one bucket of `MessageBurst` refilled at
 *   `MessagesPerSecond` on the service clock (message-bucket.ts), so ten sockets send no more than one; the socket
 *   that finds it empty is closed with 1008 (its slot given back as on any close), logged once. The bucket lives as
 *   long as the user has a socket here, and after their last one closed until it has refilled (dropped then, at the
 *   close or at a heartbeat): closing a socket and opening another does not refill it.
 * - The upgrade: the app's hub route authenticates the request and reserves a slot, then ws's `handleUpgrade` checks
 *   the handshake itself. What ws refuses for its headers comes back through its `wsClientError` event and is
 *   answered with the 400 envelope; what it refuses on its own (a socket already closed, the server closing) it
 *   answers and destroys without calling back: nothing of the hub's is held for it but the slot, which the socket's
 *   close gives back.
 */
import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Repositories } from '@svc/data';
import type { CacheHealth } from '@svc/data/cache';
import { ErrorCode, type ErrorCodeRegistry, fail, type Logger } from '@svc/kernel';
import {
  fullBucket,
  isRefilled,
  type MessageBucket,
  type MessageRate,
  type RealtimeBus,
  type RealtimeEvent,
  type RealtimeOptions,
  takeMessage,
} from '@svc/modules';
import type { SessionManager, UserPrincipal } from '@svc/security';
import type { Context, Hono } from 'hono';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AppEnv } from '../../context.js';
import { TRACE_HEADER } from '../../middleware/trace-id.js';
import type { HttpSecurity } from '../../security/deps.js';
import { bearerToken } from '../../security/guards.js';

/** The hub's path. */
export const HUB_PATH = '/hub/realtime';

/**
 * Whether a Node request asks to become a hub socket: a WebSocket upgrade of the hub's path. Every other request
 * with an `Upgrade` header is served as plain HTTP (host/upgrade-request.ts).
 */
export function isHubUpgrade(request: IncomingMessage): boolean {
  const path = (request.url ?? '').split('?', 1)[0];
  return (
    request.method === 'GET' && path === HUB_PATH && request.headers.upgrade?.toLowerCase() === 'websocket'
  );
}

/** Close codes the hub uses. */
export const HubCloseCode = {
  /** The session ended (after `force-logout`). */
  SessionEnded: 4001,
  /** The access token expired: reconnect with a fresh one. */
  TokenExpired: 4401,
  /** The instance is shutting down. */
  GoingAway: 1001,
  /** The client sent more than `MessageBurst` frames at once or faster than `MessagesPerSecond` (policy violation). */
  TooManyMessages: 1008,
} as const;

/** Longest client message accepted (clients only send `{"type":"ping"}`); larger frames close with 1009. */
const MAX_CLIENT_MESSAGE_BYTES = 4096;
/**
 * Bytes of messages a client may leave unread before it is dropped. Messages are a few dozen bytes and a live
 * client reads them; one that sends pings and never reads the pongs (unsolicited pongs of its own keep the
 * heartbeat content) would otherwise have every answer queued in this process's memory.
 */
const MAX_UNREAD_BYTES = 1024 * 1024;
/**
 * A reserved slot whose handshake has not opened after this long (service clock) is given back and its socket cut.
 * The upgrade completes within one turn of the event loop after the route answers, so this only catches stalls.
 */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * How often (service clock) each session with an open socket is looked up at its row, at a heartbeat: a session
 * also ends without any request (its idle or absolute timeout, applied lazily when a request authenticates), and a
 * revocation's broadcast can be lost (Redis away); its sockets must close anyway (modules.md: "the connection
 * closes when the session ends"). One read a heartbeat for the sessions due, each checked once a minute; the
 * timeouts are counted in minutes.
 */
export const SESSION_CHECK_MS = 60_000;

/** The cache's health signal when it is the Redis one (the resilient wrapper). */
export interface HubCacheHealth {
  health(): CacheHealth;
  probe(): Promise<CacheHealth>;
  onStateChange(listener: (state: CacheHealth) => void): () => void;
}

/** What the hub is built from (module `Realtime` hands it the core's parts it uses). */
export interface HubDeps {
  /** The module's options (`Service:Realtime`). */
  options: RealtimeOptions;
  /** The bus it subscribes to and tells session ends through. */
  bus: RealtimeBus;
  logger: Logger;
  now: () => Date;
  errors: Pick<ErrorCodeRegistry, 'msgKeyOf'>;
  /** The upgrade's token is authenticated as bearer requests are (`security.sessions`, read at each upgrade). */
  security: Pick<HttpSecurity, 'sessions'>;
  /** The session rows of open sockets, looked up at heartbeats. */
  repos: Pick<Repositories, 'sessions'>;
  /** Timeouts applied at those lookups, and the session ends it tells the sockets of. */
  sessions: Pick<SessionManager, 'expireIfDue' | 'onSessionsEnded'>;
  /** The Redis cache's health (resync after an outage); undefined with the in-process cache. */
  cacheHealth?: HubCacheHealth | undefined;
}

export interface RealtimeHub {
  /** Adds `GET /hub/realtime` to the app (before any catch-all route). */
  mount(app: Hono<AppEnv>): void;
  /** Subscribes to the realtime channel and to session ends. */
  start(): Promise<void>;
  /**
   * Takes one upgrade request Node handed to the server's `upgrade` event (one {@link isHubUpgrade} accepts): the
   * mounted route checks it, then ws opens the socket or the refusal is written back.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Attaches {@link handleUpgrade} to a Node HTTP server's `upgrade` event (tests; `listen` dispatches itself). */
  inject(server: Server): void;
  /** Open sockets on this instance. */
  connectionCount(): number;
  /**
   * What the hub holds for connections on this instance: slots reserved (handshakes in progress and open sockets),
   * upgrade requests between the route and ws, and users with a message bucket (kept after their last socket closed
   * until it has refilled). All zero once every socket closed and every bucket refilled.
   */
  held(): { slots: number; upgrades: number; buckets: number };
  /** Closes every socket (1001) and stops the subscriptions. */
  close(): Promise<void>;
}

interface Connection {
  userId: number;
  sessionId: string;
  /** Access-token expiry (ms since epoch), when the token carries one. */
  expiresAt: number | undefined;
  ws: WebSocket;
  alive: boolean;
  /** What the user may still send on this instance, shared by all their sockets here (see {@link admit}). */
  bucket: MessageBucket;
}

/** One reserved connection slot: taken before the upgrade, given back exactly once (`state` becomes `released`). */
interface Slot {
  userId: number;
  /** Service-clock ms when the slot was taken. */
  since: number;
  state: 'handshake' | 'open' | 'released';
  /** The TCP socket of the upgrade request (the WebSocket's own socket once open). */
  socket: Duplex;
}

interface Pending {
  principal: UserPrincipal;
  expiresAt: number | undefined;
  resume: boolean;
  slot: Slot;
}

/** `exp` of an already verified JWT, in ms. */
function expiryOf(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates the hub of one server (module `Realtime` does, once).
 * @example const hub = createRealtimeHub({ options, bus, logger, now, errors, security, repos, sessions }); hub.mount(app); await hub.start();
 */
export function createRealtimeHub(deps: HubDeps): RealtimeHub {
  const { options, bus, cacheHealth } = deps;
  const rate: MessageRate = { burst: options.MessageBurst, perSecond: options.MessagesPerSecond };
  const log = deps.logger.child('Service.Realtime');
  const byUser = new Map<number, Set<Connection>>();
  const bySession = new Map<string, Set<Connection>>();
  /** Service-clock ms each session with sockets was last found live (at the upgrade, then every check). */
  const sessionCheckedAt = new Map<string, number>();
  let checkingSessions = false;
  /** Upgrade requests the hub route took (a slot reserved), from the route until `answerUpgrade` reads them. */
  const pending = new Map<IncomingMessage, Pending>();
  /**
   * Each user's bucket of frames, while they have a socket on this instance and, once their last one closed, until it
   * has refilled ({@link dropRefilledBuckets}).
   */
  const buckets = new Map<number, MessageBucket>();
  /** Reserved slots (handshakes in progress and open sockets), per user and in all. */
  const slots = new Map<number, number>();
  let slotTotal = 0;
  /** Slots whose socket has not opened yet, oldest first (insertion order). */
  const handshakes = new Set<Slot>();
  const stops: (() => unknown)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let mounted: Hono<AppEnv> | undefined;
  let closed = false;
  /** Longer frames close the socket with 1009; no `perMessageDeflate` (ws's default is off for a server). */
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  /** The trace id of the route's answer, for a refusal ws hands back (`wsClientError`) of that request. */
  const traceOf = new WeakMap<IncomingMessage, string>();
  // A handshake ws refuses for its headers (key, version, protocol list…): answered with the envelope, as every other
  // refusal of the hub is, instead of ws's plain text. ws checks, the hub only words the answer: no copy of its rules.
  wss.on('wsClientError', (error: Error, socket: Duplex, request: IncomingMessage) => {
    log.debug('Hub handshake refused.', { error: error.message });
    const code = ErrorCode.ParamInvalid.code;
    const body = JSON.stringify(fail(code, deps.errors.msgKeyOf(code)));
    const trace = traceOf.get(request);
    writeRefusal(socket, 400, body, [
      ['Content-Type', 'application/json'],
      // RFC 6455 §4.4: the versions this server speaks, as ws sends them.
      ['Sec-WebSocket-Version', '13, 8'],
      ...(trace ? [[TRACE_HEADER, trace] as [string, string]] : []),
    ]);
  });

  /** Gives a slot back; every path (refused upgrade, error, close before or after open, timeout) ends here. */
  function release(slot: Slot): void {
    if (slot.state === 'released') return;
    slot.state = 'released';
    handshakes.delete(slot);
    slotTotal--;
    const left = (slots.get(slot.userId) ?? 1) - 1;
    if (left <= 0) slots.delete(slot.userId);
    else slots.set(slot.userId, left);
  }

  /**
   * Takes a slot for a handshake on `socket`; it is given back when that socket closes. None for a socket already
   * destroyed (the client went away while its token was checked): its close may have passed, and would never give
   * the slot back.
   */
  function reserve(userId: number, socket: Duplex): Slot | 'user' | 'instance' | 'gone' {
    if (socket.destroyed) return 'gone';
    expireHandshakes();
    if (slotTotal >= options.MaxConnections) return 'instance';
    const mine = slots.get(userId) ?? 0;
    if (mine >= options.MaxConnectionsPerUser) return 'user';
    slots.set(userId, mine + 1);
    slotTotal++;
    const slot: Slot = { userId, since: deps.now().getTime(), state: 'handshake', socket };
    handshakes.add(slot);
    // The socket outlives the upgrade (it is the WebSocket's own), so its close covers a handshake that ws refused
    // or that the client dropped, as well as an open socket closing for any reason.
    socket.once('close', () => release(slot));
    return slot;
  }

  /** The socket opened: the slot is held until it closes. False when the slot was already given back. */
  function opened(slot: Slot): boolean {
    if (slot.state !== 'handshake') return false;
    slot.state = 'open';
    handshakes.delete(slot);
    return true;
  }

  /** Gives back the slots of handshakes that have not opened in time, and cuts their sockets. */
  function expireHandshakes(): void {
    const cutoff = deps.now().getTime() - HANDSHAKE_TIMEOUT_MS;
    for (const slot of handshakes) {
      // Oldest first: the first one still in time ends the sweep.
      if (slot.since > cutoff) break;
      release(slot);
      slot.socket.destroy();
    }
  }

  function add<K>(map: Map<K, Set<Connection>>, key: K, conn: Connection): void {
    const set = map.get(key) ?? new Set<Connection>();
    map.set(key, set);
    set.add(conn);
  }
  function remove<K>(map: Map<K, Set<Connection>>, key: K, conn: Connection): void {
    const set = map.get(key);
    set?.delete(conn);
    if (set?.size === 0) map.delete(key);
  }

  function send(conn: Connection, type: string, data: unknown): void {
    if (conn.ws.readyState !== 1) return;
    if (conn.ws.bufferedAmount > MAX_UNREAD_BYTES) {
      log.warn('Hub client dropped: it leaves its messages unread.', { userId: conn.userId });
      conn.ws.terminate();
      return;
    }
    conn.ws.send(JSON.stringify({ type, data }));
  }
  /**
   * Counts one frame the client sent: true while the user is within their rate, else this socket is closed (1008,
   * logged once: frames still arriving while it closes are dropped unread). The user's other sockets stay open; they
   * draw from the same bucket.
   */
  function admit(conn: Connection): boolean {
    if (conn.ws.readyState !== 1) return false;
    if (takeMessage(conn.bucket, rate, deps.now().getTime())) return true;
    log.warn('Hub client closed: it sends more messages than allowed.', {
      userId: conn.userId,
      burst: rate.burst,
      perSecond: rate.perSecond,
    });
    conn.ws.close(HubCloseCode.TooManyMessages, 'too many messages');
    return false;
  }

  const everyConnection = (): Connection[] => [...byUser.values()].flatMap((s) => [...s]);

  function deliver(event: RealtimeEvent): void {
    if (event.to === 'users') {
      const targets = event.all
        ? everyConnection()
        : event.userIds.flatMap((id) => [...(byUser.get(id) ?? [])]);
      for (const conn of targets) send(conn, event.kind, event.data);
      return;
    }
    for (const sessionId of event.sessionIds) {
      for (const conn of [...(bySession.get(sessionId) ?? [])]) {
        send(conn, 'force-logout', { reason: event.reason });
        conn.ws.close(HubCloseCode.SessionEnded, 'session ended');
      }
    }
  }

  /** Closes the sockets of a session that ended without its end being delivered (see {@link SESSION_CHECK_MS}). */
  function endSession(sessionId: string, reason: string): void {
    for (const conn of [...(bySession.get(sessionId) ?? [])]) {
      send(conn, 'force-logout', { reason });
      conn.ws.close(HubCloseCode.SessionEnded, 'session ended');
    }
  }

  /**
   * Looks up the sessions due a check: an ended timeout is applied (the session is revoked, and its end reaches
   * every instance's sockets as any other), a row already revoked or gone closes this instance's sockets itself.
   */
  async function checkSessions(now: number): Promise<void> {
    if (checkingSessions) return;
    const due: string[] = [];
    for (const [sessionId, checkedAt] of sessionCheckedAt) {
      if (!bySession.has(sessionId)) sessionCheckedAt.delete(sessionId);
      else if (now - checkedAt >= SESSION_CHECK_MS) due.push(sessionId);
    }
    if (due.length === 0) return;
    checkingSessions = true;
    try {
      // One read for every session due (in chunks of a few hundred ids), not one a session.
      const rows = new Map((await deps.repos.sessions.findByIds(due)).map((row) => [row.id, row]));
      for (const sessionId of due) {
        const row = rows.get(sessionId);
        if (!row || row.revokedAt !== null) {
          endSession(sessionId, row?.revokeReason ?? 'revoked');
        } else {
          const expiry = await deps.sessions.expireIfDue(row);
          // The revocation is broadcast too; closing here does not wait for it (nor depend on Redis).
          if (expiry) endSession(sessionId, expiry);
        }
        // Checked only once answered: a session whose check failed is looked at again at the next heartbeat.
        sessionCheckedAt.set(sessionId, now);
      }
    } catch (error) {
      // The database or the cache away: the next heartbeat tries again.
      log.warn('Could not check the sessions of open hub sockets.', { error });
    } finally {
      checkingSessions = false;
    }
  }

  /** Forgets the buckets of users with no socket here that have refilled (a new socket would get a full one anyway). */
  function dropRefilledBuckets(now: number): void {
    for (const [userId, bucket] of buckets) {
      if (!byUser.has(userId) && isRefilled(bucket, rate, now)) buckets.delete(userId);
    }
  }

  function heartbeat(): void {
    expireHandshakes();
    const now = deps.now().getTime();
    dropRefilledBuckets(now);
    void checkSessions(now);
    for (const conn of everyConnection()) {
      if (conn.expiresAt !== undefined && now >= conn.expiresAt) {
        conn.ws.close(HubCloseCode.TokenExpired, 'token expired');
        continue;
      }
      if (!conn.alive) {
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      conn.ws.ping();
    }
    // An idle instance sends nothing through Redis: this ping is what notices an outage (and so a recovery).
    if (cacheHealth?.health() === 'Healthy') void cacheHealth.probe().catch(() => {});
  }

  /** Writes an HTTP refusal on an upgrade's socket and closes it (`Connection: close`). */
  function writeRefusal(
    socket: Duplex,
    status: number,
    body: string | Buffer,
    headers: [string, string][],
  ): void {
    const payload = typeof body === 'string' ? Buffer.from(body) : body;
    const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'Connection: close'];
    for (const [name, value] of headers) lines.push(`${name}: ${value}`);
    lines.push(`Content-Length: ${payload.length}`, '', '');
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.once('finish', () => socket.destroy());
    socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), payload]));
  }

  /** A socket ws opened for a request the route took: it becomes a connection, or is let go at once. */
  function connect(ws: WebSocket, info: Pending): void {
    // From the first line: an error nobody listens to would end the process. A client's protocol error (a frame over
    // the limit, a malformed frame) is no fault of the service: debug; the close event follows and cleans up.
    ws.on('error', (error) => {
      log.debug('Hub socket error (the connection closes).', { error: error.message });
    });
    // Without a slot (it timed out meanwhile) the socket does not stay.
    if (!opened(info.slot)) {
      ws.terminate();
      return;
    }
    if (closed) {
      ws.close(HubCloseCode.GoingAway, 'shutting down');
      return;
    }
    const userId = info.principal.userId;
    let bucket = buckets.get(userId);
    if (!bucket) {
      bucket = fullBucket(rate, deps.now().getTime());
      buckets.set(userId, bucket);
    }
    const conn: Connection = {
      userId,
      sessionId: info.principal.sessionId,
      expiresAt: info.expiresAt,
      ws,
      alive: true,
      bucket,
    };
    add(byUser, conn.userId, conn);
    add(bySession, conn.sessionId, conn);
    // Authenticated by the upgrade just now.
    if (!sessionCheckedAt.has(conn.sessionId)) sessionCheckedAt.set(conn.sessionId, deps.now().getTime());
    ws.on('message', (data, isBinary) => {
      // Counted before anything else: a frame that is then ignored (binary, not JSON) costs a token too.
      if (!admit(conn) || isBinary) return;
      try {
        const message = JSON.parse(String(data)) as { type?: unknown };
        if (message?.type === 'ping') send(conn, 'pong', null);
      } catch {
        // Not JSON: ignored (clients have nothing else to say).
      }
    });
    ws.on('pong', () => {
      if (admit(conn)) conn.alive = true;
    });
    // ws answers a ping itself: a flood of them is as much work as one of messages.
    ws.on('ping', () => {
      admit(conn);
    });
    ws.on('close', () => {
      release(info.slot);
      remove(byUser, conn.userId, conn);
      remove(bySession, conn.sessionId, conn);
      // The user's last socket here: its bucket is forgotten once refilled, not before (a heartbeat drops it later),
      // so that a socket closed for its frames (or by its client) and opened again does not start with a full one.
      if (!byUser.has(conn.userId) && isRefilled(conn.bucket, rate, deps.now().getTime()))
        buckets.delete(conn.userId);
      log.debug('Hub connection closed.', { userId: conn.userId });
    });
    log.debug('Hub connection opened.', { userId: conn.userId });
    if (info.resume) send(conn, 'resync', null);
  }

  /**
   * One upgrade request: replayed through the app (the hub route authenticates it and reserves a slot, or answers
   * the refusal, whose envelope is written back), then handed to ws. ws calls back only when it opens a socket; when
   * it refuses (wsClientError above, or on its own: a socket already closed, the server closing) it destroys the
   * socket, whose close gives the slot back. The request's entry in `pending` is let go here in every case.
   */
  async function answerUpgrade(
    app: Hono<AppEnv>,
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    /** Called once the WebSocket owns the socket (and its errors). */
    handedOver: () => void,
  ): Promise<void> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.append(name, Array.isArray(value) ? (value[0] ?? '') : value);
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    let info: Pending | undefined;
    let response: Response;
    try {
      response = await app.request(url, { headers }, { incoming: request, outgoing: undefined });
    } finally {
      info = pending.get(request);
      pending.delete(request);
    }
    const trace = response.headers.get(TRACE_HEADER);
    if (info && response.ok) {
      const taken = info;
      if (trace !== null) traceOf.set(request, trace);
      wss.handleUpgrade(request, socket, head, (ws) => {
        handedOver();
        connect(ws, taken);
      });
      return;
    }
    // A slot taken by a route whose answer then failed (an error after it) is given back with the refusal.
    if (info) release(info.slot);
    const body = Buffer.from(await response.arrayBuffer());
    const lines: [string, string][] = [];
    for (const name of ['Content-Type', TRACE_HEADER]) {
      const value = response.headers.get(name);
      if (value !== null) lines.push([name, value]);
    }
    writeRefusal(socket, response.status, body, lines);
  }

  /** One upgrade request Node handed over (see {@link RealtimeHub.handleUpgrade}). */
  function handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const app = mounted;
    if (!app) {
      socket.destroy();
      return;
    }
    // Node takes its own error listener off a socket it hands to `upgrade`, and ws adds one only once it takes
    // the handshake: a client resetting its socket while the route checks its token would otherwise raise an
    // error nobody listens to, which ends the process (with no token needed).
    const onError = (error: Error) => {
      log.debug('Hub upgrade socket error (the connection closes).', { error: error.message });
      socket.destroy();
    };
    socket.on('error', onError);
    answerUpgrade(app, request, socket, head, () => socket.removeListener('error', onError)).catch(
      (error: unknown) => {
        log.warn('Hub upgrade failed.', { error });
        socket.destroy();
      },
    );
  }

  const refuse = (
    c: Context<AppEnv>,
    status: 400 | 401 | 426 | 429 | 503,
    code: typeof ErrorCode.TokenInvalid,
  ) => c.json(fail(code.code, deps.errors.msgKeyOf(code.code)), status);

  return {
    mount(app) {
      mounted = app;
      app.get(HUB_PATH, async (c) => {
        // `upgrade` is set by Node's HTTP parser (not declared by @types/node): true when the request came through
        // the server's upgrade event. A plain request that only carries the header could never open, yet would
        // hold a slot.
        const incoming = (c.env as { incoming?: IncomingMessage & { upgrade?: boolean } } | undefined)
          ?.incoming;
        if (c.req.header('upgrade')?.toLowerCase() !== 'websocket' || incoming?.upgrade !== true)
          return refuse(c, 426, ErrorCode.ParamInvalid);
        // The query token is read here and nowhere else; bearer routes read the header only.
        const token = bearerToken(c.req.header('authorization')) ?? c.req.query('access_token') ?? '';
        const principal = token ? await deps.security.sessions.authenticate(token) : null;
        if (!principal || closed)
          return refuse(
            c,
            closed ? 503 : 401,
            closed ? ErrorCode.ServiceUnavailable : ErrorCode.TokenInvalid,
          );
        const slot = reserve(principal.userId, incoming.socket);
        if (slot === 'user') return refuse(c, 429, ErrorCode.TooManyRequests);
        if (slot === 'instance') return refuse(c, 503, ErrorCode.ServiceUnavailable);
        // Nobody reads this answer: written to a socket already gone, it is dropped.
        if (slot === 'gone') return refuse(c, 400, ErrorCode.ParamInvalid);
        const resume = /^(1|true)$/i.test(c.req.query('resume') ?? '');
        // Read (and let go) by `answerUpgrade` once this answer is back; ws checks the handshake itself then.
        pending.set(incoming, { principal, expiresAt: expiryOf(token), resume, slot });
        return c.body(null, 200);
      });
    },

    async start() {
      stops.push(await bus.subscribe(deliver));
      stops.push(
        deps.sessions.onSessionsEnded((event) => {
          void bus.endSessions({
            sessionIds: event.sessionIds,
            userId: event.userId,
            reason: String(event.reason),
          });
        }),
      );
      if (cacheHealth) {
        let previous = cacheHealth.health();
        stops.push(
          cacheHealth.onStateChange((state) => {
            // Back from an outage: events sent meanwhile (on any instance) may be lost.
            if (state === 'Healthy' && previous === 'Degraded') {
              log.info('Cache back: asking hub clients to resync.', { clients: everyConnection().length });
              for (const conn of everyConnection()) send(conn, 'resync', null);
            }
            previous = state;
          }),
        );
      }
      timer = setInterval(heartbeat, options.HeartbeatSeconds * 1000);
      timer.unref();
    },

    handleUpgrade,

    inject(server) {
      server.on('upgrade', handleUpgrade);
    },

    connectionCount: () => everyConnection().length,

    held: () => ({ slots: slotTotal, upgrades: pending.size, buckets: buckets.size }),

    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled(stops.map((stop) => stop()));
      // Close frames first; whatever has not closed within a second is cut.
      const sockets = [...wss.clients];
      await Promise.race([
        Promise.all(
          sockets.map(
            (ws) =>
              new Promise<void>((done) => {
                ws.once('close', () => done());
                ws.close(HubCloseCode.GoingAway, 'shutting down');
              }),
          ),
        ),
        new Promise<void>((done) => setTimeout(done, 1000).unref()),
      ]);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((done) => wss.close(() => done()));
    },
  };
}

/**
 * The realtime hub: `GET /hub/realtime` upgraded to a WebSocket (`@hono/node-ws` on the Node listener), on when
 * `Service:Realtime:Enabled` (default: Development only) and the `Realtime` module is not switched off.
 *
 * - Authentication happens before the upgrade: the access token from `Authorization: Bearer …`, or from
 *   `?access_token=` (accepted on this path only; browsers cannot set headers on a WebSocket), verified as bearer
 *   requests are, with a live session. Otherwise HTTP 401 and no socket. The token's own expiry closes the socket
 *   (4401) at the next heartbeat, so a client reconnects with a fresh token and is checked again.
 * - Messages are JSON `{type, data}`: `notice-changed` (`{noticeId, action}`) to the receivers of a published or
 *   deleted notice; `force-logout` (`{reason}`) to each session that ended, after which its socket is closed
 *   (4001); `resync` when messages may have been lost: after the cache's shared store (Redis) came back from an
 *   outage (to every client of this instance) and right after connecting with `?resume=1` (a client that
 *   reconnects after a drop asks for it). A client answering `resync` refetches its inbox and unread count.
 * - Events travel through the cache's publish/subscribe (`realtime` channel), so a change made on one instance
 *   reaches sockets on every instance.
 * - Heartbeat: every `HeartbeatSeconds` each socket is pinged; one that did not answer the previous ping is
 *   dropped. Connections are bounded per user and per instance (HTTP 429 / 503 before the upgrade).
 */
import type { Server } from 'node:http';
import { createNodeWebSocket } from '@hono/node-ws';
import type { CacheHealth } from '@svc/data/cache';
import { ErrorCode, fail } from '@svc/kernel';
import type { UserPrincipal } from '@svc/security';
import type { Context, Hono } from 'hono';
import type { WebSocket } from 'ws';
import type { AppEnv } from '../context.js';
import type { HttpDeps } from '../deps.js';
import { bearerToken } from '../security/guards.js';
import { REALTIME_CHANNEL, type RealtimeEvent, realtimeBusFor } from './bus.js';

/** The hub's path. */
export const HUB_PATH = '/hub/realtime';

/** Close codes the hub uses. */
export const HubCloseCode = {
  /** The session ended (after `force-logout`). */
  SessionEnded: 4001,
  /** The access token expired: reconnect with a fresh one. */
  TokenExpired: 4401,
  /** The instance is shutting down. */
  GoingAway: 1001,
} as const;

/** Longest client message accepted (clients only send `{"type":"ping"}`); larger frames close with 1009. */
const MAX_CLIENT_MESSAGE_BYTES = 4096;
/** A reserved slot whose handshake never completes is released after this long. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

/** The cache's health signal when it is the Redis one (the resilient wrapper). */
export interface HubCacheHealth {
  health(): CacheHealth;
  probe(): Promise<CacheHealth>;
  onStateChange(listener: (state: CacheHealth) => void): () => void;
}

export interface RealtimeHub {
  /** Adds `GET /hub/realtime` to the app (before any catch-all route). */
  mount(app: Hono<AppEnv>): void;
  /** Subscribes to the realtime channel and to session ends. */
  start(): Promise<void>;
  /** Attaches the upgrade handling to a Node HTTP server (`listen` does it). */
  inject(server: Server): void;
  /** Open sockets on this instance. */
  connectionCount(): number;
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
}

interface Pending {
  principal: UserPrincipal;
  expiresAt: number | undefined;
  resume: boolean;
  release: () => void;
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

/** Whether the hub is on for these deps (`Service:Realtime:Enabled`, Development by default, kill-switch). */
export function isRealtimeEnabled(deps: Pick<HttpDeps, 'config'>): boolean {
  const { service, environment } = deps.config;
  const on = service.Realtime.Enabled ?? environment.isDevelopment;
  return on && !service.Api.DisabledModules.some((m) => m.toLowerCase() === 'realtime');
}

/**
 * Creates the hub of one server.
 * @example const hub = createRealtimeHub(deps, server.resilientCache); hub.mount(app); await hub.start();
 */
export function createRealtimeHub(deps: HttpDeps, cacheHealth?: HubCacheHealth): RealtimeHub {
  const options = deps.config.service.Realtime;
  const log = deps.logger.child('Service.Realtime');
  const bus = realtimeBusFor(deps.core.cache, deps.logger);
  const byUser = new Map<number, Set<Connection>>();
  const bySession = new Map<string, Set<Connection>>();
  const pending = new WeakMap<Request, Pending>();
  /** Reserved slots (handshakes in progress and open sockets), per user and in all. */
  const slots = new Map<number, number>();
  let slotTotal = 0;
  const stops: (() => unknown)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let node: ReturnType<typeof createNodeWebSocket> | undefined;
  let closed = false;

  function reserve(userId: number): (() => void) | 'user' | 'instance' {
    if (slotTotal >= options.MaxConnections) return 'instance';
    const mine = slots.get(userId) ?? 0;
    if (mine >= options.MaxConnectionsPerUser) return 'user';
    slots.set(userId, mine + 1);
    slotTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slotTotal--;
      const left = (slots.get(userId) ?? 1) - 1;
      if (left <= 0) slots.delete(userId);
      else slots.set(userId, left);
    };
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
    conn.ws.send(JSON.stringify({ type, data }));
  }
  const everyConnection = (): Connection[] => [...byUser.values()].flatMap((s) => [...s]);

  function deliver(event: RealtimeEvent): void {
    if (event.kind === 'notice-changed') {
      const data = { noticeId: event.noticeId, action: event.action };
      const targets = event.all
        ? everyConnection()
        : event.userIds.flatMap((id) => [...(byUser.get(id) ?? [])]);
      for (const conn of targets) send(conn, 'notice-changed', data);
      return;
    }
    for (const sessionId of event.sessionIds) {
      for (const conn of [...(bySession.get(sessionId) ?? [])]) {
        send(conn, 'force-logout', { reason: event.reason });
        conn.ws.close(HubCloseCode.SessionEnded, 'session ended');
      }
    }
  }

  function heartbeat(): void {
    const now = deps.now().getTime();
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

  const refuse = (c: Context<AppEnv>, status: 401 | 426 | 429 | 503, code: typeof ErrorCode.TokenInvalid) =>
    c.json(fail(code.code, deps.errors.msgKeyOf(code.code)), status);

  return {
    mount(app) {
      node = createNodeWebSocket({ app });
      node.wss.options.maxPayload = MAX_CLIENT_MESSAGE_BYTES;
      const upgrade = node.upgradeWebSocket((c) => {
        const info = pending.get(c.req.raw);
        let conn: Connection | undefined;
        return {
          onOpen(_event, ctx) {
            if (!info) return;
            const ws = ctx.raw as WebSocket;
            if (closed) {
              info.release();
              ws.close(HubCloseCode.GoingAway, 'shutting down');
              return;
            }
            conn = {
              userId: info.principal.userId,
              sessionId: info.principal.sessionId,
              expiresAt: info.expiresAt,
              ws,
              alive: true,
            };
            add(byUser, conn.userId, conn);
            add(bySession, conn.sessionId, conn);
            ws.on('pong', () => {
              if (conn) conn.alive = true;
            });
            log.debug('Hub connection opened.', { userId: conn.userId });
            if (info.resume) send(conn, 'resync', null);
          },
          onMessage(event) {
            if (!conn || typeof event.data !== 'string') return;
            try {
              const message = JSON.parse(event.data) as { type?: unknown };
              if (message?.type === 'ping') send(conn, 'pong', null);
            } catch {
              // Not JSON: ignored (clients have nothing else to say).
            }
          },
          onClose() {
            info?.release();
            if (!conn) return;
            remove(byUser, conn.userId, conn);
            remove(bySession, conn.sessionId, conn);
            log.debug('Hub connection closed.', { userId: conn.userId });
          },
          onError() {
            // The close event follows and cleans up.
          },
        };
      });

      app.get(HUB_PATH, async (c, next) => {
        const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
        if (c.req.header('upgrade')?.toLowerCase() !== 'websocket' || !incoming)
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
        const release = reserve(principal.userId);
        if (release === 'user') return refuse(c, 429, ErrorCode.TooManyRequests);
        if (release === 'instance') return refuse(c, 503, ErrorCode.ServiceUnavailable);
        const giveUp = setTimeout(release, HANDSHAKE_TIMEOUT_MS);
        giveUp.unref();
        const resume = /^(1|true)$/i.test(c.req.query('resume') ?? '');
        pending.set(c.req.raw, {
          principal,
          expiresAt: expiryOf(token),
          resume,
          release: () => {
            clearTimeout(giveUp);
            release();
          },
        });
        return upgrade(c, next);
      });
    },

    async start() {
      stops.push(await deps.core.cache.subscribe<RealtimeEvent>(REALTIME_CHANNEL, deliver));
      stops.push(
        deps.core.sessions.onSessionsEnded((event) => {
          void bus.publish({
            kind: 'force-logout',
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

    inject(server) {
      node?.injectWebSocket(server);
    },

    connectionCount: () => everyConnection().length,

    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled(stops.map((stop) => stop()));
      const wss = node?.wss;
      if (!wss) return;
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

/**
 * The realtime bus: what the hub delivers, published through the cache's publish/subscribe so that a message
 * sent on one instance reaches sockets on every instance (Redis pub/sub when Redis is the cache, in-process
 * otherwise). Built once by module `Realtime`; a module sends through its `publish` a message of a kind it
 * declares (`realtimeKinds` of its definition), the hub subscribes and delivers `{type: kind, data}`.
 */
import type { Cache, Unsubscribe } from '@svc/data/cache';
import type { Logger } from '@svc/kernel';

/** The cache channel of realtime events. */
export const REALTIME_CHANNEL = 'realtime';

/** Whom a message goes to: every connected user, or the users named. */
export type RealtimeRecipients = { readonly all: true } | { readonly userIds: readonly number[] };

/** A message to users on the channel: their sockets get `{type: kind, data}`. */
export interface RealtimeMessageEvent {
  to: 'users';
  kind: string;
  /** True for every connected user. */
  all: boolean;
  /** The receivers when not `all`. */
  userIds: number[];
  data: unknown;
}

/** Sessions ended: their sockets get `force-logout` and are closed. */
export interface ForceLogoutEvent {
  to: 'sessions';
  sessionIds: string[];
  userId?: number | undefined;
  reason: string;
}

export type RealtimeEvent = RealtimeMessageEvent | ForceLogoutEvent;

/** What a module needs to send realtime messages (module `Realtime`'s services offer it). */
export interface RealtimePublisher {
  /**
   * Sends `{type: kind, data}` to every socket of the recipients on every instance. `kind` must be declared by an
   * enabled module (`realtimeKinds`): another one is a programming error (TypeError). A failure of the cache is
   * logged, never thrown (the change the message tells of is already stored).
   */
  publish(kind: string, to: RealtimeRecipients, data: unknown): Promise<void>;
}

export interface RealtimeBus extends RealtimePublisher {
  /** Tells every instance that sessions ended (their sockets are told and closed). Logged, never thrown. */
  endSessions(event: Omit<ForceLogoutEvent, 'to'>): Promise<void>;
  /** Receives every event published on any instance; answers the unsubscribe. */
  subscribe(deliver: (event: RealtimeEvent) => void): Promise<Unsubscribe>;
}

export interface RealtimeBusOptions {
  cache: Cache;
  logger: Logger;
  /** The message kinds modules may publish (those the enabled modules declare). */
  kinds: ReadonlySet<string>;
}

/**
 * The bus over one cache (built once per server by module `Realtime`).
 * @example const bus = createRealtimeBus({ cache, logger, kinds: new Set(['notice-changed']) });
 * await bus.publish('notice-changed', { userIds: [7] }, { noticeId: 3, action: 'published' });
 */
export function createRealtimeBus(options: RealtimeBusOptions): RealtimeBus {
  const { cache, kinds } = options;
  const log = options.logger.child('Service.Realtime');
  const send = async (event: RealtimeEvent, what: string) => {
    try {
      await cache.publish(REALTIME_CHANNEL, event);
    } catch (error) {
      log.warn('Realtime event not published', { kind: what, error: String(error) });
    }
  };
  return {
    async publish(kind, to, data) {
      if (!kinds.has(kind))
        throw new TypeError(
          `Realtime message kind "${kind}" is declared by no enabled module: list it in the realtimeKinds of the module that sends it.`,
        );
      const all = 'all' in to && to.all === true;
      await send(
        {
          to: 'users',
          kind,
          all,
          userIds: all ? [] : [...(to as { userIds: readonly number[] }).userIds],
          data,
        },
        kind,
      );
    },
    endSessions: (event) => send({ to: 'sessions', ...event }, 'force-logout'),
    subscribe: (deliver) => cache.subscribe<RealtimeEvent>(REALTIME_CHANNEL, deliver),
  };
}

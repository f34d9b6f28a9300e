/**
 * The realtime bus: what the hub delivers, published through the cache's publish/subscribe so that a message
 * sent on one instance reaches sockets on every instance (Redis pub/sub when Redis is the cache, in-process
 * otherwise). Publishers (notices, the session hook) never need the hub itself to be on.
 */
import type { Cache } from '@svc/data/cache';
import type { Logger } from '@svc/kernel';

/** The cache channel of realtime events. */
export const REALTIME_CHANNEL = 'realtime';

/** A notice was published or deleted: its receivers should refetch their inbox and unread count. */
export interface NoticeChangedEvent {
  kind: 'notice-changed';
  noticeId: number;
  action: 'published' | 'deleted' | 'restored';
  /** True for an All notice (every connected user). */
  all: boolean;
  /** The receivers of a Role or User notice. */
  userIds: number[];
}

/** Sessions ended: their sockets get `force-logout` and are closed. */
export interface ForceLogoutEvent {
  kind: 'force-logout';
  sessionIds: string[];
  userId?: number | undefined;
  reason: string;
}

export type RealtimeEvent = NoticeChangedEvent | ForceLogoutEvent;

export interface RealtimeBus {
  /** Publishes to every instance; a failure is logged, never thrown (the change itself is already stored). */
  publish(event: RealtimeEvent): Promise<void>;
}

const buses = new WeakMap<Cache, RealtimeBus>();

/**
 * The bus over one cache (one per cache, so every caller of a server shares it).
 * @example await realtimeBusFor(deps.core.cache, deps.logger).publish({ kind: 'force-logout', sessionIds, reason });
 */
export function realtimeBusFor(cache: Cache, logger: Logger): RealtimeBus {
  let bus = buses.get(cache);
  if (!bus) {
    const log = logger.child('Service.Realtime');
    bus = {
      async publish(event) {
        try {
          await cache.publish(REALTIME_CHANNEL, event);
        } catch (error) {
          log.warn('Realtime event not published', { kind: event.kind, error: String(error) });
        }
      },
    };
    buses.set(cache, bus);
  }
  return bus;
}

/** What module `Realtime` builds once: the bus any module publishes its messages through, and this instance's hub. */
import type { RealtimePublisher } from '@svc/modules';
import type { RealtimeHub } from './hub.js';

export interface RealtimeServices extends RealtimePublisher {
  /** This instance's WebSocket hub (its connections and what it holds; its upgrade handling). */
  hub: RealtimeHub;
}

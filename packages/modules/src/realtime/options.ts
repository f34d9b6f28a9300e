/**
 * The options of module `Realtime` (the WebSocket hub): `Service:Realtime:…` in the configuration files,
 * `Service__Realtime__…` in the environment. Declared with the configuration's own leaves, so they take the
 * same forms as every other key and appear in the configuration reference (docs/configuration.md).
 */
import { bool, type Infer, int, section } from '@svc/kernel';

export const realtimeOptions = section({
  Enabled: bool(null, 'Serve the WebSocket hub at /hub/realtime (default: on in Development only).'),
  MaxConnectionsPerUser: int(10, 'Open hub connections one user may hold on one instance (more: 429).', {
    min: 1,
    max: 1000,
  }),
  MaxConnections: int(10000, 'Open hub connections one instance accepts (more: 503).', {
    min: 1,
    max: 1_000_000,
  }),
  HeartbeatSeconds: int(30, 'Ping interval; a socket that missed the previous pong is dropped.', {
    min: 1,
    max: 3600,
  }),
  // The console sends the hub no message at all: its browser answers the heartbeat's ping, one pong every
  // HeartbeatSeconds (at least 1 s). A script pinging to test its socket needs one every few seconds. 10 a second
  // with a burst of 60 leaves such clients a hundredfold margin (a reconnecting tab or a script's catch-up
  // included), and holds a hostile user to ten parses and answers a second instead of as many as it can send.
  // Per user, not per socket: a user holding MaxConnectionsPerUser sockets would otherwise send that many times
  // the rate. Kept after the user's last socket closes until refilled: reconnecting does not refill it.
  // No 0 = unlimited: that is the unbounded stream this bound is there to stop.
  MessageBurst: int(
    60,
    'Frames one user may send at once over all their hub sockets on one instance (messages, binary or not, pings and pongs); the socket that finds the bucket empty closes with 1008.',
    { min: 1, max: 1_000_000 },
  ),
  MessagesPerSecond: int(
    10,
    'Steady rate at which the bucket of `MessageBurst` refills, one bucket per user and instance shared by all their sockets.',
    { min: 1, max: 10_000 },
  ),
});

export type RealtimeOptions = Infer<typeof realtimeOptions>;

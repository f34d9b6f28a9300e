/**
 * Module `Realtime`: the WebSocket hub at `/hub/realtime`, on with `Service:Realtime:Enabled` (Development by
 * default). Its services are built once: the bus over the cache's publish/subscribe (a message sent on one
 * instance reaches the sockets of every instance) and the hub. The hub subscribes in `start` and closes its
 * sockets in `close`; its route is mounted with the module's routes and the listener hands it the WebSocket
 * upgrades of its path (`upgrade`). Any module sends through `publish` a message of a kind it declares in its
 * `realtimeKinds`; the hub's own frames (`force-logout`, `resync`, `pong`) are declared here, so no module can
 * claim them.
 */
import { createRealtimeBus, realtimeOptions } from '@svc/modules';
import { defineModule, moduleOptions } from '../../module/define.js';
import { createRealtimeHub, isHubUpgrade } from './hub.js';
import * as hubRoute from './routes/hub.js';
import type { RealtimeServices } from './services.js';

export type { RealtimeServices } from './services.js';

/** The frames the hub sends of its own. */
const HUB_KINDS = ['force-logout', 'resync', 'pong'] as const;

export const realtimeModule = defineModule({
  name: 'Realtime',
  options: moduleOptions('Realtime', realtimeOptions),
  when: (config, options) => options.Enabled ?? config.environment.isDevelopment,
  realtimeKinds: HUB_KINDS,
  services: ({ core, options, declared }): RealtimeServices => {
    const own = new Set<string>(HUB_KINDS);
    const bus = createRealtimeBus({
      cache: core.cache,
      logger: core.logger,
      kinds: new Set([...declared.realtimeKinds.keys()].filter((kind) => !own.has(kind))),
    });
    const hub = createRealtimeHub({
      options,
      bus,
      logger: core.logger,
      now: core.now,
      errors: core.errors,
      security: core.security,
      repos: core.repos,
      sessions: core.sessions,
      cacheHealth: core.cacheHealth,
    });
    return { publish: bus.publish, hub };
  },
  routes: [hubRoute],
  metrics: ({ hub }) => [
    {
      name: 'svc_realtime_connections',
      help: 'Open hub sockets on this instance.',
      read: () => hub.connectionCount(),
    },
  ],
  upgrade: ({ hub }) => ({ accepts: isHubUpgrade, handle: hub.handleUpgrade, drain: hub.close }),
  start: ({ hub }) => hub.start(),
  close: ({ hub }) => hub.close(),
});

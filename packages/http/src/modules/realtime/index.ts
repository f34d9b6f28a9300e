/**
 * Module `Realtime`: the WebSocket hub at `/hub/realtime`, on with `Service:Realtime:Enabled` (Development by
 * default). Transitional: the hub itself is still built by createServer, which asks whether this module is on.
 */
import { defineModule } from '../../module/define.js';

export const realtimeModule = defineModule({
  name: 'Realtime',
  when: (config) => config.service.Realtime.Enabled ?? config.environment.isDevelopment,
});

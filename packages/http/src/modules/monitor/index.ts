/**
 * Module `Monitor`: the server snapshot (`/sys/monitor/server`): the probes of @svc/modules `sampleServer` over the
 * content root's volume, with the state of the core's operation-log writer.
 */
import { sampleServer } from '@svc/modules';
import { defineModule } from '../../module/define.js';
import * as monitorServer from './routes/server.js';
import type { MonitorRouteDeps } from './services.js';

export type { MonitorRouteDeps } from './services.js';

export const monitorModule = defineModule({
  name: 'Monitor',
  services: ({ core }): MonitorRouteDeps => ({
    monitor: () => {
      const { queued, spilled, replayed, dropped, failing } = core.opLog.stats();
      return sampleServer(core.config.environment.contentRoot, core.now, {
        queued,
        spilled,
        replayed,
        dropped,
        failing,
      });
    },
  }),
  routes: [monitorServer],
});

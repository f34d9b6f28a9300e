/** Module `Health`: liveness and readiness probes (`/health`, `/health/ready`); always on. */
import { defineModule } from '../../module/define.js';
import * as live from './routes/live.js';
import * as ready from './routes/ready.js';

export const healthModule = defineModule({
  name: 'Health',
  switchable: false,
  services: ({ core }) => ({ readiness: core.readiness, logger: core.logger }),
  routes: [live, ready],
});

/** Module `Job` (transitional shape: its routes still take the whole deps; see modules/legacy.ts). */
import { defineModule } from '../../module/define.js';
import { registerJobRoutes } from '../../routes/job/index.js';
import { httpDepsOf, legacyRoutes } from '../legacy.js';

export const jobModule = defineModule({
  name: 'Job',
  services: ({ core }) => httpDepsOf(core),
  routes: [legacyRoutes('Job', registerJobRoutes)],
});

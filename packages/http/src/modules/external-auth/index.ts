/** Module `ExternalAuth` (transitional shape: its routes still take the whole deps; see modules/legacy.ts). */
import { defineModule } from '../../module/define.js';
import { registerExternalAuthRoutes } from '../../routes/external/index.js';
import { httpDepsOf, legacyRoutes } from '../legacy.js';

export const externalAuthModule = defineModule({
  name: 'ExternalAuth',
  services: ({ core }) => httpDepsOf(core),
  routes: [legacyRoutes('ExternalAuth', registerExternalAuthRoutes)],
});

/** Module `Mfa` (transitional shape: its routes still take the whole deps; see modules/legacy.ts). */
import { defineModule } from '../../module/define.js';
import { registerMfaRoutes } from '../../routes/mfa/index.js';
import { httpDepsOf, legacyRoutes } from '../legacy.js';

export const mfaModule = defineModule({
  name: 'Mfa',
  switchable: false,
  services: ({ core }) => httpDepsOf(core),
  routes: [legacyRoutes('Mfa', registerMfaRoutes)],
});

/** Module `Import` (transitional shape: its routes still take the whole deps; see modules/legacy.ts). */
import { defineModule } from '../../module/define.js';
import { registerExcelRoutes } from '../../routes/excel/index.js';
import { httpDepsOf, legacyRoutes } from '../legacy.js';

export const importModule = defineModule({
  name: 'Import',
  services: ({ core }) => httpDepsOf(core),
  routes: [legacyRoutes('Import', registerExcelRoutes)],
});

/** Module `Dashboard`: the home page's counts and login trend, within the caller's data scope. */
import { defineModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';
import * as summary from './routes/summary.js';

export const dashboardModule = defineModule({
  name: 'Dashboard',
  dependsOn: [adminModule],
  services: ({ use }) => ({ admin: use(adminModule).admin }),
  routes: [summary],
});

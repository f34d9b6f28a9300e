/** Module `Auth`: password login, token refresh, logout and the session ping; always on. */
import { defineModule } from '../../module/define.js';
import * as login from './routes/login.js';
import * as logout from './routes/logout.js';
import * as ping from './routes/ping.js';
import * as refresh from './routes/refresh.js';
import type { AuthRouteDeps } from './services.js';

export const authModule = defineModule({
  name: 'Auth',
  switchable: false,
  services: ({ core }): AuthRouteDeps => ({ security: core.security, now: core.now }),
  routes: [login, refresh, logout, ping],
});

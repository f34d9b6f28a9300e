/** Module `Notice` (transitional shape: its routes still take the whole deps; see modules/legacy.ts). */
import { defineModule } from '../../module/define.js';
import { registerNoticeRoutes } from '../../routes/notice/index.js';
import { httpDepsOf, legacyRoutes } from '../legacy.js';

export const noticeModule = defineModule({
  name: 'Notice',
  services: ({ core }) => httpDepsOf(core),
  routes: [legacyRoutes('Notice', registerNoticeRoutes)],
});

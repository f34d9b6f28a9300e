/**
 * Module `Notice`: administration (publish, page, delete; permission codes) and the caller's inbox (mine, unread
 * count, read, read all; any live session). Its services are built once: the notice service's deps (the
 * framework-free service is @svc/modules' `notice`), with module `Realtime`'s publisher when it is on (receivers
 * are told with message kind `notice-changed`), and the Admin module's scopes and rank for the publish rules.
 * Fixed paths come before the `{id}` routes.
 */
import { NOTICE_CHANGED, type NoticeDeps, NoticeErrorCode, noticeAlert } from '@svc/modules';
import { defineModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';
import { realtimeModule } from '../realtime/index.js';
import { noticeRecycleTypes } from './recycle-types.js';
import * as remove from './routes/delete.js';
import * as mine from './routes/mine.js';
import * as page from './routes/page.js';
import * as publish from './routes/publish.js';
import * as read from './routes/read.js';
import * as readAll from './routes/read-all.js';
import * as unread from './routes/unread-count.js';
import type { NoticeServices } from './services.js';

export type { NoticeServices } from './services.js';

export const noticeModule = defineModule({
  name: 'Notice',
  errorCodes: [NoticeErrorCode],
  dependsOn: [adminModule],
  optional: [realtimeModule],
  realtimeKinds: [NOTICE_CHANGED],
  services: ({ core, use, useOptional }): NoticeServices => {
    const { admin } = use(adminModule);
    const notices: NoticeDeps = { repos: core.repos, realtime: useOptional(realtimeModule), now: core.now };
    return {
      notices,
      alertAdministrators: noticeAlert({ ...notices, repos: core.repos }),
      codesOf: (userId) => core.security.permissions.codesOf(userId),
      scopeOf: (principal) => admin.scopes.forPrincipal(principal),
      actorOf: (principal) => admin.actorOf(principal),
      repos: core.repos,
    };
  },
  recycleTypes: ({ notices }, { core }) => noticeRecycleTypes({ ...notices, repos: core.repos }),
  routes: [page, mine, unread, readAll, publish, read, remove],
});

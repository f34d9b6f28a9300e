/**
 * Built-in pages by key; menu pages use their menu's `component` value as the key. Every page is lazy (its own
 * chunk): the login route's JavaScript budget (250 KB gzip, checked by the E2E) depends on it.
 */
import type { PageLoader } from '../context.js';
import { adminPages } from './registry/admin.js';
import { livePages } from './registry/live.js';
import { opsPages } from './registry/ops.js';

export const builtInPages: Record<string, PageLoader> = {
  login: () => import('./LoginPage.vue'),
  'change-password': () => import('./ChangePasswordPage.vue'),
  layout: () => import('../layouts/MainLayout.vue'),
  home: () => import('./HomePage.vue'),
  personal: () => import('./PersonalPage.vue'),
  'not-found': () => import('./NotFoundPage.vue'),
  forbidden: () => import('./ForbiddenPage.vue'),
  'no-page': () => import('./NoPage.vue'),
  'system/user/index': () => import('./system/UsersPage.vue'),
  'system/role/index': () => import('./system/RolesPage.vue'),
  'system/session/index': () => import('./system/SessionsPage.vue'),
  'monitor/log/op/index': () => import('./monitor/logs.js').then((m) => m.OpLogPage),
  'monitor/log/login/index': () => import('./monitor/logs.js').then((m) => m.LoginLogPage),
  'monitor/log/exception/index': () => import('./monitor/logs.js').then((m) => m.ExceptionLogPage),
  'monitor/server/index': () => import('./monitor/ServerPage.vue'),
  'monitor/cache/index': () => import('./monitor/CachePage.vue'),
  ...adminPages,
  ...opsPages,
  ...livePages,
};

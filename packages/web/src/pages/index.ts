/** Built-in pages by key; menu pages use their menu's `component` value as the key. Lazy: one chunk each. */
import type { PageLoader } from '../context.js';

export const builtInPages: Record<string, PageLoader> = {
  login: () => import('./LoginPage.vue'),
  'change-password': () => import('./ChangePasswordPage.vue'),
  layout: () => import('../layouts/MainLayout.vue'),
  home: () => import('./HomePage.vue'),
  personal: () => import('./PersonalPage.vue'),
  'not-found': () => import('./NotFoundPage.vue'),
  'no-page': () => import('./NoPage.vue'),
  'system/user/index': () => import('./system/UsersPage.vue'),
  'system/role/index': () => import('./system/RolesPage.vue'),
};

/** Built-in pages of the admin area, by menu `component` key; each lazy (its own chunk). */
import type { PageLoader } from '../../context.js';

export const adminPages: Record<string, PageLoader> = {
  'system/menu/index': () => import('../admin/MenusPage.vue'),
  'system/org/index': () => import('../admin/OrgsPage.vue'),
  'system/position/index': () => import('../admin/PositionsPage.vue'),
  'system/module/index': () => import('../admin/ModulesPage.vue'),
  'system/dict/index': () => import('../admin/DictPage.vue'),
};

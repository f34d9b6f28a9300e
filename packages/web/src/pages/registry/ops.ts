/** Built-in pages of the ops area, by menu `component` key; each lazy (its own chunk). */
import type { PageLoader } from '../../context.js';

export const opsPages: Record<string, PageLoader> = {
  'system/config/index': () => import('../ops/ConfigPage.vue'),
  'system/security/index': () => import('../ops/SecurityPage.vue'),
  'system/file/index': () => import('../ops/FilesPage.vue'),
  'system/recycle/index': () => import('../ops/RecyclePage.vue'),
  'monitor/job/index': () => import('../ops/JobsPage.vue'),
};

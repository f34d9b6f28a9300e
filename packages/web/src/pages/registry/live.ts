/** Built-in pages of the live area, by menu `component` key; each lazy (its own chunk). */
import type { PageLoader } from '../../context.js';

export const livePages: Record<string, PageLoader> = {
  'system/notice/index': () => import('../live/NoticesPage.vue'),
};

/** The CRUD page composable and what it is made of (exported by the root entry and by `@svc/web/module`). */
export { ApiError, type DataOf, unwrap } from '../api/envelope.js';
export { createPageFeedback, type FeedbackParts, type PageFeedback, usePageFeedback } from './feedback.js';
export {
  type CrudList,
  type CrudListOptions,
  type CrudTableProps,
  createCrudList,
  type Page,
  type PageQuery,
  type RowSource,
} from './list.js';
export {
  type CallResult,
  type CrudChange,
  type CrudPage,
  type CrudPageOptions,
  createCrudPage,
} from './page.js';
export { useCrudPage } from './use-crud-page.js';

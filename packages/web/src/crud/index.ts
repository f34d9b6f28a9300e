/**
 * `@svc/web/crud`: the CRUD page composable and what it is made of, without the console's components, so that a
 * module's page logic can be imported (and tested) without a Vue compiler. The root entry re-exports all of it.
 */
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

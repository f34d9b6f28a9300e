/** What module `Dict` builds on besides @svc/data's dictionary service. */
export { invalidateDicts } from './invalidate.js';

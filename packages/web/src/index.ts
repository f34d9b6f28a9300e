/** @svc/web: the admin console package. */

export {
  type ChainOptions,
  CSRF_HEADER,
  createChainFetch,
  DEFAULT_TIMEOUT_MS,
  REAUTH_REQUIRED,
} from './api/chain.js';
export { type ApiClient, type ApiClientOptions, createApiClient } from './api/client.js';
export { type Download, downloadOf, fileNameOf, saveDownload } from './api/download.js';
export {
  ApiError,
  CLIENT_ERROR,
  type DataOf,
  type Envelope,
  type OperationData,
  unwrap,
} from './api/envelope.js';
export { messageOf } from './api/messages.js';
export type { paths } from './api/schema.js';
export { default as ChunkUpload } from './components/ChunkUpload.vue';
export { default as CrudFormModal } from './components/CrudFormModal.vue';
export { sha256Hex, uploadInChunks } from './components/chunk-upload.js';
export { default as DictSelect } from './components/DictSelect.vue';
export { default as DictTag } from './components/DictTag.vue';
export { default as ImportWizard } from './components/ImportWizard.vue';
export { default as NoticeBell } from './components/NoticeBell.vue';
export { default as PagedTable } from './components/PagedTable.vue';
export { default as StatusField } from './components/StatusField.vue';
export { type ConsoleModule, composeConsole, defineConsoleModule } from './console-modules.js';
export {
  type ConsoleContext,
  type ConsoleOptions,
  type PageLoader,
  useApi,
  useConsole,
  useModuleApi,
} from './context.js';
export { createConsole } from './create-console.js';
export {
  type CallResult,
  type CrudChange,
  type CrudList,
  type CrudListOptions,
  type CrudPage,
  type CrudPageOptions,
  type CrudTableProps,
  createCrudList,
  createCrudPage,
  createPageFeedback,
  type FeedbackParts,
  type Page,
  type PageFeedback,
  type PageQuery,
  type RowSource,
  useCrudPage,
  usePageFeedback,
} from './crud/index.js';
export { vPerm } from './directives/perm.js';
export {
  describeUserAgent,
  formatBytes,
  formatDateTime,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRelative,
  formatUserAgent,
  type UserAgentInfo,
} from './format/index.js';
export { LABELS, type Labels, labelIn, mergeLabels, useLabel } from './labels.js';
export { builtInMessages, type ConsoleLocale } from './locales/index.js';
export { builtInLabels } from './locales/labels.js';
export { preferredLocale } from './locales/preferred.js';
export { builtInPages } from './pages/index.js';
export { useAppStore } from './stores/app.js';
export { useAuthStore } from './stores/auth.js';
export { useDictStore } from './stores/dict.js';
export { useErrorCatalogStore } from './stores/errors.js';
export { useRealtimeStore } from './stores/realtime.js';
export { useTabsStore } from './stores/tabs.js';
export { useUserStore } from './stores/user.js';

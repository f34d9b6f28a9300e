/** @svc/web: the admin console package. */

export {
  type ChainOptions,
  CSRF_HEADER,
  createChainFetch,
  DEFAULT_TIMEOUT_MS,
  REAUTH_REQUIRED,
} from './api/chain.js';
export { type ApiClient, type ApiClientOptions, createApiClient } from './api/client.js';
export { ApiError, CLIENT_ERROR, type Envelope, unwrap } from './api/envelope.js';
export { messageOf } from './api/messages.js';
export type { paths } from './api/schema.js';
export { type ConsoleContext, type ConsoleOptions, type PageLoader, useApi, useConsole } from './context.js';
export { createConsole } from './create-console.js';
export { vPerm } from './directives/perm.js';
export { builtInMessages, type ConsoleLocale } from './locales/index.js';
export { builtInPages } from './pages/index.js';
export { useAppStore } from './stores/app.js';
export { useAuthStore } from './stores/auth.js';
export { useDictStore } from './stores/dict.js';
export { useTabsStore } from './stores/tabs.js';
export { useUserStore } from './stores/user.js';

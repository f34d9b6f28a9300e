/**
 * The thin shell: the @svc/web console with this app's pages, messages, API base and version. Add a page under
 * the key of a menu's `component` (or a built-in key such as `home` to replace that page).
 */
import { createConsole } from '@svc/web';

const app = createConsole({
  apiBase: import.meta.env.VITE_API_BASE ?? '',
  version: __APP_VERSION__,
  pages: {},
  messages: {},
});
app.mount('#app');

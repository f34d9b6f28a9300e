/**
 * The thin shell: the @svc/web console with this app's pages, messages, API base and version. Add a page under
 * the key of a menu's `component` (or a built-in key such as `home` to replace that page); a module's pages and
 * messages come as one object in `modules` (the example Shop module's `shop/product/index`).
 */
import { shopConsole } from '@example/shop-web';
import { createConsole } from '@svc/web';

const app = createConsole({
  apiBase: import.meta.env.VITE_API_BASE ?? '',
  version: __APP_VERSION__,
  modules: [shopConsole],
  pages: {},
  messages: {},
});
app.mount('#app');

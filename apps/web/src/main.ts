/**
 * The thin shell: the @svc/web console with this app's pages, messages, API base and version. Add a page under
 * the key of a menu's `component` (or a built-in key such as `home` to replace that page); a module's pages and
 * messages come as one object in `modules` (the example Shop module's `shop/product/index`). `labels` translates
 * the words this app's host seeds itself (the reference host's sample menus), as a module's `labels` do its own.
 */
import { shopConsole } from '@example/shop-web';
import { createConsole } from '@svc/web';

const app = createConsole({
  apiBase: import.meta.env.VITE_API_BASE ?? '',
  version: __APP_VERSION__,
  modules: [shopConsole],
  pages: {},
  messages: {},
  labels: {
    'zh-CN': {
      Samples: '示例',
      'Machine with permission': '持权限的机器调用',
      'Sensitive write': '敏感写入',
    },
  },
});
app.mount('#app');

/**
 * `createConsole(options)`: the whole console as a Vue app. Modules' pages and messages (`options.modules`) come
 * over the built-in ones, the consumer's own pages and messages over those (a same key replaces).
 */
import { createPinia } from 'pinia';
import { type App, createApp } from 'vue';
import { createI18n } from 'vue-i18n';
import App_ from './App.vue';
import { repairNaiveAccessibility } from './a11y.js';
import { createApiClient } from './api/client.js';
import { REAUTH } from './console-keys.js';
import { composeConsole } from './console-modules.js';
import { CONSOLE, type ConsoleContext, type ConsoleOptions } from './context.js';
import { vPerm } from './directives/perm.js';
import { LABELS } from './labels.js';
import { builtInMessages } from './locales/index.js';
import { builtInLabels } from './locales/labels.js';
import { preferredLocale } from './locales/preferred.js';
import { builtInPages } from './pages/index.js';
import { createReauth } from './reauth.js';
import { createConsoleRouter, toLogin } from './router/index.js';
import { useAppStore } from './stores/app.js';
import { useAuthStore } from './stores/auth.js';

export function createConsole(options: ConsoleOptions = {}): App {
  const app = createApp(App_);
  const pinia = createPinia();
  app.use(pinia);

  const apiBase = options.apiBase ?? '';
  const appStore = useAppStore(pinia);
  appStore.version = options.version ?? '0.0.0';
  const { pages, messages, labels } = composeConsole(
    { pages: builtInPages, messages: builtInMessages, labels: builtInLabels },
    options.modules ?? [],
    options,
  );
  // The user's choice, else the browser's language when the console has it, else the app's default.
  const locale =
    appStore.locale ||
    preferredLocale(Object.keys(messages), globalThis.navigator?.languages, options.locale || 'zh-CN');
  const i18n = createI18n({ legacy: false, locale, fallbackLocale: 'en-US', messages, flatJson: true });
  app.use(i18n);

  const auth = useAuthStore(pinia);
  const reauth = createReauth();
  let router: ReturnType<typeof createConsoleRouter> | undefined;
  const api = createApiClient({
    baseUrl: apiBase,
    getAccessToken: () => auth.accessToken || undefined,
    refresh: () => auth.refresh(apiBase),
    onAuthLost: () => {
      if (router) void toLogin(router);
    },
    reauthenticate: reauth.ask,
  });
  router = createConsoleRouter(pages, api, {
    restore: () => auth.restore(apiBase),
  });
  app.use(router);
  const consoleRouter = router;
  auth.watchOtherTabs({
    // Another tab signed out of the shared cookie session: this tab's session ended with it.
    signedOut: () => void toLogin(consoleRouter),
    // Another tab signed in: a tab on the login page (or showing another user) takes the new session up.
    signedIn: () => {
      void (async () => {
        if (auth.accessToken) await toLogin(consoleRouter);
        if (!(await auth.restore(apiBase))) return;
        const current = consoleRouter.currentRoute.value;
        const redirect = typeof current.query.redirect === 'string' ? current.query.redirect : '/';
        await consoleRouter.replace(auth.mustChangePassword ? '/change-password' : redirect);
      })();
    },
  });

  const context: ConsoleContext = {
    api,
    options: { ...options, apiBase, version: appStore.version },
    reauthenticate: reauth.ask,
  };
  app.provide(CONSOLE, context);
  app.provide(REAUTH, reauth);
  app.provide(LABELS, labels);
  app.directive('perm', vPerm);
  repairNaiveAccessibility();
  return app;
}

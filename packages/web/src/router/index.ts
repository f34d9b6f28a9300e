/**
 * The console router: public login, the forced password change, the layout with the home page, the personal
 * centre and the routes built from the menu tree once the user is loaded. Unknown paths show "not found" and
 * `/403` "forbidden", both inside the layout (a signed-out visitor is asked to sign in first).
 */
import { createRouter, createWebHistory, type Router } from 'vue-router';
import type { ApiClient } from '../api/client.js';
import type { PageLoader } from '../context.js';
import { useAuthStore } from '../stores/auth.js';
import { useTabsStore } from '../stores/tabs.js';
import { useUserStore } from '../stores/user.js';
import { addMenuRoutes, menuRoutes } from './menu-routes.js';

export interface ConsoleRouterOptions {
  /**
   * Picks a session up when the page starts without one (a reload, a new tab: tokens live in memory only, the
   * refresh token in the HttpOnly cookie). @default none: a fresh page starts signed out
   */
  restore?: () => Promise<boolean>;
}

export function createConsoleRouter(
  pages: Readonly<Record<string, PageLoader>>,
  api: ApiClient,
  options: ConsoleRouterOptions = {},
): Router {
  const page = (key: string) => pages[key] as PageLoader;
  /** The first navigation of the page tries to pick up the cookie session, once. */
  let restoring: Promise<boolean> | undefined;
  const router = createRouter({
    history: createWebHistory(),
    routes: [
      { path: '/login', name: 'login', component: page('login'), meta: { public: true } },
      // The external login's result page (`Service:ExternalAuth:FrontendResultPath`, default).
      { path: '/oauth/callback', name: 'oauth-callback', component: page('login'), meta: { public: true } },
      { path: '/change-password', name: 'change-password', component: page('change-password') },
      {
        path: '/',
        name: 'root',
        component: page('layout'),
        children: [
          { path: '', name: 'home', component: page('home'), meta: { title: 'app.home', i18n: true } },
          {
            path: 'personal',
            name: 'personal',
            component: page('personal'),
            meta: { title: 'app.personal', i18n: true },
          },
          // Inside the layout, so a signed-in user keeps the menu and a way back; no title: no tab.
          { path: '403', name: 'forbidden', component: page('forbidden') },
          { path: ':pathMatch(.*)*', name: 'not-found', component: page('not-found') },
        ],
      },
    ],
  });

  router.beforeEach(async (to) => {
    const auth = useAuthStore();
    const user = useUserStore();
    if (!auth.accessToken && options.restore) {
      restoring ??= options.restore().catch(() => false);
      await restoring;
    }
    if (to.name === 'login') return auth.accessToken ? { path: '/' } : true;
    if (!auth.accessToken) return to.meta.public ? true : { name: 'login', query: { redirect: to.fullPath } };
    if (auth.mustChangePassword) return to.name === 'change-password' ? true : { name: 'change-password' };
    if (!user.loaded) {
      try {
        await user.load(api);
      } catch (error) {
        // A failed start-up call (a 502 during a deploy) must not abort the first navigation, which left an empty
        // page: the page asked for is shown as far as it can be (a menu page is "not found" until the next
        // navigation, which tries the load again).
        console.warn('Could not load the user and menus; trying again at the next navigation.', error);
        return true;
      }
      // A previous user's pages go: only this user's menu tree makes routes.
      for (const old of router.getRoutes()) {
        if (typeof old.name === 'string' && old.name.startsWith('menu-')) router.removeRoute(old.name);
      }
      addMenuRoutes(router, 'root', menuRoutes(user.menus, pages, page('no-page')));
      // This user's tabs of the last visit, those whose page still exists (a route of the layout).
      if (user.profile) {
        useTabsStore().restore(user.profile.id, (path) => {
          const found = router.resolve(path);
          return found.matched[0]?.name === 'root' && typeof found.meta.title === 'string'
            ? found.meta.title
            : undefined;
        });
      }
      // Resolve again: the path may belong to a route that exists only now.
      return to.fullPath;
    }
    return true;
  });

  router.afterEach((to) => {
    if (to.matched[0]?.name === 'root' && typeof to.meta.title === 'string') {
      useTabsStore().open({ path: to.path, title: to.meta.title });
    }
  });

  return router;
}

/**
 * The session is gone: forget the user and show the login page. `signedOut`: the user signed out here, so the
 * other tabs of a cookie session are told (theirs ended with it).
 */
export async function toLogin(router: Router, signedOut = false): Promise<void> {
  if (signedOut) useAuthStore().signOut();
  else useAuthStore().clear();
  useUserStore().reset();
  useTabsStore().reset();
  const current = router.currentRoute.value;
  if (current.name !== 'login') {
    await router.replace({
      name: 'login',
      query: current.fullPath === '/' ? {} : { redirect: current.fullPath },
    });
  }
}

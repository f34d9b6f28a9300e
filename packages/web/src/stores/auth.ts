/**
 * Auth store: the session's tokens, in memory only. No token is ever written to localStorage, sessionStorage,
 * IndexedDB or a readable cookie, where any script on the page could read it (docs/security-model.md, "The
 * console's tokens").
 * - The console asks every login for a cookie session (`X-App-Session-Mode: cookie`): the refresh token then
 *   lives only in the host's HttpOnly `app_rt` cookie, and a page reload (or a new tab) gets a new access token
 *   from it ({@link restore}). A host that answers with a token session anyway keeps its refresh token in memory:
 *   that session ends with the tab.
 * - Refreshes are serialised across tabs with a Web Lock: tabs share the cookie, and two tabs rotating it at once
 *   would make one of them present a token already rotated.
 * - Tabs tell each other about cookie sessions on a BroadcastChannel: a sign-out ends the session in every tab
 *   (the cookie is gone for all of them), a sign-in lets the other tabs pick the new session up.
 */

import { defineStore } from 'pinia';
import { ref } from 'vue';
import { CSRF_HEADER, csrfFromCookie, SESSION_MODE_HEADER } from '../api/chain.js';
import type { components } from '../api/schema.js';

export type LoginOutput = components['schemas']['LoginOutput'];

/** The Web Lock every tab takes around a refresh. */
export const REFRESH_LOCK = 'svc.session.refresh';
/** The channel on which tabs of one origin tell each other about cookie sessions. */
export const SESSION_CHANNEL = 'svc.session';
/** Refresh token reused (contract §10): a tab that lost a rotation race gets it, with nothing revoked. */
const REFRESH_TOKEN_INVALID = 40007;

/** What one tab tells the others (nothing secret: no token ever crosses the channel). */
type TabMessage = { type: 'signed-in'; userId: number } | { type: 'signed-out' };

/** What the app does when another tab changed the cookie session. */
export interface OtherTabHandlers {
  /** Another tab signed out: the cookie is gone, this tab's session too. */
  signedOut: () => void;
  /** Another tab signed in (`userId`): this tab may pick the session up from the cookie. */
  signedIn: (userId: number) => void;
}

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

function locks(): LockManagerLike | undefined {
  return (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
}

export const useAuthStore = defineStore('svc-auth', () => {
  const accessToken = ref('');
  /** Only for a token session (a host that did not give a cookie one); empty in a cookie session. */
  const refreshToken = ref('');
  const sessionMode = ref<'cookie' | 'token'>('cookie');
  const userId = ref<number | undefined>();
  const mustChangePassword = ref(false);
  let channel: BroadcastChannel | undefined;

  function tell(message: TabMessage): void {
    channel?.postMessage(message);
  }

  /** Listens to the other tabs of this origin (a later call replaces the handlers); returns the way to stop. */
  function watchOtherTabs(handlers: OtherTabHandlers): () => void {
    channel?.close();
    channel = undefined;
    if (typeof BroadcastChannel === 'undefined') return () => {};
    const own = new BroadcastChannel(SESSION_CHANNEL);
    channel = own;
    own.onmessage = (event: MessageEvent<TabMessage>) => {
      const message = event.data;
      // A token session is this tab's own: another tab's cookie session neither ends nor replaces it.
      if (accessToken.value && sessionMode.value === 'token') return;
      if (message?.type === 'signed-out' && accessToken.value) handlers.signedOut();
      if (message?.type === 'signed-in' && message.userId !== userId.value) handlers.signedIn(message.userId);
    };
    return () => {
      own.close();
      if (channel === own) channel = undefined;
    };
  }

  function apply(output: LoginOutput): void {
    accessToken.value = output.accessToken;
    sessionMode.value = output.sessionMode === 'token' ? 'token' : 'cookie';
    refreshToken.value = sessionMode.value === 'token' ? output.refreshToken : '';
    userId.value = output.userId;
    mustChangePassword.value = output.mustChangePassword;
  }

  /** A login's output: kept in memory; the other tabs hear of a cookie session. */
  function signIn(output: LoginOutput): void {
    apply(output);
    if (sessionMode.value === 'cookie') tell({ type: 'signed-in', userId: output.userId });
  }

  /** Forgets the session in this tab (the server's session is ended by the logout call). */
  function clear(): void {
    accessToken.value = '';
    refreshToken.value = '';
    userId.value = undefined;
    mustChangePassword.value = false;
  }

  /** The user signed out here: a cookie session is gone for every tab, so they are told. */
  function signOut(): void {
    const shared = accessToken.value !== '' && sessionMode.value === 'cookie';
    clear();
    if (shared) tell({ type: 'signed-out' });
  }

  function passwordChanged(): void {
    mustChangePassword.value = false;
  }

  /** One `POST /auth/refresh`; the answer's code (0 = a new access token is in place). Raw fetch, not the chain. */
  async function refreshOnce(apiBase: string): Promise<number> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [SESSION_MODE_HEADER]: 'cookie',
    };
    const csrf = csrfFromCookie();
    if (csrf) headers[CSRF_HEADER] = csrf;
    const token = sessionMode.value === 'token' ? refreshToken.value : '';
    const response = await fetch(`${apiBase}/api/v1/auth/refresh`, {
      method: 'POST',
      headers,
      credentials: 'include',
      body: JSON.stringify(token ? { refreshToken: token } : {}),
    });
    const body = (await response.json().catch(() => undefined)) as
      | { code?: number; data?: LoginOutput }
      | undefined;
    if (!response.ok || body?.code !== 0 || !body.data) return body?.code ?? -1;
    // The cookie now belongs to someone else (another tab signed in as another user): this tab's pages, menus and
    // caches are the old user's, so it does not carry on under the new one.
    if (userId.value !== undefined && body.data.userId !== userId.value) return -1;
    apply(body.data);
    return 0;
  }

  /**
   * Rotates the tokens (the chain makes sure one call at a time per tab; the Web Lock, one at a time per browser).
   * A cookie session that still loses a race (no Web Locks: the token it sent was rotated a moment before by
   * another tab, 40007 with nothing revoked) tries once more with the cookie that tab left.
   */
  async function refresh(apiBase: string): Promise<boolean> {
    const run = async () => {
      const code = await refreshOnce(apiBase);
      if (code === REFRESH_TOKEN_INVALID && sessionMode.value === 'cookie')
        return (await refreshOnce(apiBase)) === 0;
      return code === 0;
    };
    const manager = locks();
    return manager ? manager.request(REFRESH_LOCK, run) : run();
  }

  /** A fresh page (a reload, a new tab): picks the cookie session up, if the browser holds one. */
  async function restore(apiBase: string): Promise<boolean> {
    if (accessToken.value) return true;
    sessionMode.value = 'cookie';
    userId.value = undefined;
    try {
      return await refresh(apiBase);
    } catch {
      return false;
    }
  }

  return {
    accessToken,
    refreshToken,
    sessionMode,
    userId,
    mustChangePassword,
    signIn,
    clear,
    signOut,
    passwordChanged,
    refresh,
    restore,
    watchOtherTabs,
  };
});

/**
 * Auth store: the access token (memory + sessionStorage, so a reload keeps the tab signed in), the refresh token
 * in token mode (cookie mode keeps it in the HttpOnly cookie), the forced password change flag, and the single
 * refresh call the client chain uses.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { CSRF_HEADER, csrfFromCookie } from '../api/chain.js';

export interface LoginOutput {
  accessToken: string;
  refreshToken: string;
  sessionMode: 'cookie' | 'token';
  mustChangePassword: boolean;
  userId: number;
  account: string;
  name: string;
  isSuperAdmin: boolean;
}

const KEY = 'svc.session';

interface Saved {
  accessToken: string;
  refreshToken: string;
  mustChangePassword: boolean;
}

function load(): Saved | undefined {
  try {
    const text = globalThis.sessionStorage?.getItem(KEY);
    return text ? (JSON.parse(text) as Saved) : undefined;
  } catch {
    return undefined;
  }
}

export const useAuthStore = defineStore('svc-auth', () => {
  const saved = load();
  const accessToken = ref(saved?.accessToken ?? '');
  const refreshToken = ref(saved?.refreshToken ?? '');
  const mustChangePassword = ref(saved?.mustChangePassword ?? false);

  function save(): void {
    const value: Saved = {
      accessToken: accessToken.value,
      refreshToken: refreshToken.value,
      mustChangePassword: mustChangePassword.value,
    };
    if (accessToken.value) globalThis.sessionStorage?.setItem(KEY, JSON.stringify(value));
    else globalThis.sessionStorage?.removeItem(KEY);
  }

  function signIn(output: LoginOutput): void {
    accessToken.value = output.accessToken;
    refreshToken.value = output.refreshToken;
    mustChangePassword.value = output.mustChangePassword;
    save();
  }

  function clear(): void {
    accessToken.value = '';
    refreshToken.value = '';
    mustChangePassword.value = false;
    save();
  }

  function passwordChanged(): void {
    mustChangePassword.value = false;
    save();
  }

  /** One refresh call (the chain makes sure only one runs at a time). Raw fetch: it must not go through the chain. */
  async function refresh(apiBase: string): Promise<boolean> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const csrf = csrfFromCookie();
    if (csrf) headers[CSRF_HEADER] = csrf;
    const response = await fetch(`${apiBase}/api/v1/auth/refresh`, {
      method: 'POST',
      headers,
      credentials: 'include',
      body: JSON.stringify(refreshToken.value ? { refreshToken: refreshToken.value } : {}),
    });
    const body = (await response.json().catch(() => undefined)) as
      | { code?: number; data?: LoginOutput }
      | undefined;
    if (!response.ok || body?.code !== 0 || !body.data) return false;
    signIn(body.data);
    return true;
  }

  return { accessToken, refreshToken, mustChangePassword, signIn, clear, passwordChanged, refresh };
});

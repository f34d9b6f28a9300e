/**
 * The client middleware chain, as one `fetch` wrapper handed to openapi-fetch:
 * - every request gets a 30 s budget (`ApiError` `CLIENT_ERROR.Timeout` when it runs out);
 * - the bearer token and, on unsafe methods, the CSRF header (double-submit cookie) are added; auth calls ask
 *   for a cookie session (`X-App-Session-Mode: cookie`), so the refresh token stays in the HttpOnly cookie;
 * - a 401 starts ONE refresh; requests answered 401 while it runs wait for it and are all replayed with the new
 *   token; a failed refresh calls `onAuthLost` (the router sends the user to the login page);
 * - a 403 with code 40024 (re-authentication required) opens the re-authentication dialog once for all waiting
 *   requests, and replays each request once after it succeeded.
 * Replays are built from a clone taken before the first attempt, so request bodies survive.
 */
import { ApiError, CLIENT_ERROR, peekEnvelope } from './envelope.js';

/** Re-authentication required (contract §6). */
export const REAUTH_REQUIRED = 40024;
/** The CSRF header and cookie (double-submit; the server binds the value to the session). */
export const CSRF_HEADER = 'X-App-CSRF';
export const CSRF_COOKIE = 'app_csrf';
/**
 * Asks the host for a cookie session: the refresh token then travels only in the HttpOnly `app_rt` cookie, which
 * no script on the page can read (docs/security-model.md).
 */
export const SESSION_MODE_HEADER = 'X-App-Session-Mode';
/** @default 30 s, the console's budget for one call. */
export const DEFAULT_TIMEOUT_MS = 30_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Calls that must never trigger a refresh themselves (they answer 401 for bad credentials). Logout is not one: a
 * logout sent with an access token that just expired is refused, and without a refresh and replay the session
 * (and in cookie mode its refresh cookie, which only the server can clear) outlived the click on "log out".
 */
const NO_REFRESH = /\/api\/v1\/auth\/(login|refresh|sms\/login)(\/|$)/;
/** Where a session is issued or ended (login, its steps, the external exchange, refresh, logout). */
const AUTH_PATH = /\/api\/v1\/auth\//;

export interface ChainOptions {
  /** The access token of the session, read at every attempt. */
  getAccessToken: () => string | undefined;
  /** The CSRF value. @default reads the `app_csrf` cookie when a `document` exists */
  getCsrfToken?: () => string | undefined;
  /** Rotates the tokens; resolves true when a new access token is in place. Never called twice at once. */
  refresh: () => Promise<boolean>;
  /** The session is gone (refresh failed): send the user to the login page. */
  onAuthLost: () => void;
  /** Opens the re-authentication dialog; resolves true once the window is open. @default no dialog: false */
  reauthenticate?: () => Promise<boolean>;
  /** @default DEFAULT_TIMEOUT_MS */
  timeoutMs?: number;
  /** The underlying fetch. @default globalThis.fetch */
  fetch?: (request: Request) => Promise<Response>;
}

/** The `app_csrf` cookie of the page, if any. */
export function csrfFromCookie(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === CSRF_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** Builds the chained fetch. */
export function createChainFetch(options: ChainOptions): (input: Request) => Promise<Response> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const getCsrf = options.getCsrfToken ?? csrfFromCookie;
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  let refreshing: Promise<boolean> | undefined;
  let reauthing: Promise<boolean> | undefined;

  /** One refresh in flight: every caller during it shares the same promise. */
  function refreshOnce(): Promise<boolean> {
    refreshing ??= options
      .refresh()
      .catch(() => false)
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  }

  function reauthOnce(): Promise<boolean> {
    const open = options.reauthenticate;
    if (!open) return Promise.resolve(false);
    reauthing ??= open()
      .catch(() => false)
      .finally(() => {
        reauthing = undefined;
      });
    return reauthing;
  }

  /** One attempt: fresh headers on a copy of the template, under the time budget. */
  async function attempt(template: Request): Promise<{ response: Response; token: string | undefined }> {
    const request = template.clone();
    const token = options.getAccessToken();
    const headers = new Headers(request.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (AUTH_PATH.test(new URL(request.url).pathname)) headers.set(SESSION_MODE_HEADER, 'cookie');
    if (!SAFE_METHODS.has(request.method.toUpperCase())) {
      const csrf = getCsrf();
      if (csrf) headers.set(CSRF_HEADER, csrf);
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const onOuterAbort = () => controller.abort();
    request.signal.addEventListener('abort', onOuterAbort);
    try {
      const response = await base(
        new Request(request, { headers, signal: controller.signal, credentials: 'include' }),
      );
      return { response, token };
    } catch (error) {
      if (controller.signal.aborted && !request.signal.aborted) {
        throw new ApiError(CLIENT_ERROR.Timeout, 'error.client.timeout', { seconds: timeoutMs / 1000 }, 0, {
          cause: error,
        });
      }
      throw error;
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onOuterAbort);
    }
  }

  return async function chainFetch(input: Request): Promise<Response> {
    const template = input.clone();
    let { response, token } = await attempt(template);

    if (response.status === 401 && !NO_REFRESH.test(new URL(template.url).pathname)) {
      // A refresh finished after this request left: the token already changed, replay without a new refresh.
      const current = options.getAccessToken();
      const renewed = current !== undefined && current !== token ? true : await refreshOnce();
      if (!renewed) {
        options.onAuthLost();
        return response;
      }
      ({ response, token } = await attempt(template));
      if (response.status === 401) {
        options.onAuthLost();
        return response;
      }
    }

    if (response.status === 403) {
      const envelope = await peekEnvelope(response);
      if (envelope?.code === REAUTH_REQUIRED && (await reauthOnce())) {
        ({ response } = await attempt(template));
      }
    }
    return response;
  };
}

/**
 * Realtime store: one WebSocket to the service's hub (`/hub/realtime`) while a user is signed in (the main layout
 * connects and disconnects it), and the unread notice count it keeps current.
 *
 * - The socket authenticates with the access token in `?access_token=` (browsers cannot set headers on a
 *   WebSocket; the hub accepts the query token on its path only). Before each connection the unread count is
 *   fetched through the typed client: that call refreshes a stale access token (or ends at the login page when
 *   the session is gone), so the socket always opens with a current token.
 * - Messages `{type, data}`: `notice-changed` and `resync` refetch the unread count (and bump `noticeVersion`, so
 *   an open inbox refetches too); `force-logout` hands over to `onForceLogout` and stops reconnecting.
 * - A dropped socket reconnects with exponential backoff and jitter (at once when the browser comes back online),
 *   asking for `resume=1`: the hub then sends `resync`, because messages sent while the socket was down are lost. Close 4001 (the session ended) does not
 *   reconnect; 4401 (the token expired) reconnects at once with a refreshed token. The backoff starts again only
 *   after a socket stayed open for STABLE_OPEN_MS, so a hub that accepts and closes at once is retried with backoff.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ApiClient } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import { useAuthStore } from './auth.js';

/** The hub's path on the service. */
export const HUB_PATH = '/hub/realtime';

/** Close codes of the hub (`HubCloseCode` of @svc/http; the console imports no server code). */
export const HUB_CLOSE = { SessionEnded: 4001, TokenExpired: 4401 } as const;

/** First reconnect delay; it doubles per failed attempt up to the cap. */
export const BACKOFF_FIRST_MS = 1_000;
/** Longest reconnect delay: a hub that stays away is retried twice a minute. */
export const BACKOFF_MAX_MS = 30_000;
/**
 * How long a socket must stay open before its close counts as a new drop (backoff from the start) rather than one
 * more failed attempt: a hub (or a proxy) that accepts and closes at once, with 4401 say, made a tab reconnect in a
 * tight loop (1,700 sockets and unread-count calls in 15 s) because every open reset the backoff.
 */
export const STABLE_OPEN_MS = 10_000;

/**
 * The delay before reconnect attempt `attempt` (0-based): exponential, capped, with "equal jitter" (half fixed,
 * half random) so that the clients of a restarted instance do not all come back in the same second.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The hub's WebSocket URL for an API base (`''` = this origin, or an absolute URL). */
export function hubUrl(apiBase: string, token: string, resume: boolean, here: string): string {
  const url = new URL(`${apiBase.replace(/\/+$/, '')}${HUB_PATH}`, here);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('access_token', token);
  if (resume) url.searchParams.set('resume', '1');
  return url.toString();
}

/** One message of the hub, or undefined when the frame is not one. */
export function parseHubMessage(text: unknown): { type: string; data: unknown } | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value = JSON.parse(text) as { type?: unknown; data?: unknown };
    return typeof value?.type === 'string' ? { type: value.type, data: value.data } : undefined;
  } catch {
    return undefined;
  }
}

export interface RealtimeOptions {
  api: ApiClient;
  /** Where the API (and so the hub) lives; `''` for this origin. */
  apiBase: string;
  /** The hub ended this session: clear it and show the login page. */
  onForceLogout: (reason: string) => void;
}

export type RealtimeState = 'idle' | 'connecting' | 'open' | 'closed';

export const useRealtimeStore = defineStore('svc-realtime', () => {
  const state = ref<RealtimeState>('idle');
  const unread = ref(0);
  /** Bumped on every notice change the hub reports: an open inbox refetches when it moves. */
  const noticeVersion = ref(0);

  let options: RealtimeOptions | undefined;
  let socket: WebSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  /** When the current socket opened (the page's clock), if it did. */
  let openedAt: number | undefined;
  let wanted = false;
  let opened = false;

  async function refetchUnread(): Promise<void> {
    if (!options) return;
    unread.value = unwrap(await options.api.GET('/api/v1/sys/notice/unread-count'));
  }

  function noticesChanged(): void {
    noticeVersion.value++;
    void refetchUnread().catch(() => {});
  }

  function schedule(delay = backoffDelay(attempt)): void {
    if (!wanted || timer) return;
    attempt++;
    timer = setTimeout(() => {
      timer = undefined;
      void open();
    }, delay);
  }

  function receive(text: unknown): void {
    const message = parseHubMessage(text);
    if (!message) return;
    if (message.type === 'notice-changed' || message.type === 'resync') noticesChanged();
    if (message.type === 'force-logout') {
      const reason = String((message.data as { reason?: unknown } | null)?.reason ?? '');
      const handler = options?.onForceLogout;
      disconnect();
      handler?.(reason);
    }
  }

  async function open(): Promise<void> {
    if (!wanted || !options || socket) return;
    state.value = 'connecting';
    // Through the client first: it refreshes a stale token (or ends the session) and makes the count current.
    await refetchUnread().catch(() => {});
    const token = useAuthStore().accessToken;
    if (!wanted || socket || !token) return;
    const ws = new WebSocket(hubUrl(options.apiBase, token, opened, globalThis.location.href));
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      openedAt = Date.now();
      opened = true;
      state.value = 'open';
    };
    ws.onmessage = (event) => {
      if (socket === ws) receive(event.data);
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = undefined;
      state.value = 'closed';
      if (openedAt !== undefined && Date.now() - openedAt >= STABLE_OPEN_MS) attempt = 0;
      openedAt = undefined;
      if (event.code === HUB_CLOSE.SessionEnded) return;
      // An expired token is renewed at once, the first time in a row; a hub that keeps closing waits its turn.
      schedule(event.code === HUB_CLOSE.TokenExpired && attempt === 0 ? 0 : undefined);
    };
  }

  /** Back online: no need to wait out the backoff. */
  function onOnline(): void {
    if (!wanted || socket) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    attempt = 0;
    void open();
  }

  /** Connects (once signed in); calling it again while connected only replaces the options. */
  function connect(next: RealtimeOptions): void {
    options = next;
    if (wanted) return;
    wanted = true;
    attempt = 0;
    opened = false;
    globalThis.addEventListener?.('online', onOnline);
    void open();
  }

  /** Closes the socket and stops reconnecting (sign-out, layout gone). */
  function disconnect(): void {
    wanted = false;
    globalThis.removeEventListener?.('online', onOnline);
    if (timer) clearTimeout(timer);
    timer = undefined;
    const ws = socket;
    socket = undefined;
    ws?.close(1000, 'bye');
    state.value = 'idle';
    unread.value = 0;
    options = undefined;
  }

  return { state, unread, noticeVersion, connect, disconnect, refetchUnread };
});

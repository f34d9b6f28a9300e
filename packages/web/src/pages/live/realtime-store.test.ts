/**
 * The realtime store (stores/realtime.ts; the test sits in the live area's folder, which this area owns) against a
 * fake WebSocket and a fake clock: it connects with the current token, refetches the unread count on
 * `notice-changed`, reconnects after a drop with backoff and `resume=1`, and stops for good on `force-logout` and
 * on the hub's "session ended" close.
 */
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../api/client.js';
import { useAuthStore } from '../../stores/auth.js';
import { BACKOFF_FIRST_MS, HUB_CLOSE, STABLE_OPEN_MS, useRealtimeStore } from '../../stores/realtime.js';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closedWith: number | undefined;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close(code = 1000): void {
    this.closedWith = code;
  }
  /** The server side of the fake. */
  serverOpen(): void {
    this.onopen?.();
  }
  serverSend(type: string, data: unknown = null): void {
    this.onmessage?.({ data: JSON.stringify({ type, data }) });
  }
  serverClose(code: number): void {
    this.onclose?.({ code });
  }
}

/** Lets the store's awaited fetches settle. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

describe('realtime store', () => {
  let unread = 0;
  let countCalls = 0;
  const api = createApiClient({
    baseUrl: 'http://console.test',
    getAccessToken: () => 'tok',
    refresh: async () => false,
    onAuthLost: () => {},
    fetch: async () => {
      countCalls++;
      return new Response(JSON.stringify({ code: 0, msgKey: 'common.success', data: unread }), {
        headers: { 'content-type': 'application/json' },
      });
    },
  });

  beforeEach(() => {
    setActivePinia(createPinia());
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('location', { href: 'http://console.test/' });
    FakeSocket.all = [];
    unread = 0;
    countCalls = 0;
    useAuthStore().accessToken = 'token-1';
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('connects with the token, follows notice changes, reconnects with resume after a drop', async () => {
    const realtime = useRealtimeStore();
    unread = 2;
    realtime.connect({ api, apiBase: '', onForceLogout: () => {} });
    await settle();
    expect(realtime.unread).toBe(2);
    expect(FakeSocket.all.map((s) => s.url)).toEqual(['ws://console.test/hub/realtime?access_token=token-1']);
    const first = FakeSocket.all[0] as FakeSocket;
    first.serverOpen();
    expect(realtime.state).toBe('open');

    unread = 3;
    first.serverSend('notice-changed', { noticeId: 9, action: 'published' });
    await settle();
    expect(realtime.unread).toBe(3);
    expect(realtime.noticeVersion).toBe(1);

    // A drop: nothing before the backoff delay, then a new socket (fresh token) that asks for a resync.
    useAuthStore().accessToken = 'token-2';
    first.serverClose(1006);
    expect(realtime.state).toBe('closed');
    await vi.advanceTimersByTimeAsync(BACKOFF_FIRST_MS / 2 - 1);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(BACKOFF_FIRST_MS / 2 + 1);
    await settle();
    expect(FakeSocket.all.map((s) => s.url)[1]).toBe(
      'ws://console.test/hub/realtime?access_token=token-2&resume=1',
    );
    const second = FakeSocket.all[1] as FakeSocket;
    second.serverOpen();
    unread = 0;
    second.serverSend('resync');
    await settle();
    expect(realtime.unread).toBe(0);
  });

  it('reconnects at once when the browser comes back online', async () => {
    const listeners = new Map<string, () => void>();
    vi.stubGlobal('addEventListener', (type: string, listener: () => void) => listeners.set(type, listener));
    vi.stubGlobal('removeEventListener', (type: string) => listeners.delete(type));
    const realtime = useRealtimeStore();
    realtime.connect({ api, apiBase: '', onForceLogout: () => {} });
    await settle();
    (FakeSocket.all[0] as FakeSocket).serverClose(1006);
    listeners.get('online')?.();
    await settle();
    expect(FakeSocket.all).toHaveLength(2);
    realtime.disconnect();
    expect(listeners.has('online')).toBe(false);
  });

  it('hands a force-logout over once and never reconnects', async () => {
    const realtime = useRealtimeStore();
    const reasons: string[] = [];
    realtime.connect({ api, apiBase: '', onForceLogout: (reason) => reasons.push(reason) });
    await settle();
    const socket = FakeSocket.all[0] as FakeSocket;
    socket.serverOpen();
    socket.serverSend('force-logout', { reason: 'Kicked' });
    socket.serverClose(HUB_CLOSE.SessionEnded);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reasons).toEqual(['Kicked']);
    expect(socket.closedWith).toBe(1000);
    expect(realtime.state).toBe('idle');
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('does not reconnect after the hub closed for an ended session, nor after disconnect', async () => {
    const realtime = useRealtimeStore();
    realtime.connect({ api, apiBase: '', onForceLogout: () => {} });
    await settle();
    (FakeSocket.all[0] as FakeSocket).serverClose(HUB_CLOSE.SessionEnded);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);

    realtime.disconnect();
    realtime.connect({ api, apiBase: '', onForceLogout: () => {} });
    await settle();
    const again = FakeSocket.all[1] as FakeSocket;
    again.serverOpen();
    realtime.disconnect();
    again.serverClose(1006);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(2);
    expect(countCalls).toBe(2);
  });

  it('backs off from a hub that accepts and closes at once, also with "token expired"', async () => {
    const realtime = useRealtimeStore();
    realtime.connect({ api, apiBase: '', onForceLogout: () => {} });
    await settle();
    const cycle = async () => {
      const socket = FakeSocket.all.at(-1) as FakeSocket;
      socket.serverOpen();
      socket.serverClose(HUB_CLOSE.TokenExpired);
      await settle();
    };
    // The first expiry reconnects at once.
    await cycle();
    expect(FakeSocket.all).toHaveLength(2);
    // The next one, right after an open that lasted no time, waits for the backoff.
    await cycle();
    expect(FakeSocket.all).toHaveLength(2);
    // Fifteen seconds of a hub closing at once: a handful of sockets, not a loop.
    for (let i = 0; i < 15; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
      if (FakeSocket.all.at(-1)?.onopen && FakeSocket.all.length > 2) await cycle();
    }
    expect(FakeSocket.all.length).toBeLessThanOrEqual(6);
    // A socket that stayed open long enough starts over: its expiry reconnects at once.
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    const steady = FakeSocket.all.at(-1) as FakeSocket;
    steady.serverOpen();
    await vi.advanceTimersByTimeAsync(STABLE_OPEN_MS);
    const before = FakeSocket.all.length;
    steady.serverClose(HUB_CLOSE.TokenExpired);
    await settle();
    expect(FakeSocket.all).toHaveLength(before + 1);
  });
});

/**
 * The auth store against a fake host that keeps a browser's cookie jar (the HttpOnly `app_rt` cookie, rotated on
 * every refresh, a reused one answering 40007 as the host does within its reuse interval): no token reaches page
 * storage, a fresh page picks the session up from the cookie, two tabs refreshing at once both stay signed in
 * (with the Web Lock, and without it), and tabs hear of each other's sign-out and sign-in.
 */
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LoginOutput, useAuthStore } from './auth.js';

const API = 'http://console.test';

/** A Storage that records everything written to it. */
class MemoryStorage {
  readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, String(v));
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  clear() {
    this.items.clear();
  }
}

/** One serialising lock manager for all tabs, as `navigator.locks` is per origin. */
function fakeLocks() {
  let tail: Promise<unknown> = Promise.resolve();
  const taken: string[] = [];
  return {
    taken,
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      taken.push(name);
      const run = tail.then(callback);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

interface Seen {
  cookie: string;
  body: string;
  sessionMode: string | null;
  csrf: string | null;
}

/** The host: issues and rotates the refresh cookie of one user, as the browser's cookie jar holds it. */
function fakeHost(userId = 7) {
  let serial = 0;
  const jar = { rt: '' };
  const used = new Set<string>();
  const seen: Seen[] = [];
  const output = (): LoginOutput => ({
    accessToken: `access-${++serial}`,
    expiresAt: '2026-01-01T08:15:00.000Z',
    refreshToken: '',
    refreshExpiresAt: '2026-01-08T08:00:00.000Z',
    csrfRequired: false,
    sessionMode: 'cookie',
    mustChangePassword: false,
    userId,
    account: 'ada',
    name: 'Ada',
    isSuperAdmin: false,
  });
  const answer = (code: number, data: unknown) =>
    new Response(JSON.stringify({ code, msgKey: code === 0 ? 'common.success' : 'x', data }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  return {
    jar,
    seen,
    /** A login elsewhere (the login form): the cookie is set, the output handed over. */
    login(): LoginOutput {
      jar.rt = `rt-${++serial}`;
      return output();
    },
    fetch: vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      // The browser attaches the cookie as it is when the request leaves.
      const presented = jar.rt;
      seen.push({
        cookie: presented,
        body: String(init?.body ?? ''),
        sessionMode: headers.get('x-app-session-mode'),
        csrf: headers.get('x-app-csrf'),
      });
      expect(String(input)).toBe(`${API}/api/v1/auth/refresh`);
      expect(init?.credentials).toBe('include');
      // The answer takes a few turns: a second tab's request can leave meanwhile.
      for (let i = 0; i < 5; i++) await Promise.resolve();
      if (presented === '' || used.has(presented) || presented !== jar.rt) return answer(40007, null);
      used.add(presented);
      jar.rt = `rt-${++serial}`;
      return answer(0, output());
    }),
  };
}

const page = () => useAuthStore(createPinia());

describe('auth store', () => {
  let storage: { local: MemoryStorage; session: MemoryStorage };

  beforeEach(() => {
    storage = { local: new MemoryStorage(), session: new MemoryStorage() };
    vi.stubGlobal('localStorage', storage.local);
    vi.stubGlobal('sessionStorage', storage.session);
    vi.stubGlobal('indexedDB', {
      open: () => {
        throw new Error('the auth store must not open IndexedDB');
      },
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps no token in localStorage, sessionStorage or IndexedDB, in a cookie session and a token one', async () => {
    const host = fakeHost();
    vi.stubGlobal('fetch', host.fetch);
    const tab = page();
    tab.signIn(host.login());
    expect(tab.accessToken).toBe('access-2');
    expect(await tab.refresh(API)).toBe(true);
    tab.passwordChanged();
    const tokenTab = page();
    tokenTab.signIn({ ...host.login(), sessionMode: 'token', refreshToken: 'body-refresh-token' });
    expect(tokenTab.refreshToken).toBe('body-refresh-token');
    const written = [...storage.local.items.values(), ...storage.session.items.values()].join('\n');
    expect(written).not.toMatch(/access-|rt-|body-refresh-token/);
    expect(storage.session.items.size).toBe(0);
    expect(storage.local.items.size).toBe(0);
  });

  it('a fresh page (reload, new tab) picks the cookie session up; without a cookie it stays signed out', async () => {
    vi.stubGlobal('document', { cookie: 'theme=dark; app_csrf=csrf-value' });
    const host = fakeHost();
    vi.stubGlobal('fetch', host.fetch);
    const before = page();
    before.signIn(host.login());
    const reloaded = page();
    expect(reloaded.accessToken).toBe('');
    expect(await reloaded.restore(API)).toBe(true);
    expect(reloaded.accessToken).toMatch(/^access-/);
    expect(reloaded.userId).toBe(7);
    // No token in the body: the cookie carries it; the CSRF echo and the request for a cookie session go along.
    expect(host.seen.at(-1)).toMatchObject({ body: '{}', sessionMode: 'cookie', csrf: 'csrf-value' });

    host.jar.rt = '';
    const signedOut = page();
    expect(await signedOut.restore(API)).toBe(false);
    expect(signedOut.accessToken).toBe('');
  });

  it('two tabs refreshing at once both stay signed in: the Web Lock lets one rotate the cookie at a time', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks });
    const host = fakeHost();
    vi.stubGlobal('fetch', host.fetch);
    const login = host.login();
    const [a, b] = [page(), page()];
    a.signIn(login);
    b.signIn(login);
    expect(await Promise.all([a.refresh(API), b.refresh(API)])).toEqual([true, true]);
    expect(locks.taken).toEqual(['svc.session.refresh', 'svc.session.refresh']);
    // Each refresh presented the cookie the previous one left: no tab ever sent a rotated token.
    expect(host.seen.map((s) => s.cookie)).toEqual(['rt-1', 'rt-3']);
    expect(a.accessToken).not.toBe(b.accessToken);
  });

  it('without Web Locks, the tab that lost the rotation race tries once more with the new cookie', async () => {
    vi.stubGlobal('navigator', {});
    const host = fakeHost();
    vi.stubGlobal('fetch', host.fetch);
    const login = host.login();
    const [a, b] = [page(), page()];
    a.signIn(login);
    b.signIn(login);
    expect(await Promise.all([a.refresh(API), b.refresh(API)])).toEqual([true, true]);
    expect(host.seen.map((s) => s.cookie)).toEqual(['rt-1', 'rt-1', 'rt-3']);
  });

  it('a refresh that comes back for another user does not carry this tab on under them', async () => {
    const host = fakeHost(8);
    vi.stubGlobal('fetch', host.fetch);
    const tab = page();
    tab.signIn({ ...host.login(), userId: 7 });
    expect(await tab.refresh(API)).toBe(false);
    expect(tab.userId).toBe(7);
  });

  it('a sign-out in one tab ends the cookie session in the others; a token session is left alone', async () => {
    const host = fakeHost();
    const [a, b, c] = [page(), page(), page()];
    const heard = { b: [] as string[], c: [] as string[] };
    const stops = [
      a.watchOtherTabs({ signedOut: () => {}, signedIn: () => {} }),
      b.watchOtherTabs({ signedOut: () => heard.b.push('out'), signedIn: (id) => heard.b.push(`in ${id}`) }),
      c.watchOtherTabs({ signedOut: () => heard.c.push('out'), signedIn: (id) => heard.c.push(`in ${id}`) }),
    ];
    try {
      const login = host.login();
      b.signIn(login);
      c.signIn({ ...host.login(), sessionMode: 'token', refreshToken: 'own', userId: 9 });
      // `a` signs in: b already has this user (nothing to do), c keeps its own token session.
      a.signIn(login);
      a.signOut();
      await vi.waitFor(() => expect(heard.b).toEqual(['out']));
      expect(a.accessToken).toBe('');
      expect(heard.c).toEqual([]);
      // A tab on the login page hears of a new sign-in and can pick it up.
      b.clear();
      a.signIn(host.login());
      await vi.waitFor(() => expect(heard.b).toEqual(['out', 'in 7']));
      expect(heard.c).toEqual([]);
    } finally {
      for (const stop of stops) stop();
    }
  });
});

/** Tabs: opened once each, closing answers the neighbour to show, the home tab stays. */
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTabsStore } from './tabs.js';

describe('tabs store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('opens a path once and closes to the right-hand neighbour, else the left one', () => {
    const tabs = useTabsStore();
    for (const path of ['/', '/system/user', '/system/role', '/system/user', '/monitor/server']) {
      tabs.open({ path, title: path });
    }
    expect(tabs.tabs.map((t) => t.path)).toEqual(['/', '/system/user', '/system/role', '/monitor/server']);
    expect(tabs.close('/system/role')).toBe('/monitor/server');
    expect(tabs.close('/monitor/server')).toBe('/system/user');
    expect(tabs.tabs.map((t) => t.path)).toEqual(['/', '/system/user']);
  });

  it('never closes the home tab and ignores unknown paths', () => {
    const tabs = useTabsStore();
    tabs.open({ path: '/', title: 'app.home' });
    expect(tabs.close('/')).toBeUndefined();
    expect(tabs.close('/nowhere')).toBeUndefined();
    expect(tabs.tabs).toHaveLength(1);
  });
});

describe('tabs kept per user', () => {
  const items = new Map<string, string>();
  beforeEach(() => {
    items.clear();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    });
    setActivePinia(createPinia());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('opens a user’s tabs again on the next page, drops pages gone since, never shows them to another user', () => {
    const tabs = useTabsStore();
    tabs.open({ path: '/', title: 'app.home' });
    tabs.restore(7, (p) => p);
    tabs.open({ path: '/system/user', title: 'Users' });
    tabs.open({ path: '/system/role', title: 'Roles' });
    tabs.close('/system/user');
    // A reload: a new store, the user's tabs restored before the page just opened.
    setActivePinia(createPinia());
    const again = useTabsStore();
    again.open({ path: '/monitor/server', title: 'Server' });
    again.restore(7, (path) => (path === '/gone' ? undefined : path));
    expect(again.tabs.map((t) => t.path)).toEqual(['/', '/system/role', '/monitor/server']);
    // Signed out: the screen forgets, the storage keeps; another user starts with nothing of user 7.
    again.reset();
    again.open({ path: '/', title: 'app.home' });
    again.restore(8, (p) => p);
    expect(again.tabs.map((t) => t.path)).toEqual(['/']);
    // A page taken away from user 7 is not reopened.
    setActivePinia(createPinia());
    const later = useTabsStore();
    later.restore(7, (path) => (path === '/system/role' ? undefined : path));
    expect(later.tabs.map((t) => t.path)).toEqual(['/', '/monitor/server']);
  });

  it('keeps nothing before the user is known and reads broken storage as no tabs', () => {
    const tabs = useTabsStore();
    tabs.open({ path: '/system/user', title: 'Users' });
    expect(items.size).toBe(0);
    items.set('svc.tabs.9', '{oops');
    tabs.restore(9, (p) => p);
    expect(tabs.tabs.map((t) => t.path)).toEqual(['/system/user']);
    items.set(
      'svc.tabs.10',
      JSON.stringify([
        { path: 'javascript:x', title: 'x' },
        { path: '/a', title: 1 },
      ]),
    );
    setActivePinia(createPinia());
    const other = useTabsStore();
    other.restore(10, (p) => p);
    expect(other.tabs).toEqual([]);
  });
});

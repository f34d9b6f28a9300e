/** Tabs: opened once each, closing answers the neighbour to show, the home tab stays. */
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
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

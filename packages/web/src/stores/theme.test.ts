/** Theme: the system's scheme until the user picks one, the pick kept for the next page. */
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readThemeChoice, resolveDark, useThemeStore } from './theme.js';

describe('theme', () => {
  it('follows the system until the user chose', () => {
    expect(resolveDark(undefined, true)).toBe(true);
    expect(resolveDark(undefined, false)).toBe(false);
    expect(resolveDark('light', true)).toBe(false);
    expect(resolveDark('dark', false)).toBe(true);
  });

  it('reads only a known choice', () => {
    const storage = (v: string | null) => ({ getItem: () => v });
    expect(readThemeChoice(storage('dark'))).toBe('dark');
    expect(readThemeChoice(storage('light'))).toBe('light');
    expect(readThemeChoice(storage('purple'))).toBeUndefined();
    expect(readThemeChoice(storage(null))).toBeUndefined();
  });

  describe('store', () => {
    const items = new Map<string, string>();
    let listeners: Array<(e: { matches: boolean }) => void> = [];
    beforeEach(() => {
      items.clear();
      listeners = [];
      vi.stubGlobal('localStorage', {
        getItem: (k: string) => items.get(k) ?? null,
        setItem: (k: string, v: string) => void items.set(k, v),
      });
      vi.stubGlobal('matchMedia', () => ({
        matches: true,
        addEventListener: (_: string, f: (e: { matches: boolean }) => void) => listeners.push(f),
      }));
      setActivePinia(createPinia());
    });
    afterEach(() => vi.unstubAllGlobals());

    it('starts dark with a dark system, follows its change, then keeps the user’s switch over a new page', () => {
      const theme = useThemeStore();
      expect(theme.dark).toBe(true);
      for (const f of listeners) f({ matches: false });
      expect(theme.dark).toBe(false);
      theme.toggle();
      expect(theme.dark).toBe(true);
      expect(items.get('svc.theme')).toBe('dark');
      // The system's change no longer moves a user's choice.
      for (const f of listeners) f({ matches: false });
      expect(theme.dark).toBe(true);
      setActivePinia(createPinia());
      expect(useThemeStore().dark).toBe(true);
      useThemeStore().toggle();
      setActivePinia(createPinia());
      expect(useThemeStore().dark).toBe(false);
    });
  });
});

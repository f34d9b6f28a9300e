/** The icon set draws every icon the seed gives its menus, and a fallback per type for any other name. */
import { defaultSeedMenus, flattenSeedMenus } from '@svc/data';
import { describe, expect, it } from 'vitest';
import { ICONS, menuIcon, renderIcon } from './icons.js';

describe('icons', () => {
  it('has a drawing for every icon of the seeded menus', () => {
    const seeded = flattenSeedMenus(defaultSeedMenus).flatMap((m) => (m.icon ? [m.icon] : []));
    expect(seeded.length).toBeGreaterThan(15);
    expect(seeded.filter((name) => !ICONS[name])).toEqual([]);
  });

  it('falls back per menu type, and renders nothing for an unknown name', () => {
    expect(menuIcon('user', 'menu')).toBe('user');
    expect(menuIcon('no-such', 'menu')).toBe('page');
    expect(menuIcon(null, 'catalog')).toBe('folder');
    expect(renderIcon('no-such')).toBeNull();
    expect(renderIcon('user')?.type).toBe('svg');
  });
});

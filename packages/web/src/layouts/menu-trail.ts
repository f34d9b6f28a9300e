/**
 * What the shell reads from the menu tree besides routes: the breadcrumb of a page (its catalogs, then itself) and
 * the entries of the menu search (the pages the user may open, with their trail), matched by a typed query.
 */
import type { MenuNode } from '../stores/user.js';

/** A page of the menu search: where it goes, its title and the titles above it. */
export interface MenuEntry {
  path: string;
  title: string;
  icon: string | null;
  /** Titles from the top catalog down to the page's own. */
  trail: string[];
}

/** Every page the sidebar offers (enabled, not hidden, with a path), depth first, with its trail. */
export function menuEntries(tree: readonly MenuNode[], above: string[] = []): MenuEntry[] {
  return tree.flatMap((n) => {
    if (!n.enabled || n.hidden || n.type === 'button') return [];
    const trail = [...above, n.title];
    if (n.type === 'menu' && n.path) return [{ path: n.path, title: n.title, icon: n.icon, trail }];
    return menuEntries(n.children ?? [], trail);
  });
}

/** The breadcrumb of `path`: the titles of its catalogs and its own; empty when no menu has the path. */
export function menuTrail(tree: readonly MenuNode[], path: string): string[] {
  for (const n of tree) {
    if (!n.enabled || n.type === 'button') continue;
    if (n.type === 'menu' && n.path === path) return [n.title];
    const below = menuTrail(n.children ?? [], path);
    if (below.length > 0) return [n.title, ...below];
  }
  return [];
}

/**
 * The entries matching `query` (case-insensitive; every word must occur in the title, the trail or the path),
 * titles that start with the query first; an empty query answers them all.
 */
export function searchMenu(entries: readonly MenuEntry[], query: string): MenuEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  const hits = entries.filter((e) => {
    const text = `${e.trail.join(' ')} ${e.path}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
  const first = words.join(' ');
  const starts = (e: MenuEntry) => (e.title.toLowerCase().startsWith(first) ? 0 : 1);
  return hits.sort((a, b) => starts(a) - starts(b));
}

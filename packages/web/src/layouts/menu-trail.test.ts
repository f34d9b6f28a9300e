/** Breadcrumbs and the menu search from the menu tree: only what the sidebar offers, matched word by word. */
import { describe, expect, it } from 'vitest';
import type { MenuNode } from '../stores/user.js';
import { menuEntries, menuTrail, searchMenu } from './menu-trail.js';

const node = (
  id: number,
  type: MenuNode['type'],
  title: string,
  extra: Partial<MenuNode> = {},
): MenuNode => ({
  id,
  parentId: 0,
  type,
  title,
  permission: null,
  path: null,
  component: null,
  icon: null,
  sort: 0,
  enabled: true,
  hidden: false,
  moduleId: null,
  remark: null,
  children: [],
  ...extra,
});

const tree = [
  node(1, 'catalog', 'System', {
    children: [
      node(100, 'menu', 'Users', {
        path: '/system/user',
        icon: 'user',
        children: [node(101, 'button', 'Add')],
      }),
      node(200, 'menu', 'Roles', { path: '/system/role' }),
      node(300, 'menu', 'Hidden page', { path: '/system/hidden', hidden: true }),
      node(400, 'menu', 'Off', { path: '/system/off', enabled: false }),
    ],
  }),
  node(2, 'catalog', 'Monitor', {
    children: [node(800, 'menu', 'Operation log', { path: '/monitor/log/op' })],
  }),
];

describe('menu trail and search', () => {
  it('lists the pages the sidebar shows, with their catalogs', () => {
    expect(menuEntries(tree).map((e) => [e.path, e.trail.join(' / ')])).toEqual([
      ['/system/user', 'System / Users'],
      ['/system/role', 'System / Roles'],
      ['/monitor/log/op', 'Monitor / Operation log'],
    ]);
  });

  it('gives the breadcrumb of a page, a hidden page included, and none for an unknown or disabled path', () => {
    expect(menuTrail(tree, '/monitor/log/op')).toEqual(['Monitor', 'Operation log']);
    expect(menuTrail(tree, '/system/hidden')).toEqual(['System', 'Hidden page']);
    expect(menuTrail(tree, '/system/off')).toEqual([]);
    expect(menuTrail(tree, '/nowhere')).toEqual([]);
  });

  it('matches every word in the title, trail or path, titles starting with the query first', () => {
    const entries = menuEntries(tree);
    expect(searchMenu(entries, 'ro').map((e) => e.title)).toEqual(['Roles']);
    expect(searchMenu(entries, 'SYSTEM us').map((e) => e.title)).toEqual(['Users']);
    expect(searchMenu(entries, 'log').map((e) => e.title)).toEqual(['Operation log']);
    expect(searchMenu(entries, 'o').map((e) => e.title)).toEqual(['Operation log', 'Roles']);
    expect(searchMenu(entries, 'hidden')).toEqual([]);
    expect(searchMenu(entries, '  ')).toHaveLength(3);
  });
});

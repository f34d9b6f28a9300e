/** Menu tree to routes: only enabled menu pages with a path, the registered page or the placeholder. */
import { describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { MenuNode } from '../stores/user.js';
import { addMenuRoutes, menuRoutes } from './menu-routes.js';

const node = (id: number, type: MenuNode['type'], extra: Partial<MenuNode> = {}): MenuNode => ({
  id,
  parentId: 0,
  type,
  title: `n${id}`,
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

describe('menu routes', () => {
  it('turns menu pages into routes and leaves catalogs, buttons and disabled nodes out', () => {
    const users = { name: 'Users' };
    const fallback = { name: 'NoPage' };
    const tree = [
      node(1, 'catalog', {
        path: '/system',
        children: [
          node(100, 'menu', {
            path: '/system/user',
            component: 'system/user/index',
            children: [node(101, 'button')],
          }),
          node(200, 'menu', { path: '/system/role', component: 'system/role/custom' }),
          node(300, 'menu', { path: '/system/off', component: 'system/user/index', enabled: false }),
        ],
      }),
    ];
    const routes = menuRoutes(tree, { 'system/user/index': users }, fallback);
    expect(routes.map((r) => [r.path, r.name])).toEqual([
      ['/system/user', 'menu-100'],
      ['/system/role', 'menu-200'],
    ]);
    expect(routes[0]?.component).toBe(users);
    expect(routes[1]?.component).toBe(fallback);
  });
});

describe('adding menu routes', () => {
  it('skips a menu path the router cannot compile and adds the others', async () => {
    const component = { render: () => null };
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/', name: 'root', component, children: [] }],
    });
    const tree = [
      node(1, 'menu', { path: '/ok-before' }),
      node(2, 'menu', { path: '/:x([)' }),
      node(3, 'menu', { path: '/ok-after' }),
    ];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(addMenuRoutes(router, 'root', menuRoutes(tree, {}, component))).toEqual(['/:x([)']);
    } finally {
      warn.mockRestore();
    }
    expect(router.hasRoute('menu-1')).toBe(true);
    expect(router.hasRoute('menu-2')).toBe(false);
    expect(router.resolve('/ok-after').name).toBe('menu-3');
  });
});

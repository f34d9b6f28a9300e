/** Routes from the personal menu tree: every enabled `menu` node with a path becomes a child of the layout. */
import type { RouteRecordRaw } from 'vue-router';
import type { PageLoader } from '../context.js';
import type { MenuNode } from '../stores/user.js';

export function menuPages(tree: readonly MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  const walk = (nodes: readonly MenuNode[]) => {
    for (const node of nodes) {
      if (!node.enabled) continue;
      if (node.type === 'menu' && node.path) out.push(node);
      if (node.children) walk(node.children);
    }
  };
  walk(tree);
  return out;
}

/** One route per menu page; a component key without a registered page shows the placeholder page. */
export function menuRoutes(
  tree: readonly MenuNode[],
  pages: Readonly<Record<string, PageLoader>>,
  fallback: PageLoader,
): RouteRecordRaw[] {
  return menuPages(tree).map((node) => ({
    path: node.path as string,
    name: `menu-${node.id}`,
    component: (node.component ? pages[node.component] : undefined) ?? fallback,
    meta: { title: node.title, component: node.component ?? '' },
  })) as RouteRecordRaw[];
}

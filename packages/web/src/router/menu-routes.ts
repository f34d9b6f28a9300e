/** Routes from the personal menu tree: every enabled `menu` node with a path becomes a child of the layout. */
import type { RouteRecordRaw, Router } from 'vue-router';
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

/**
 * Adds menu routes under `parent`, skipping (with a warning) any the router refuses: a menu path is free text on the
 * server, and one vue-router cannot compile (`/:x([)`) threw out of the navigation guard and left every user who
 * had that menu, the super administrator included, on a blank console. Answers the paths skipped.
 */
export function addMenuRoutes(router: Router, parent: string, routes: readonly RouteRecordRaw[]): string[] {
  const skipped: string[] = [];
  for (const route of routes) {
    try {
      router.addRoute(parent, route);
    } catch (error) {
      skipped.push(route.path);
      console.warn(`Menu path ${JSON.stringify(route.path)} is not a route: skipped.`, error);
    }
  }
  return skipped;
}

/**
 * The shop's menus and buttons, added to the default tree at first start (and by the menu upgrade on a database
 * seeded before the module was on). Ids are fixed, in the shop's own range 9200–9299, so a seeded menu keeps its
 * id on every database. Each permission route of the module has a button carrying its code (`METHOD:/path`, the
 * kernel's one rule, `permissionCode`); a role is granted the buttons, the route checks the code.
 */
import { permissionCode, type SeedMenu } from '@svc/server/data';

const api = (method: string, path: string) => permissionCode(method, `/api/v1/shop${path}`);
const button = (id: number, title: string, permission: string): SeedMenu => ({
  id,
  type: 'button',
  title,
  permissions: [permission],
});

/** List, detail, add, edit and remove buttons of a resource under `/api/v1/shop/<resource>`. */
const crud = (first: number, resource: string): SeedMenu[] => [
  button(first, 'List', api('GET', `/${resource}/page`)),
  button(first + 1, 'Detail', api('GET', `/${resource}/{id}`)),
  button(first + 2, 'Add', api('POST', `/${resource}`)),
  button(first + 3, 'Edit', api('PUT', `/${resource}/{id}`)),
  button(first + 4, 'Remove', api('DELETE', `/${resource}/{id}`)),
];

export const SHOP_MENU_IDS = { catalog: 9200, categories: 9210, products: 9220 } as const;

export const shopMenus: readonly SeedMenu[] = [
  {
    id: SHOP_MENU_IDS.catalog,
    type: 'catalog',
    title: 'Shop',
    path: '/shop',
    icon: 'shopping',
    children: [
      {
        id: SHOP_MENU_IDS.categories,
        type: 'menu',
        title: 'Categories',
        path: '/shop/category',
        component: 'shop/category/index',
        icon: 'folder',
        children: crud(9211, 'category'),
      },
      {
        id: SHOP_MENU_IDS.products,
        type: 'menu',
        title: 'Products',
        path: '/shop/product',
        component: 'shop/product/index',
        icon: 'goods',
        children: [...crud(9221, 'product'), button(9226, 'Export', api('GET', '/product/export'))],
      },
    ],
  },
];

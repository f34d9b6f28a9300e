/**
 * The default menu tree of the first-start seed, and the one list of the kernel's permission codes: every
 * permission-protected route has a button here (contract §4), and a feature that adds such a route adds its
 * code here. Ids are fixed and grouped by hundreds per area (users 100–199, roles 200–299, …; top-level
 * catalogs below 100), so a seeded menu keeps its id on every database and new areas take the next hundred.
 */
import type { MenuType } from '../rows.js';

/** One node of a seed menu tree. */
export interface SeedMenu {
  /** Fixed id; a button shares the hundred of its area. */
  readonly id: number;
  readonly type: MenuType;
  readonly title: string;
  readonly path?: string;
  readonly component?: string;
  readonly icon?: string;
  /** Permission codes (`METHOD:/api/v1/...`), stored joined by `;`. */
  readonly permissions?: readonly string[];
  readonly hidden?: boolean;
  readonly children?: readonly SeedMenu[];
}

/** A permission code: upper-case method, `:`, the route template in lower case (contract §4). */
export function permissionCode(method: string, route: string): string {
  return `${method.toUpperCase()}:${route.toLowerCase()}`;
}

const api = (method: string, route: string) => permissionCode(method, `/api/v1${route}`);

const button = (id: number, title: string, ...permissions: string[]): SeedMenu => ({
  id,
  type: 'button',
  title,
  permissions,
});

/** CRUD buttons of a resource whose list is `GET <base>/page` (or `listRoute`). */
function crudButtons(first: number, base: string, listRoute = `${base}/page`): SeedMenu[] {
  return [
    button(first, 'List', api('GET', listRoute)),
    button(first + 1, 'Detail', api('GET', `${base}/{id}`)),
    button(first + 2, 'Add', api('POST', base)),
    button(first + 3, 'Edit', api('PUT', `${base}/{id}`)),
    button(first + 4, 'Delete', api('DELETE', `${base}/{id}`)),
  ];
}

const menu = (id: number, title: string, path: string, icon: string, children: SeedMenu[]): SeedMenu => ({
  id,
  type: 'menu',
  title,
  path,
  component: `${path.replace(/^\//, '')}/index`,
  icon,
  children,
});

/** The system-management tree seeded at first start. */
export const defaultSeedMenus: readonly SeedMenu[] = [
  {
    id: 1,
    type: 'catalog',
    title: 'System',
    path: '/system',
    icon: 'setting',
    children: [
      menu(100, 'Users', '/system/user', 'user', [
        ...crudButtons(101, '/sys/user'),
        button(106, 'Batch delete', api('POST', '/sys/user/batch-delete')),
        button(107, 'Reset password', api('PUT', '/sys/user/{id}/password')),
        button(108, 'Enable / disable', api('PUT', '/sys/user/{id}/enabled')),
        button(109, 'Clear MFA', api('POST', '/sys/mfa/clear')),
        button(
          110,
          'Import',
          api('GET', '/sys/user/import/template'),
          api('POST', '/sys/user/import/preview'),
          api('POST', '/sys/user/import/validate'),
          api('POST', '/sys/user/import/error-report'),
          api('POST', '/sys/user/import/commit'),
        ),
        button(111, 'Export', api('GET', '/sys/user/export')),
        // Module Passkey's routes (as Import's above): a user's passkeys, listed and removed.
        button(
          112,
          'Passkeys',
          api('GET', '/sys/user/{id}/passkeys'),
          api('DELETE', '/sys/user/{id}/passkeys/{passkeyId}'),
        ),
      ]),
      menu(200, 'Roles', '/system/role', 'team', [
        ...crudButtons(201, '/sys/role'),
        button(209, 'Batch delete', api('POST', '/sys/role/batch-delete')),
        button(206, 'Menus', api('GET', '/sys/role/{id}/menus'), api('PUT', '/sys/role/{id}/menus')),
        button(
          207,
          'Data scope',
          api('GET', '/sys/role/{id}/datascope'),
          api('PUT', '/sys/role/{id}/datascope'),
        ),
        button(208, 'Members', api('GET', '/sys/role/{id}/users'), api('PUT', '/sys/role/{id}/users')),
      ]),
      menu(300, 'Menus', '/system/menu', 'menu', [
        button(301, 'Tree', api('GET', '/sys/menu/tree')),
        button(302, 'Add', api('POST', '/sys/menu')),
        button(303, 'Edit', api('PUT', '/sys/menu/{id}')),
        button(304, 'Delete', api('DELETE', '/sys/menu/{id}')),
        button(305, 'Routes', api('GET', '/menu/routes')),
      ]),
      menu(400, 'Organisations', '/system/org', 'apartment', [
        ...crudButtons(401, '/sys/org', '/sys/org/list'),
        button(406, 'Copy', api('POST', '/sys/org/{id}/copy')),
      ]),
      menu(500, 'Positions', '/system/position', 'idcard', crudButtons(501, '/sys/position')),
      menu(600, 'Configuration', '/system/config', 'control', [
        ...crudButtons(601, '/sys/config'),
        button(606, 'Batch edit', api('PUT', '/sys/config/batch')),
        button(607, 'Value by key', api('GET', '/sys/config/value/{key}')),
        button(608, 'External login providers', api('GET', '/auth/external/providers/all')),
      ]),
      menu(700, 'Dictionaries', '/system/dict', 'book', [
        button(701, 'Type list', api('GET', '/sys/dict/type/page')),
        button(702, 'Type add', api('POST', '/sys/dict/type')),
        button(703, 'Type edit', api('PUT', '/sys/dict/type/{id}')),
        button(704, 'Type delete', api('DELETE', '/sys/dict/type/{id}')),
        button(705, 'Item list', api('GET', '/sys/dict/item/page')),
        button(706, 'Item add', api('POST', '/sys/dict/item')),
        button(707, 'Item edit', api('PUT', '/sys/dict/item/{id}')),
        button(708, 'Item delete', api('DELETE', '/sys/dict/item/{id}')),
        button(709, 'Type detail', api('GET', '/sys/dict/type/{id}')),
        button(710, 'Type batch delete', api('POST', '/sys/dict/type/batch-delete')),
        button(711, 'Item batch delete', api('POST', '/sys/dict/item/batch-delete')),
      ]),
      menu(1100, 'Files', '/system/file', 'file', [
        button(1101, 'List', api('GET', '/sys/file/page')),
        button(1102, 'Upload', api('POST', '/sys/file/upload')),
        button(1103, 'Delete', api('DELETE', '/sys/file/{id}')),
        button(1104, 'Batch delete', api('POST', '/sys/file/batch-delete')),
        button(
          1105,
          'Chunked upload',
          api('POST', '/sys/file/chunk/init'),
          api('POST', '/sys/file/chunk'),
          api('POST', '/sys/file/chunk/complete'),
        ),
      ]),
      menu(1200, 'Online sessions', '/system/session', 'link', [
        button(1201, 'List', api('GET', '/sys/session/online')),
        button(1202, 'Force logout', api('DELETE', '/sys/session/{sessionId}')),
      ]),
      menu(1300, 'High-sensitivity permissions', '/system/security', 'safety', [
        button(1301, 'List', api('GET', '/sys/mfa/high-sensitivity')),
        button(1302, 'Add', api('POST', '/sys/mfa/high-sensitivity')),
        button(1303, 'Delete', api('DELETE', '/sys/mfa/high-sensitivity/{id}')),
      ]),
      menu(1400, 'Recycle bin', '/system/recycle', 'delete', [
        button(1401, 'List', api('GET', '/sys/recycle/types'), api('GET', '/sys/recycle/{type}/page')),
        button(1402, 'Restore', api('POST', '/sys/recycle/{type}/{id}/restore')),
        button(1403, 'Purge', api('DELETE', '/sys/recycle/{type}/{id}')),
      ]),
      menu(
        1500,
        'Modules',
        '/system/module',
        'appstore',
        crudButtons(1501, '/sys/module', '/sys/module/list'),
      ),
      menu(1600, 'Notices', '/system/notice', 'notification', [
        button(1601, 'List', api('GET', '/sys/notice/page')),
        button(1602, 'Publish', api('POST', '/sys/notice')),
        button(1603, 'Delete', api('DELETE', '/sys/notice/{id}')),
      ]),
    ],
  },
  {
    id: 2,
    type: 'catalog',
    title: 'Monitor',
    path: '/monitor',
    icon: 'monitor',
    children: [
      menu(800, 'Operation log', '/monitor/log/op', 'profile', [
        button(801, 'List', api('GET', '/sys/log/op/page')),
        button(802, 'Clear', api('DELETE', '/sys/log/op')),
        button(803, 'Export', api('GET', '/sys/log/op/export')),
      ]),
      menu(810, 'Login log', '/monitor/log/login', 'login', [
        button(811, 'List', api('GET', '/sys/log/login/page')),
        button(812, 'Clear', api('DELETE', '/sys/log/login')),
      ]),
      menu(820, 'Exception log', '/monitor/log/exception', 'bug', [
        button(821, 'List', api('GET', '/sys/log/exception/page')),
        button(822, 'Clear', api('DELETE', '/sys/log/exception')),
      ]),
      menu(900, 'Server', '/monitor/server', 'dashboard', [
        button(901, 'View', api('GET', '/sys/monitor/server')),
      ]),
      menu(1000, 'Cache', '/monitor/cache', 'database', [
        button(1001, 'Flush permissions', api('POST', '/sys/cache/flush-auth')),
        button(1002, 'Flush dictionaries', api('POST', '/sys/cache/flush-dict')),
        button(1003, 'Flush configuration', api('POST', '/sys/cache/flush-config')),
        button(1004, 'Rebuild portal menus', api('POST', '/sys/cache/rebuild-portal')),
      ]),
      menu(1700, 'Scheduled jobs', '/monitor/job', 'schedule', [
        button(1701, 'List', api('GET', '/sys/job/page')),
        button(1702, 'Add', api('POST', '/sys/job')),
        button(1703, 'Edit', api('PUT', '/sys/job/{id}')),
        button(1704, 'Delete', api('DELETE', '/sys/job/{id}'), api('POST', '/sys/job/batch-delete')),
        button(1705, 'Pause / resume', api('PUT', '/sys/job/{id}/enabled')),
        button(1706, 'Run now', api('POST', '/sys/job/{id}/run')),
        button(1707, 'Handlers', api('GET', '/sys/job/handlers')),
        button(1708, 'Run log', api('GET', '/sys/job/log/page')),
        button(1709, 'Kill a run', api('POST', '/sys/job/log/{id}/kill')),
        button(1710, 'Clear the run log', api('POST', '/sys/job/log/clear')),
        button(1711, 'Dashboard', api('GET', '/sys/job/dashboard')),
      ]),
    ],
  },
];

/** A seed node as a `sys_menu` row (parent id and sort filled from its place in the tree). */
export interface FlatSeedMenu {
  id: number;
  parentId: number;
  type: MenuType;
  title: string;
  permission: string | null;
  path: string | null;
  component: string | null;
  icon: string | null;
  sort: number;
  hidden: boolean;
}

/** Depth-first flattening; `sort` is the 1-based position among siblings. */
export function flattenSeedMenus(menus: readonly SeedMenu[], parentId = 0): FlatSeedMenu[] {
  return menus.flatMap((node, index) => [
    {
      id: node.id,
      parentId,
      type: node.type,
      title: node.title,
      permission: node.permissions && node.permissions.length > 0 ? node.permissions.join(';') : null,
      path: node.path ?? null,
      component: node.component ?? null,
      icon: node.icon ?? null,
      sort: index + 1,
      hidden: node.hidden ?? false,
    },
    ...flattenSeedMenus(node.children ?? [], node.id),
  ]);
}

/** Every permission code in a seed tree, without duplicates. */
export function seedPermissionCodes(menus: readonly SeedMenu[]): string[] {
  return [...new Set(flattenSeedMenus(menus).flatMap((m) => (m.permission ? m.permission.split(';') : [])))];
}

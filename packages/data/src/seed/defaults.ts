/**
 * Fixed seed data besides the menus: the root organisation, one role per data-scope type plus the empty
 * `sys_admin` role, and the dictionaries the service itself reads (`common_status`, `gender`).
 */
import { DataScope } from '../rows.js';

/** The seeded super admin's real name (`SeedInput.adminRealName`'s default). */
export const SEED_ADMIN_REAL_NAME = 'Super Admin';

/** The root organisation (parent 0). */
export const ROOT_ORG = { code: 'root', name: 'Headquarters' } as const;

/** Seed roles. None carries menu grants or custom org lists: an administrator grants them deliberately. */
export const SEED_ROLES = [
  { code: 'data_all', name: 'All data', dataScope: DataScope.All, remark: 'Data scope: all data.' },
  {
    code: 'data_org',
    name: 'Own organisation',
    dataScope: DataScope.Org,
    remark: 'Data scope: own organisation.',
  },
  {
    code: 'data_org_children',
    name: 'Organisation and children',
    dataScope: DataScope.OrgAndChildren,
    remark: 'Data scope: own organisation and its descendants.',
  },
  { code: 'data_self', name: 'Self only', dataScope: DataScope.Self, remark: 'Data scope: own rows only.' },
  {
    code: 'data_custom',
    name: 'Custom organisations',
    dataScope: DataScope.Custom,
    remark: 'Data scope: an explicit organisation list.',
  },
  {
    code: 'sys_admin',
    name: 'System administrator',
    dataScope: DataScope.Self,
    remark: 'Empty on purpose: grant menus and a data scope before assigning it.',
  },
] as const;

/** Seed dictionaries: type code and name, items as `[value, label]`. */
export const SEED_DICTIONARIES = [
  {
    code: 'common_status',
    name: 'Status',
    items: [
      ['1', 'Enabled'],
      ['0', 'Disabled'],
    ],
  },
  {
    code: 'gender',
    name: 'Gender',
    items: [
      ['0', 'Unknown'],
      ['1', 'Male'],
      ['2', 'Female'],
    ],
  },
] as const;

/** Seed portal modules: the built-in, protected `system` (every seeded top-level menu belongs to it) and a
 * deletable demo `business`. */
export const SEED_MODULES = [
  {
    code: 'system',
    title: 'System',
    icon: 'setting',
    apiPrefix: 'sys',
    defaultRoute: '/system/user',
    sort: 1,
  },
  { code: 'business', title: 'Business', icon: 'appstore', apiPrefix: 'biz', defaultRoute: null, sort: 2 },
] as const;

/** Code of the built-in portal module (cannot be deleted, 42013). */
export const SYSTEM_MODULE_CODE = 'system';

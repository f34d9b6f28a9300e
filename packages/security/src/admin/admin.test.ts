import { ALL_DATA_SCOPE, DataScope, EMPTY_DATA_SCOPE, isInDataScope } from '@svc/data';
import { isBusinessError } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { combineRoleScopes } from './data-scope.js';
import { normalizePermissionCode, normalizePermissionText } from './permission-codes.js';
import { createRecycleBinRegistry, type RecycleBinType } from './recycle-bin.js';
import { buildTree, withAncestors, wouldCreateCycle } from './tree.js';

//   1 ─┬─ 2 ─── 4
//      └─ 3
const links = [
  { id: 1, parentId: 0 },
  { id: 2, parentId: 1 },
  { id: 3, parentId: 1 },
  { id: 4, parentId: 2 },
];
const role = (dataScope: DataScope, customOrgIds: number[] = []) => ({ roleId: 1, dataScope, customOrgIds });
const me = { id: 9, orgId: 2 };

describe('combineRoleScopes (contract §4)', () => {
  it('resolves each type', () => {
    expect(combineRoleScopes([role(DataScope.All)], me, links)).toBe(ALL_DATA_SCOPE);
    expect(combineRoleScopes([role(DataScope.Org)], me, links)).toEqual({
      all: false,
      orgIds: [2],
      selfUserId: null,
    });
    expect(combineRoleScopes([role(DataScope.OrgAndChildren)], me, links).orgIds).toEqual([2, 4]);
    expect(combineRoleScopes([role(DataScope.Self)], me, links)).toEqual({
      all: false,
      orgIds: [],
      selfUserId: 9,
    });
    expect(combineRoleScopes([role(DataScope.Custom, [3, 3])], me, links).orgIds).toEqual([3]);
  });

  it('unites several roles, the widest winning', () => {
    const both = combineRoleScopes([role(DataScope.Self), role(DataScope.Custom, [3])], me, links);
    expect(both).toEqual({ all: false, orgIds: [3], selfUserId: 9 });
    expect(combineRoleScopes([role(DataScope.Org), role(DataScope.All)], me, links).all).toBe(true);
  });

  it('fails closed: no roles, no organisation, unknown stored values', () => {
    expect(combineRoleScopes([], me, links)).toBe(EMPTY_DATA_SCOPE);
    expect(combineRoleScopes([role(DataScope.Org)], { id: 9, orgId: null }, links)).toBe(EMPTY_DATA_SCOPE);
    expect(combineRoleScopes([role(7 as DataScope)], me, links)).toBe(EMPTY_DATA_SCOPE);
    expect(isInDataScope(EMPTY_DATA_SCOPE, { orgId: 1, ownerId: 1 })).toBe(false);
    expect(isInDataScope({ all: false, orgIds: [2], selfUserId: 9 }, { orgId: null, ownerId: 9 })).toBe(true);
  });
});

describe('trees', () => {
  it('nests rows and refuses moves under oneself or a descendant', () => {
    const tree = buildTree(links);
    expect(tree).toHaveLength(1);
    expect(tree[0]?.children.map((c) => c.id)).toEqual([2, 3]);
    expect(wouldCreateCycle(links, 2, 4)).toBe(true);
    expect(wouldCreateCycle(links, 2, 2)).toBe(true);
    expect(wouldCreateCycle(links, 4, 3)).toBe(false);
    expect(wouldCreateCycle(links, 2, 0)).toBe(false);
    expect(
      wouldCreateCycle(
        [
          { id: 5, parentId: 6 },
          { id: 6, parentId: 5 },
        ],
        1,
        5,
      ),
    ).toBe(true);
  });

  it('keeps granted rows with their ancestors', () => {
    expect(withAncestors(links, new Set([4])).map((r) => r.id)).toEqual([1, 2, 4]);
  });
});

describe('permission codes', () => {
  it('normalises case and spacing, drops duplicates and empty parts', () => {
    expect(normalizePermissionCode(' get : /API/v1/Sys/User/{ID} ')).toBe('GET:/api/v1/sys/user/{id}');
    expect(normalizePermissionText('get:/a;;GET:/A ; post:/b')).toBe('GET:/a;POST:/b');
    expect(normalizePermissionText(' ; ')).toBeNull();
    expect(normalizePermissionText(null)).toBeNull();
  });

  it('refuses a part that is not a code with 48000 naming the field', () => {
    for (const bad of ['GET /a', ':/a', 'GET:a', 'GET:/a b', 'G3T:/a']) {
      try {
        normalizePermissionText(bad);
        expect.unreachable(bad);
      } catch (error) {
        expect(isBusinessError(error) && error.code).toBe(48000);
        expect(isBusinessError(error) && error.args?.errors).toEqual([
          { path: 'permission', message: expect.any(String) },
        ]);
      }
    }
  });
});

describe('recycle-bin registry', () => {
  const type = (name: string): RecycleBinType => ({
    type: name,
    title: name,
    page: async () => ({ current: 1, size: 20, total: 0, pages: 0, items: [] }),
    restore: async () => {},
    purge: async () => {},
  });

  it('finds types case-insensitively, refuses duplicates and bad names, answers 42022 for unknown ones', () => {
    const registry = createRecycleBinRegistry();
    registry.register(type('Order'));
    expect(registry.get('ORDER').title).toBe('Order');
    expect(() => registry.register(type('order'))).toThrow(/already/);
    expect(() => registry.register(type('a/b'))).toThrow(/path segment/);
    try {
      registry.get('invoice');
      expect.unreachable();
    } catch (error) {
      expect(isBusinessError(error) && error.code).toBe(42022);
    }
  });
});

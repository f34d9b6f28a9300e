import { describe, expect, it } from 'vitest';
import { defaultSeedMenus, flattenSeedMenus, seedPermissionCodes } from './menus.js';

describe('default seed menus', () => {
  const flat = flattenSeedMenus(defaultSeedMenus);
  const byId = new Map(flat.map((m) => [m.id, m]));

  it('has unique ids', () => {
    expect(byId.size).toBe(flat.length);
  });

  it('groups ids by hundreds per area: catalogs below 100, every node in the hundred of its menu', () => {
    for (const node of flat) {
      if (node.type === 'catalog') {
        expect(node.id).toBeLessThan(100);
        expect(node.parentId).toBe(0);
        continue;
      }
      expect(node.id).toBeGreaterThanOrEqual(100);
      const parent = byId.get(node.parentId);
      expect(parent, `parent of ${node.id}`).toBeDefined();
      if (node.type === 'button') {
        expect(parent?.type).toBe('menu');
        expect(Math.floor(node.id / 100)).toBe(Math.floor(node.parentId / 100));
      } else {
        expect(parent?.type).toBe('catalog');
      }
    }
  });

  it('gives every button at least one well-formed permission code', () => {
    for (const node of flat.filter((m) => m.type === 'button')) {
      expect(node.permission, `button ${node.id}`).toBeTruthy();
      for (const code of node.permission?.split(';') ?? []) {
        expect(code).toMatch(/^(GET|POST|PUT|PATCH|DELETE):\/api\/v1\/[a-z0-9/{}._-]+$/);
      }
    }
  });

  it('covers the administration routes of contract §5', () => {
    const codes = new Set(seedPermissionCodes(defaultSeedMenus));
    for (const code of [
      'GET:/api/v1/sys/user/page',
      'DELETE:/api/v1/sys/user/{id}',
      'PUT:/api/v1/sys/role/{id}/datascope',
      'GET:/api/v1/menu/routes',
      'DELETE:/api/v1/sys/session/{sessionid}',
      'PUT:/api/v1/sys/config/batch',
      'GET:/api/v1/sys/log/exception/page',
      'DELETE:/api/v1/sys/log/exception',
      'POST:/api/v1/sys/cache/rebuild-portal',
      'POST:/api/v1/sys/file/upload',
      'POST:/api/v1/sys/mfa/clear',
      'DELETE:/api/v1/sys/recycle/{type}/{id}',
    ]) {
      expect(codes).toContain(code);
    }
  });
});

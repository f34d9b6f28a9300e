import { describe, expect, it } from 'vitest';
import { findSortColumn, normalizePaging } from './paging.js';
import { sysFile, sysJob, sysUser } from './sqlite/schema.js';

describe('normalizePaging (contract §3)', () => {
  it('defaults current to 1 and size to 20 for missing, zero, negative or non-numeric values', () => {
    for (const query of [
      {},
      { current: 0, size: 0 },
      { current: -3, size: -1 },
      { current: 'x', size: 'NaN' },
    ]) {
      expect(normalizePaging(query)).toMatchObject({ current: 1, size: 20, offset: 0 });
    }
  });

  it('accepts numeric strings, floors fractions and computes the offset', () => {
    expect(normalizePaging({ current: '3', size: '15' })).toMatchObject({ current: 3, size: 15, offset: 30 });
    expect(normalizePaging({ current: 2.7, size: 10.2 })).toMatchObject({ current: 2, size: 10, offset: 10 });
  });

  it('reads sortOrder case-insensitively, ascending unless desc', () => {
    expect(normalizePaging({ sortOrder: 'DESC' }).sortOrder).toBe('desc');
    expect(normalizePaging({ sortOrder: 'descend' }).sortOrder).toBe('desc');
    expect(normalizePaging({ sortOrder: 'asc' }).sortOrder).toBe('asc');
    expect(normalizePaging({ sortOrder: 'random()' }).sortOrder).toBe('asc');
  });
});

describe('findSortColumn', () => {
  it('matches property or SQL names case-insensitively and nothing else', () => {
    expect(findSortColumn(sysUser, 'createTime')).toBe(sysUser.createTime);
    expect(findSortColumn(sysUser, 'CREATE_TIME')).toBe(sysUser.createTime);
    expect(findSortColumn(sysUser, 'account')).toBe(sysUser.account);
    expect(findSortColumn(sysUser, 'account desc, password')).toBeUndefined();
    expect(findSortColumn(sysUser, '')).toBeUndefined();
    expect(findSortColumn(sysUser, undefined)).toBeUndefined();
  });

  it('never names a column holding a secret, in any spelling', () => {
    for (const field of ['password', 'PASSWORD', 'totpSecret', 'totp_secret'])
      expect(findSortColumn(sysUser, field)).toBeUndefined();
    expect(findSortColumn(sysJob, 'propsJson')).toBeUndefined();
    expect(findSortColumn(sysJob, 'props_json')).toBeUndefined();
    expect(findSortColumn(sysFile, 'storageKey')).toBeUndefined();
    expect(findSortColumn(sysJob, 'name')).toBe(sysJob.name);
  });
});

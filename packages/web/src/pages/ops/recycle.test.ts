/** Recycle bin actions: restore and purge are shown only with the bin's code and every code of the type. */
import { describe, expect, it } from 'vitest';
import { PURGE_CODE, RESTORE_CODE, recycleActions } from './recycle.js';

/** A `can` over a set of codes, case-insensitive as the user store's. */
const holding =
  (...codes: string[]) =>
  (code: string) =>
    codes.map((c) => c.toUpperCase()).includes(code.toUpperCase());

const USER_DELETE = 'DELETE:/api/v1/sys/user/{id}';

describe('recycle bin actions', () => {
  it('hides both from a user who holds the bin codes but not the type delete code', () => {
    expect(recycleActions(holding(RESTORE_CODE, PURGE_CODE), [USER_DELETE])).toEqual({
      restore: false,
      purge: false,
    });
  });

  it('shows both with the bin codes and the type delete code (any case)', () => {
    const can = holding(RESTORE_CODE, PURGE_CODE, USER_DELETE.toLowerCase());
    expect(recycleActions(can, [USER_DELETE])).toEqual({ restore: true, purge: true });
  });

  it('asks each action its own bin code', () => {
    expect(recycleActions(holding(RESTORE_CODE, USER_DELETE), [USER_DELETE])).toEqual({
      restore: true,
      purge: false,
    });
    expect(recycleActions(holding(PURGE_CODE, USER_DELETE), [USER_DELETE])).toEqual({
      restore: false,
      purge: true,
    });
    expect(recycleActions(holding(USER_DELETE), [USER_DELETE])).toEqual({ restore: false, purge: false });
  });

  it('asks every code of the type', () => {
    const codes = [USER_DELETE, 'DELETE:/api/v1/sys/role/{id}'];
    expect(recycleActions(holding(RESTORE_CODE, PURGE_CODE, USER_DELETE), codes)).toEqual({
      restore: false,
      purge: false,
    });
    expect(recycleActions(holding(RESTORE_CODE, PURGE_CODE, ...codes), codes)).toEqual({
      restore: true,
      purge: true,
    });
  });

  it('asks only the bin codes of a type without codes', () => {
    expect(recycleActions(holding(RESTORE_CODE, PURGE_CODE), [])).toEqual({ restore: true, purge: true });
    expect(recycleActions(holding(RESTORE_CODE), [])).toEqual({ restore: true, purge: false });
    expect(recycleActions(holding(), [])).toEqual({ restore: false, purge: false });
  });
});

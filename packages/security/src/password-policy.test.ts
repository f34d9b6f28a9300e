import { BusinessError } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { AdminErrorCode } from './admin/codes.js';
import { assertPassword, checkPassword, isPasswordExpired, type PasswordPolicy } from './password-policy.js';

const DEFAULTS: PasswordPolicy = {
  minLength: 8,
  requireUpper: true,
  requireLower: true,
  requireDigit: true,
  requireSpecial: false,
  expireDays: 0,
  forceChangeOnFirstLogin: false,
  historyCount: 0,
};
const ALL = { ...DEFAULTS, requireSpecial: true };

describe('checkPassword', () => {
  it('passes a password meeting every requirement', () => {
    expect(checkPassword('Abcdefg1', DEFAULTS)).toEqual([]);
    expect(checkPassword('Abcdef1!', ALL)).toEqual([]);
  });

  it('names each unmet requirement', () => {
    expect(checkPassword('abc', ALL)).toEqual([
      'minLength',
      'requireUpper',
      'requireDigit',
      'requireSpecial',
    ]);
    expect(checkPassword('ABCDEFG1', DEFAULTS)).toEqual(['requireLower']);
    expect(checkPassword('abcdefg1', DEFAULTS)).toEqual(['requireUpper']);
    expect(checkPassword('Abcdefgh', DEFAULTS)).toEqual(['requireDigit']);
  });

  it('skips requirements the policy switches off', () => {
    const lax = { ...DEFAULTS, requireUpper: false, requireLower: false, requireDigit: false, minLength: 3 };
    expect(checkPassword('abc', lax)).toEqual([]);
  });

  it('counts length in code points, not UTF-16 units', () => {
    const policy = {
      ...DEFAULTS,
      minLength: 4,
      requireUpper: false,
      requireLower: false,
      requireDigit: false,
    };
    // Three emoji are six UTF-16 units but three characters.
    expect(checkPassword('😀😀😀', policy)).toEqual(['minLength']);
    expect(checkPassword('😀😀😀😀', policy)).toEqual([]);
    // 'e' + combining acute is one character after NFC.
    expect(checkPassword('abce\u0301', policy)).toEqual([]);
    expect(checkPassword('abe\u0301', policy)).toEqual(['minLength']);
  });

  it('recognises non-ASCII letters and digits, and what counts as special', () => {
    expect(checkPassword('Éléphant٣', DEFAULTS)).toEqual([]);
    expect(checkPassword('Abcdefg1 ', ALL)).toEqual([]);
    expect(checkPassword('Abcdefg1é', ALL)).toEqual(['requireSpecial']);
  });

  it('never accepts an empty password', () => {
    const none = { ...DEFAULTS, minLength: 0, requireUpper: false, requireLower: false, requireDigit: false };
    expect(checkPassword('', none)).toEqual(['minLength']);
  });
});

describe('assertPassword', () => {
  it('throws PasswordTooWeak with the requirements and the unmet names', () => {
    let caught: unknown;
    try {
      assertPassword('short', ALL);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BusinessError);
    const error = caught as BusinessError;
    expect(error.code).toBe(AdminErrorCode.PasswordTooWeak.code);
    expect(error.args).toEqual({
      minLength: 8,
      requireUpper: true,
      requireLower: true,
      requireDigit: true,
      requireSpecial: true,
      unmet: ['minLength', 'requireUpper', 'requireDigit', 'requireSpecial'],
    });
  });

  it('returns quietly for a good password', () => {
    expect(() => assertPassword('Good1Password', DEFAULTS)).not.toThrow();
  });
});

describe('isPasswordExpired', () => {
  const changed = new Date(Date.UTC(2030, 0, 1));
  const day = 86_400_000;

  it('expires exactly expireDays after the last change', () => {
    expect(isPasswordExpired(changed, 30, changed.getTime() + 30 * day - 1)).toBe(false);
    expect(isPasswordExpired(changed, 30, new Date(changed.getTime() + 30 * day))).toBe(true);
  });

  it('never expires with expireDays 0 or a null anchor', () => {
    expect(isPasswordExpired(changed, 0, changed.getTime() + 10_000 * day)).toBe(false);
    expect(isPasswordExpired(null, 30, changed.getTime() + 10_000 * day)).toBe(false);
  });
});

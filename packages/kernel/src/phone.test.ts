import { describe, expect, it } from 'vitest';
import { isPhoneNumber } from './phone.js';

describe('isPhoneNumber', () => {
  it('takes 5-20 characters of digits, a leading + and inner spaces or dashes, nothing else', () => {
    for (const ok of ['12345', '+4930123456', '+49 30-1234567', '138-0013-8000', '1'.repeat(20)])
      expect(isPhoneNumber(ok), ok).toBe(true);
    for (const bad of [
      'not-a-phone',
      '1234',
      '1'.repeat(21),
      '+',
      '12 34-',
      ' 12345',
      '-12345',
      '12+345',
      '１２３４５',
      '12345\n',
    ])
      expect(isPhoneNumber(bad), bad).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeAccountName } from './account-name.js';

const refusal = (raw: string) => {
  try {
    normalizeAccountName(raw);
    return undefined;
  } catch (error) {
    return (error as { args?: { errors?: { path: string; message: string }[] } }).args?.errors?.[0];
  }
};

describe('account names', () => {
  it('refuses names that mix the letters of several scripts, as a look-alike of another account', () => {
    for (const raw of [
      'superAdm\u0456n', // Cyrillic і
      '\u0430dmin', // Cyrillic а
      'p\u03b1ypal', // Greek α
      'ad\u05d0min', // Hebrew alef
      'm\u0131x\u0441', // Latin dotless ı with Cyrillic с
    ]) {
      expect(refusal(raw), raw).toMatchObject({
        path: 'account',
        message: expect.stringContaining('scripts'),
      });
    }
  });

  it('accepts one script, and Latin with the scripts written together in Chinese, Japanese or Korean', () => {
    for (const raw of [
      'alice',
      'Ålesund-2',
      'иван.петров',
      'γιάννης',
      '张伟',
      'zhang张伟',
      '山田たろうタロウ',
      'kim김민수',
      '王ㄅㄆ',
      'user_01',
      'スーパー',
      'tanaka_スーパー',
      'Kaʻiulani',
      'Ivanʼko',
    ]) {
      expect(refusal(raw), raw).toBeUndefined();
    }
    // Combining marks and digits belong to no script: they never make a name mixed.
    expect(normalizeAccountName('e\u0301lodie7')).toBe('élodie7');
  });

  it('still refuses Japanese kana mixed with Hangul, or Cyrillic with Han', () => {
    expect(refusal('たろう김')).toBeDefined();
    expect(refusal('иван张')).toBeDefined();
  });
});

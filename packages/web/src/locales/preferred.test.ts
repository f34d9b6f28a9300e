import { describe, expect, it } from 'vitest';
import { preferredLocale } from './preferred.js';

const available = ['zh-CN', 'en-US'];

describe('preferredLocale', () => {
  it('takes the first browser language the console has, by exact tag or by language', () => {
    expect(preferredLocale(available, ['en-US', 'zh-CN'], 'zh-CN')).toBe('en-US');
    expect(preferredLocale(available, ['en-GB'], 'zh-CN')).toBe('en-US');
    expect(preferredLocale(available, ['zh-TW', 'en-US'], 'en-US')).toBe('zh-CN');
    expect(preferredLocale(available, ['ZH-cn'], 'en-US')).toBe('zh-CN');
    expect(preferredLocale(available, ['fr-FR', 'en'], 'zh-CN')).toBe('en-US');
  });

  it("falls back to the app's default when the browser asks for nothing the console has", () => {
    expect(preferredLocale(available, ['fr-FR', 'de'], 'zh-CN')).toBe('zh-CN');
    expect(preferredLocale(available, [], 'en-US')).toBe('en-US');
    expect(preferredLocale(available, undefined, 'zh-CN')).toBe('zh-CN');
  });
});

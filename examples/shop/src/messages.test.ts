/** Every shop error code has a message in both console languages, and the languages have the same keys. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ShopErrorCode } from './errors.js';
import { shopMessages } from './messages.js';

describe('shop messages', () => {
  it('give each error code a text in en-US and zh-CN, and no text without a code', () => {
    const keys = Object.values(ShopErrorCode)
      .map((member) => member.msgKey)
      .sort();
    expect(keys).toHaveLength(4);
    expect(Object.keys(shopMessages['en-US']).sort()).toEqual(keys);
    expect(Object.keys(shopMessages['zh-CN']).sort()).toEqual(keys);
  });

  it('use the same placeholders in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(shopMessages['en-US']))
      expect(placeholders(shopMessages['zh-CN'][key as keyof (typeof shopMessages)['zh-CN']])).toEqual(
        placeholders(text),
      );
  });

  it('import nothing, so a browser bundle takes them without the server (subpath ./messages)', () => {
    expect(readFileSync(new URL('./messages.ts', import.meta.url), 'utf8')).not.toMatch(/^\s*import\b/m);
  });
});

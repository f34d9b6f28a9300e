/**
 * Every word the shop seeds (menus, buttons, its recycle-bin type) reads in Chinese in the console: through the
 * shop console module's labels or the kernel's built-in ones.
 */
import { builtInLabels } from '@svc/web/module';
import { describe, expect, it } from 'vitest';
import { shopMenus } from '../src/menus.js';
import { shopLabels } from './messages.js';

const titles = (menus: typeof shopMenus): string[] =>
  menus.flatMap((m) => [m.title, ...titles(m.children ?? [])]);

describe('shop labels', () => {
  it('translate each seeded word, with no English left', () => {
    const words = [...new Set([...titles(shopMenus), 'Shop products'])];
    const zh: Record<string, string> = { ...builtInLabels['zh-CN'], ...shopLabels['zh-CN'] };
    expect(words.filter((w) => !zh[w] || /[A-Za-z]/.test(zh[w]))).toEqual([]);
  });
});

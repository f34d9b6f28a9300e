/**
 * The seeded words (read here from the server's seed and the built-in modules at test time; the console itself
 * imports no server code) have their translation in the built-in label table, and the table holds nothing else.
 */
import {
  defaultSeedMenus,
  flattenSeedMenus,
  ROOT_ORG,
  SEED_ADMIN_REAL_NAME,
  SEED_DICTIONARIES,
  SEED_MODULES,
  SEED_ROLES,
} from '@svc/data';
import { BUILT_IN_MODULES } from '@svc/http';
import { describe, expect, it } from 'vitest';
import { labelIn, mergeLabels } from '../labels.js';
import { builtInLabels } from './labels.js';

/** Titles of the recycle-bin types the built-in modules register (built from their services at start-up). */
const RECYCLE_TITLES = ['Dictionary types', 'Dictionary items', 'Portal modules'];

function seededWords(): string[] {
  const words = new Set<string>();
  const menus = [...defaultSeedMenus, ...BUILT_IN_MODULES.flatMap((m) => m.seedMenus ?? [])];
  for (const menu of flattenSeedMenus(menus)) words.add(menu.title);
  for (const type of SEED_DICTIONARIES) {
    words.add(type.name);
    for (const [, label] of type.items) words.add(label);
  }
  for (const module of SEED_MODULES) words.add(module.title);
  for (const role of SEED_ROLES) {
    words.add(role.name);
    words.add(role.remark);
  }
  words.add(ROOT_ORG.name);
  words.add(SEED_ADMIN_REAL_NAME);
  return [...words];
}

describe('built-in labels', () => {
  const zh = builtInLabels['zh-CN'] ?? {};

  it('translate every seeded word into Chinese, with no English word left in it', () => {
    const words = [...seededWords(), ...RECYCLE_TITLES];
    expect(words.length).toBeGreaterThan(80);
    const missing = words.filter((w) => !zh[w]);
    expect(missing).toEqual([]);
    // A translation is Chinese: it has Han characters and no Latin word (a code or acronym included).
    const english = Object.entries(zh).filter(([, v]) => !/\p{Script=Han}/u.test(v) || /[A-Za-z]/.test(v));
    expect(english).toEqual([]);
  });

  it('hold only words the service seeds or registers', () => {
    const known = new Set([...seededWords(), ...RECYCLE_TITLES]);
    expect(Object.keys(zh).filter((w) => !known.has(w))).toEqual([]);
  });
});

describe('labelIn', () => {
  const labels = mergeLabels(builtInLabels, { 'zh-CN': { Products: '商品', Users: '成员' } });

  it("shows a stored word in the console's language and anything else as stored", () => {
    expect(labelIn(labels, 'zh-CN', 'Recycle bin')).toBe('回收站');
    expect(labelIn(labels, 'en-US', 'Recycle bin')).toBe('Recycle bin');
    // An operator's own title (or one they changed) is data: never translated.
    expect(labelIn(labels, 'zh-CN', 'Recycle bin (old)')).toBe('Recycle bin (old)');
    expect(labelIn(labels, 'zh-CN', '我的菜单')).toBe('我的菜单');
    expect(labelIn(labels, 'fr-FR', 'Users')).toBe('Users');
    expect(labelIn(labels, 'zh-CN', null)).toBe('');
  });

  it('lets a later table add words and replace a built-in one', () => {
    expect(labelIn(labels, 'zh-CN', 'Products')).toBe('商品');
    expect(labelIn(labels, 'zh-CN', 'Users')).toBe('成员');
    expect(labelIn(builtInLabels, 'zh-CN', 'Users')).toBe('用户管理');
  });
});

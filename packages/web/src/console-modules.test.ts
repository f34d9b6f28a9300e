/** A module's console part: its pages and messages over the built-in ones, the app's own over those, conflicts named. */
import { describe, expect, it } from 'vitest';
import { composeConsole, defineConsoleModule } from './console-modules.js';

const page = (name: string) => ({ name });
const base = {
  pages: { home: page('home'), 'system/user/index': page('users') },
  messages: { 'en-US': { 'common.save': 'Save' } },
};

describe('composeConsole', () => {
  it("adds a module's pages and messages; the app's own replace them", () => {
    const shop = defineConsoleModule({
      name: 'Shop',
      pages: { 'shop/product/index': page('products'), home: page('shop home') },
      messages: { 'en-US': { 'shop.product.name': 'Name' }, 'zh-CN': { 'shop.product.name': '名称' } },
    });
    const { pages, messages } = composeConsole(base, [shop], {
      pages: { home: page('app home') },
      messages: { 'en-US': { 'common.save': 'Keep' } },
    });
    expect(pages).toEqual({
      home: page('app home'),
      'system/user/index': page('users'),
      'shop/product/index': page('products'),
    });
    expect(messages).toEqual({
      'en-US': { 'common.save': 'Keep', 'shop.product.name': 'Name' },
      'zh-CN': { 'shop.product.name': '名称' },
    });
    expect(base.messages['en-US']['common.save']).toBe('Save');
  });

  it("adds a module's labels over the built-in ones and the app's over both", () => {
    const shop = defineConsoleModule({
      name: 'Shop',
      labels: { 'zh-CN': { Products: '商品', Users: '顾客' } },
    });
    const { labels } = composeConsole(
      { ...base, labels: { 'zh-CN': { Users: '用户', Roles: '角色' } } },
      [shop],
      {
        labels: { 'zh-CN': { Roles: '岗位角色' }, 'en-US': { 商品: 'Goods' } },
      },
    );
    expect(labels).toEqual({
      'zh-CN': { Users: '顾客', Roles: '岗位角色', Products: '商品' },
      'en-US': { 商品: 'Goods' },
    });
  });

  it('refuses two modules claiming one page, naming both, and two modules of one name', () => {
    const a = defineConsoleModule({ name: 'Shop', pages: { 'shop/product/index': page('a') } });
    const b = defineConsoleModule({ name: 'Stock', pages: { 'shop/product/index': page('b') } });
    expect(() => composeConsole(base, [a, b])).toThrow(
      'Console modules Shop and Stock both register the page "shop/product/index".',
    );
    expect(() => composeConsole(base, [a, { name: 'Shop' }])).toThrow('Two console modules are named Shop.');
  });
});

/**
 * Texts of the shop's msgKeys (its error codes) in the console's two languages, for the shop's console part to
 * merge into its messages: `@svc-examples/shop/messages` imports nothing, so a browser bundle can take it without
 * the server. `messages.test.ts` holds them complete: every code of `ShopErrorCode` has a text in each language,
 * and both languages have the same placeholders.
 */
export const shopMessages = {
  'en-US': {
    'error.shop.categoryNotFound': 'The category does not exist or has been deleted.',
    'error.shop.productNotFound': 'The product does not exist or has been deleted.',
    'error.shop.categoryInUse': 'The category still holds {products} product(s); move or delete them first.',
    'error.shop.stockAboveMaximum': 'The stock may be at most {max}.',
  },
  'zh-CN': {
    'error.shop.categoryNotFound': '分类不存在或已删除。',
    'error.shop.productNotFound': '商品不存在或已删除。',
    'error.shop.categoryInUse': '该分类下仍有 {products} 个商品，请先移走或删除它们。',
    'error.shop.stockAboveMaximum': '库存最多为 {max}。',
  },
} as const satisfies Record<'en-US' | 'zh-CN', Record<string, string>>;

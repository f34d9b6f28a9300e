/** The product page's messages per console locale (flat keys, merged into the console's catalog). */
export const shopMessages = {
  'en-US': {
    'shop.product.name': 'Name',
    'shop.product.code': 'Code',
    'shop.product.price': 'Price',
    'shop.product.stock': 'Stock',
    'shop.product.remark': 'Remark',
    'shop.product.create': 'New product',
    'shop.product.edit': 'Edit product',
  },
  'zh-CN': {
    'shop.product.name': '名称',
    'shop.product.code': '编码',
    'shop.product.price': '价格',
    'shop.product.stock': '库存',
    'shop.product.remark': '备注',
    'shop.product.create': '新增商品',
    'shop.product.edit': '编辑商品',
  },
} satisfies Record<string, Record<string, string>>;

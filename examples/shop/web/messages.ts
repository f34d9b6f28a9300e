/** The product page's messages per console locale (flat keys, merged into the console's catalog). */
export const shopMessages = {
  'en-US': {
    'shop.product.name': 'Name',
    'shop.product.code': 'Code',
    'shop.product.category': 'Category',
    'shop.product.price': 'Price (cents)',
    'shop.product.stock': 'Stock',
    'shop.product.remark': 'Remark',
    'shop.product.create': 'New product',
    'shop.product.edit': 'Edit product',
    'shop.product.categoryRequired': 'Choose a category.',
    'shop.product.orgRequired': 'Your account belongs to no organisation: a product needs one.',
  },
  'zh-CN': {
    'shop.product.name': '名称',
    'shop.product.code': '编码',
    'shop.product.category': '分类',
    'shop.product.price': '价格（分）',
    'shop.product.stock': '库存',
    'shop.product.remark': '备注',
    'shop.product.create': '新增商品',
    'shop.product.edit': '编辑商品',
    'shop.product.categoryRequired': '请选择分类。',
    'shop.product.orgRequired': '当前账号不属于任何机构，无法新增商品。',
  },
} satisfies Record<string, Record<string, string>>;

/**
 * The shop's seeded words (its menus and buttons, its recycle-bin type), stored in English, in the console's other
 * language (see `useLabel` of @svc/web): the words the kernel already seeds ('List', 'Edit'…) come translated.
 */
export const shopLabels = {
  'zh-CN': {
    Shop: '商城',
    Categories: '商品分类',
    Products: '商品管理',
    Remove: '移除',
    'Shop products': '商城商品',
  },
};

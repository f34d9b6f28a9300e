/**
 * The shop's recycle-bin type, written by hand over its own table (`softDeleteRecycleType` of @svc/security takes
 * the kernel's tables only): the soft-deleted products of the caller's data scope, listed under
 * `GET /api/v1/sys/recycle/shop-product/page`, restored and purged through the bin's routes. Restore and purge
 * ask the code of the product delete route besides the bin's own, and one outside the caller's scope is not in
 * their bin (42020), as it is missing from their product page.
 */
import { deleteCodeOf, type RecycleBinType } from '@svc/server/security';
import type { ProductService } from './products.js';

export const PRODUCT_RECYCLE_TYPE = 'shop-product';

export function shopRecycleTypes(products: ProductService): RecycleBinType[] {
  return [
    {
      type: PRODUCT_RECYCLE_TYPE,
      title: 'Shop products',
      codes: [deleteCodeOf('/shop/product/{id}')],
      async page(actor, query) {
        const page = await products.deletedPage(actor, query);
        return {
          ...page,
          items: page.items.map((p) => ({
            id: p.id,
            title: p.name,
            subtitle: p.code,
            deleteTime: p.updateTime,
            deleteUserId: p.updateUserId,
          })),
        };
      },
      restore: (actor, id) => products.restore(actor, id),
      purge: (actor, id) => products.purge(actor, id),
    },
  ];
}

/**
 * The shop's realtime message: `shop-product-changed` tells every connected console that products changed, so an
 * open product list reloads. It carries only what happened, never the product: the list the console then reads
 * is filtered by each reader's data scope, so the message discloses nothing beyond "something changed". Sent
 * while module `Realtime` is on; without it the shop works the same and sends nothing.
 */
export const PRODUCT_CHANGED = 'shop-product-changed';

export interface ProductChange {
  action: 'created' | 'updated' | 'deleted';
}

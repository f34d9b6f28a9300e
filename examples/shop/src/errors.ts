/**
 * The shop's error codes, in its own segment (61xxx): numbers are part of its contract, never renumbered. A code
 * another module claims fails start-up naming both. `messages.ts` carries their texts for the console.
 */
import { defineErrorCodes } from '@svc/server/kernel';

export const ShopErrorCode = defineErrorCodes('ShopErrorCode', {
  CategoryNotFound: { code: 61001, msgKey: 'error.shop.categoryNotFound' },
  ProductNotFound: { code: 61002, msgKey: 'error.shop.productNotFound' },
  /** A category that live products still name is not deleted. */
  CategoryInUse: { code: 61003, msgKey: 'error.shop.categoryInUse' },
  /** The stock is above `Service:Shop:MaxStock`. `args.max`: the ceiling. */
  StockAboveMaximum: { code: 61004, msgKey: 'error.shop.stockAboveMaximum' },
});

/**
 * The Shop module's console part, for the shell's `createConsole({ modules: [shopConsole] })`: each page under its
 * menu's component path, lazy (its own chunk), and the messages the pages use.
 */
import { defineConsoleModule, type PageLoader } from '@svc/web/module';
import { shopLabels, shopMessages } from './messages.js';
import { PRODUCT_PAGE } from './product.js';

export { shopLabels, shopMessages } from './messages.js';
export {
  PRODUCT_CODES,
  PRODUCT_PAGE,
  type Product,
  type ProductForm,
  type ProductPageContext,
  productCategories,
  productCrud,
} from './product.js';

export const shopPages: Record<string, PageLoader> = {
  [PRODUCT_PAGE]: () => import('./ProductPage.vue'),
};

/** The Shop module's pages, messages and labels as one console module. */
export const shopConsole = defineConsoleModule({
  name: 'Shop',
  pages: shopPages,
  messages: shopMessages,
  labels: shopLabels,
});

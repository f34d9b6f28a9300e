/** What the shop's route files receive: its services, built once by the module, and the caller as an actor. */
import type { Logger } from '@svc/server/kernel';
import type { AdminServices } from '@svc/server/security';
import type { CategoryService } from './categories.js';
import type { ProductService } from './products.js';

export interface ShopServices {
  categories: CategoryService;
  products: ProductService;
  /** The caller of a request as the administration sees them (permission codes, data scope): the Admin module's. */
  actorOf: AdminServices['actorOf'];
  /** `Service:Shop:ExportMaxRows`: the most products one export writes (46012 above it). */
  exportMaxRows: number;
  logger: Logger;
}

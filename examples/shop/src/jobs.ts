/**
 * The shop's scheduled-job handler: `shop.disableSoldOut` disables every live product without stock. An
 * administrator schedules it like any compiled handler (a job with `handlerKind` 1 and this `handlerName`); module
 * `Job` registers it while both modules are on, and its run log shows how many products it disabled.
 */
import type { JobHandlerEntry } from '@svc/server/modules';
import type { ShopServices } from './services.js';

export const SOLD_OUT_JOB = 'shop.disableSoldOut';

export const shopJobs = (shop: Pick<ShopServices, 'products'>): JobHandlerEntry[] => [
  {
    name: SOLD_OUT_JOB,
    description: 'Disables the live products without stock.',
    handler: async () => `${await shop.products.disableSoldOut()} product(s) disabled`,
  },
];

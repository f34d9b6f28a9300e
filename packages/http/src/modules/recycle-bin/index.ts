/**
 * Module `RecycleBin`: soft-deleted rows of every registered type, paged, restored and purged. Its registry holds
 * the types the enabled modules declare (`recycleTypes`: users, roles, organisations, positions and menus of
 * `Admin`, dictionaries of `Dict`, …), registered by the composition root once every module is built, and those a
 * consumer registers through its services; a type of a module that is off is not among them.
 */
import { createRecycleBinRegistry } from '@svc/security';
import { defineModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';
import * as page from './routes/page.js';
import * as purge from './routes/purge.js';
import * as restore from './routes/restore.js';
import * as types from './routes/types.js';
import type { RecycleBinServices } from './services.js';

export type { RecycleBinRouteDeps, RecycleBinServices } from './services.js';

export const recycleBinModule = defineModule({
  name: 'RecycleBin',
  dependsOn: [adminModule],
  services: ({ core, use }): RecycleBinServices => ({
    recycleBin: createRecycleBinRegistry(),
    actorOf: use(adminModule).admin.actorOf,
    reauth: core.mfa.reauth,
  }),
  routes: [types, page, restore, purge],
});

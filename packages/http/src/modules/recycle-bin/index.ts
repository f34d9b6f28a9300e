/** Module `RecycleBin` (transitional: its routes are registered by `Admin`, which asks whether this one is on). */
import { defineModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';

export const recycleBinModule = defineModule({ name: 'RecycleBin', dependsOn: [adminModule] });

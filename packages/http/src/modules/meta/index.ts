/** Module `Meta`: the error-code catalogue (`GET /api/v1/meta/error-codes`). */
import { defineModule } from '../../module/define.js';
import * as errorCodes from './routes/error-codes.js';

export const metaModule = defineModule({
  name: 'Meta',
  services: ({ core }) => ({ errors: core.errors }),
  routes: [errorCodes],
});

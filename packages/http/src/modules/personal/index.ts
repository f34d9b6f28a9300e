/** Module `Personal`: the signed-in user's password and phone number; always on. */
import { defineModule } from '../../module/define.js';
import * as password from './routes/password.js';
import * as phoneCode from './routes/phone-code.js';
import * as phoneDelete from './routes/phone-delete.js';
import * as phonePut from './routes/phone-put.js';
import type { PersonalRouteDeps } from './services.js';

export const personalModule = defineModule({
  name: 'Personal',
  switchable: false,
  services: ({ core }): PersonalRouteDeps => ({
    security: core.security,
    phone: core.mfa.phone,
    resolveClientIp: core.security.resolveClientIp,
  }),
  routes: [password, phoneCode, phonePut, phoneDelete],
});

/**
 * Module `Mfa`: second factors and step-up (captcha, SMS and TOTP login steps, binding, recovery codes,
 * re-authentication, the high-sensitivity list, SMS login); always on. Its services are the core's `mfa` (built
 * with the security layer in host/mfa.ts, since the password login and the route guards use the same instance)
 * and the Admin module's target checks for `clear`; module Passkey's service when that is on (`reauth` by passkey,
 * `clear` removing passkeys).
 */
import { defineModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';
import { passkeyModule } from '../passkey/index.js';
import * as bindComplete from './routes/bind-complete.js';
import * as bindStart from './routes/bind-start.js';
import * as captcha from './routes/captcha.js';
import * as clear from './routes/clear.js';
import * as highSensitivityAdd from './routes/high-sensitivity-add.js';
import * as highSensitivityDelete from './routes/high-sensitivity-delete.js';
import * as highSensitivityList from './routes/high-sensitivity-list.js';
import * as loginSms from './routes/login-sms.js';
import * as loginSmsResend from './routes/login-sms-resend.js';
import * as loginTotp from './routes/login-totp.js';
import * as reauth from './routes/reauth.js';
import * as recovery from './routes/recovery.js';
import * as smsLogin from './routes/sms-login.js';
import * as smsSend from './routes/sms-send.js';
import type { MfaRouteDeps } from './services.js';

export const mfaModule = defineModule({
  name: 'Mfa',
  switchable: false,
  dependsOn: [adminModule],
  // Re-authentication by passkey and the passkeys' removal by `clear`, while module Passkey is on.
  optional: [passkeyModule],
  services: ({ core, use, useOptional }): MfaRouteDeps => ({
    mfa: core.mfa,
    security: core.security,
    resolveClientIp: core.security.resolveClientIp,
    now: core.now,
    admin: use(adminModule).admin,
    passkeys: useOptional(passkeyModule)?.passkeys,
  }),
  routes: [
    captcha,
    loginSms,
    loginSmsResend,
    smsSend,
    smsLogin,
    loginTotp,
    bindStart,
    bindComplete,
    recovery,
    reauth,
    clear,
    highSensitivityList,
    highSensitivityAdd,
    highSensitivityDelete,
  ],
});

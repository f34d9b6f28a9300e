/**
 * Second factors and step-up (captcha, SMS, TOTP, recovery, re-authentication, high-sensitivity list): registers
 * the routes of this area. The services behind them are `deps.core.mfa`, the same instance whose hooks the
 * password login calls and whose re-authentication check the route guards ask.
 */
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';
import * as bindComplete from './bind-complete.js';
import * as bindStart from './bind-start.js';
import * as captcha from './captcha.js';
import * as clear from './clear.js';
import * as highSensitivityAdd from './high-sensitivity-add.js';
import * as highSensitivityDelete from './high-sensitivity-delete.js';
import * as highSensitivityList from './high-sensitivity-list.js';
import * as loginSms from './login-sms.js';
import * as loginSmsResend from './login-sms-resend.js';
import * as loginTotp from './login-totp.js';
import * as reauth from './reauth.js';
import * as recovery from './recovery.js';
import * as smsLogin from './sms-login.js';
import * as smsSend from './sms-send.js';

export function registerMfaRoutes(ctx: RegisterContext, deps: HttpDeps): void {
  for (const route of [
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
  ]) {
    route.register(ctx, deps);
  }
}

import { defineCaptchaContract } from './modules/mfa/captcha.contract.js';
import { defineDoorsContract } from './modules/mfa/doors.contract.js';
import { defineReauthContract } from './modules/mfa/reauth.contract.js';
import { defineRecycleReauthContract } from './modules/mfa/recycle-reauth.contract.js';
import { defineSmsContract } from './modules/mfa/sms.contract.js';
import { defineSmsLoginTotpContract } from './modules/mfa/sms-login-totp.contract.js';
import { defineStalePasswordContract } from './modules/mfa/stale-password.contract.js';
import { defineTotpContract } from './modules/mfa/totp.contract.js';

defineCaptchaContract('MySql', 'Memory');
defineSmsContract('MySql', 'Memory');
defineSmsLoginTotpContract('MySql', 'Memory');
defineTotpContract('MySql', 'Memory');
defineStalePasswordContract('MySql', 'Memory');
defineReauthContract('MySql', 'Memory');
defineRecycleReauthContract('MySql', 'Memory');
defineDoorsContract('MySql', 'Memory');

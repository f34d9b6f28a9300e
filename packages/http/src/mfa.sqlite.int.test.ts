import { defineCaptchaContract } from './modules/mfa/captcha.contract.js';
import { defineDoorsContract } from './modules/mfa/doors.contract.js';
import { defineReauthContract } from './modules/mfa/reauth.contract.js';
import { defineRecycleReauthContract } from './modules/mfa/recycle-reauth.contract.js';
import { defineSmsContract } from './modules/mfa/sms.contract.js';
import { defineSmsLoginTotpContract } from './modules/mfa/sms-login-totp.contract.js';
import { defineStalePasswordContract } from './modules/mfa/stale-password.contract.js';
import { defineTotpContract } from './modules/mfa/totp.contract.js';

defineCaptchaContract('Sqlite', 'Memory');
defineSmsContract('Sqlite', 'Memory');
defineSmsLoginTotpContract('Sqlite', 'Memory');
defineTotpContract('Sqlite', 'Memory');
defineStalePasswordContract('Sqlite', 'Memory');
defineReauthContract('Sqlite', 'Memory');
defineRecycleReauthContract('Sqlite', 'Memory');
defineDoorsContract('Sqlite', 'Memory');

import { defineCaptchaContract } from './mfa/captcha.contract.js';
import { defineDoorsContract } from './mfa/doors.contract.js';
import { defineReauthContract } from './mfa/reauth.contract.js';
import { defineRecycleReauthContract } from './mfa/recycle-reauth.contract.js';
import { defineSmsContract } from './mfa/sms.contract.js';
import { defineSmsLoginTotpContract } from './mfa/sms-login-totp.contract.js';
import { defineStalePasswordContract } from './mfa/stale-password.contract.js';
import { defineTotpContract } from './mfa/totp.contract.js';

defineCaptchaContract('MySql', 'Memory');
defineSmsContract('MySql', 'Memory');
defineSmsLoginTotpContract('MySql', 'Memory');
defineTotpContract('MySql', 'Memory');
defineStalePasswordContract('MySql', 'Memory');
defineReauthContract('MySql', 'Memory');
defineRecycleReauthContract('MySql', 'Memory');
defineDoorsContract('MySql', 'Memory');

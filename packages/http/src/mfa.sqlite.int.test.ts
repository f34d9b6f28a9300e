import { defineCaptchaContract } from './mfa/captcha.contract.js';
import { defineDoorsContract } from './mfa/doors.contract.js';
import { defineReauthContract } from './mfa/reauth.contract.js';
import { defineRecycleReauthContract } from './mfa/recycle-reauth.contract.js';
import { defineSmsContract } from './mfa/sms.contract.js';
import { defineSmsLoginTotpContract } from './mfa/sms-login-totp.contract.js';
import { defineStalePasswordContract } from './mfa/stale-password.contract.js';
import { defineTotpContract } from './mfa/totp.contract.js';

defineCaptchaContract('Sqlite', 'Memory');
defineSmsContract('Sqlite', 'Memory');
defineSmsLoginTotpContract('Sqlite', 'Memory');
defineTotpContract('Sqlite', 'Memory');
defineStalePasswordContract('Sqlite', 'Memory');
defineReauthContract('Sqlite', 'Memory');
defineRecycleReauthContract('Sqlite', 'Memory');
defineDoorsContract('Sqlite', 'Memory');

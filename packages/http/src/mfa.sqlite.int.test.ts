import { defineCaptchaContract } from './mfa/captcha.contract.js';
import { defineSmsContract } from './mfa/sms.contract.js';

defineCaptchaContract('Sqlite', 'Memory');
defineSmsContract('Sqlite', 'Memory');

import { defineCaptchaContract } from './mfa/captcha.contract.js';

defineCaptchaContract('Sqlite', 'Memory');

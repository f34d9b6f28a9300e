/**
 * Second factors and step-up: image captcha, SMS codes (second factor and passwordless login), TOTP with
 * recovery codes, the secret protector, re-authentication and the high-sensitivity list.
 */
export type { BindStart, TotpBinding } from './binding.js';
export { type CaptchaService, createCaptchaService, type IssuedCaptcha } from './captcha/service.js';
export { CAPTCHA_HEIGHT, CAPTCHA_WIDTH, renderCaptchaSvg } from './captcha/svg.js';
export { type ClockStore, createClockStore, type Expiring } from './clock-store.js';
export { type CaptchaFields, type MfaDeps, seedContext } from './common.js';
export * from './constants.js';
export {
  createHighSensitivityService,
  type HighSensitivityItem,
  type HighSensitivityService,
  isDefaultHighSensitivity,
} from './high-sensitivity.js';
export type { LoginSteps } from './login-steps.js';
export * from './master-key.js';
export type { PhoneChangeService } from './phone.js';
export * from './protector.js';
export { createReauthService, type ReauthInput, type ReauthService } from './reauth.js';
export {
  createRecoveryCodeHasher,
  generateRecoveryCodes,
  legacyRecoveryCodeHash,
  type RecoveryCodeHasher,
} from './recovery-codes.js';
export { createMfaServices, type MfaServices } from './service.js';
export * from './settings.js';
export {
  createSmsCodeService,
  maskPhone,
  type SmsChallengeArgs,
  type SmsCodeService,
  type SmsSendResult,
  type SmsStep,
} from './sms.js';
export * from './sms-sender.js';
export { createTotpEngine, type TotpEngine } from './totp.js';

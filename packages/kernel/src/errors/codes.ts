/**
 * The kernel catalog (contract §6): success, sign-in and second factors (40xxx), permissions (41xxx), parameters
 * (48xxx) and the system (50xxx). Each module declares its own codes beside its logic (administration 42xxx in
 * @svc/security, config and dictionaries 43xxx in @svc/data, files, notices, Excel and jobs 44xxx–47xxx and the
 * external login's 40029–40034 in @svc/modules) and registers them while it is on. Numbers are part of the public
 * contract: never renumber a member. msgKeys are `error.<area>.<camelName>`.
 */
import { defineErrorCodes, type ErrorCodeSpec } from './define.js';

const k = (area: string, name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.${area}.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

const auth = (name: string, code: number) => k('auth', name, code);
const perm = (name: string, code: number) => k('permission', name, code);

/** Kernel error codes. `Success` is code 0 with msgKey `common.success`. */
export const ErrorCode = defineErrorCodes('ErrorCode', {
  Success: { code: 0, msgKey: 'common.success' },
  PasswordWrong: auth('PasswordWrong', 40001),
  CaptchaExpired: auth('CaptchaExpired', 40002),
  CaptchaWrong: auth('CaptchaWrong', 40003),
  AccountLocked: auth('AccountLocked', 40004),
  AccountDisabled: auth('AccountDisabled', 40005),
  TokenInvalid: auth('TokenInvalid', 40006),
  RefreshTokenInvalid: auth('RefreshTokenInvalid', 40007),
  TooManyRequests: auth('TooManyRequests', 40008),
  SmsCodeRequired: auth('SmsCodeRequired', 40009),
  SmsCodeWrong: auth('SmsCodeWrong', 40010),
  SmsCodeExpired: auth('SmsCodeExpired', 40011),
  SmsLoginDisabled: auth('SmsLoginDisabled', 40012),
  TotpRequired: auth('TotpRequired', 40018),
  TotpWrong: auth('TotpWrong', 40019),
  TotpNotBound: auth('TotpNotBound', 40020),
  MfaBindInvalid: auth('MfaBindInvalid', 40021),
  RecoveryCodeInvalid: auth('RecoveryCodeInvalid', 40022),
  CsrfInvalid: auth('CsrfInvalid', 40023),
  ReauthRequired: auth('ReauthRequired', 40024),
  TotpDisabled: auth('TotpDisabled', 40025),
  ApiKeyInvalid: auth('ApiKeyInvalid', 40027),
  MfaChallengeExpired: auth('MfaChallengeExpired', 40028),
  NoPermission: perm('NoPermission', 41001),
  DemoModeReadOnly: perm('DemoModeReadOnly', 41002),
  OutOfDataScope: perm('OutOfDataScope', 41005),
  ParamInvalid: k('param', 'ParamInvalid', 48000),
  PageSizeExceeded: k('param', 'PageSizeExceeded', 48001),
  PayloadTooLarge: k('param', 'PayloadTooLarge', 48002),
  NotFound: k('param', 'NotFound', 48003),
  SystemError: k('system', 'SystemError', 50000),
  ServiceUnavailable: k('system', 'ServiceUnavailable', 50001),
  /** The database cannot be reached or did not answer in time (contract §10): HTTP 503 with `Retry-After`. */
  DatabaseUnavailable: k('system', 'DatabaseUnavailable', 50003),
  /** A challenge held only in the shared cache (captcha, SMS code, TOTP step) while Redis is down: HTTP 503. */
  CacheUnavailable: k('system', 'CacheUnavailable', 50004),
});

export type KernelErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

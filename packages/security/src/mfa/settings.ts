/**
 * The switches and parameters of the second factors in effect right now. Switches are runtime keys read at
 * every use (a changed config row applies to the next request); parameters are deploy-time options. The TOTP
 * capability is on when the deploy-time floor `Service:Security:Totp:Enabled` is true or the runtime row says
 * so, and only while a master key exists to seal seeds (outside Development there is no fallback key).
 */
import type { CaptchaType, ServiceOptions } from '@svc/kernel';
import type { RuntimeSettings } from '../runtime-config.js';

/** `Service:Security:SmsOtp` (spec "SMS second factor and SMS login"). */
export interface SmsOtpOptions {
  /** @default 6 */
  codeLength: number;
  /** Validity of a code and of an MFA challenge. @default 300 */
  ttlSeconds: number;
  /** Per-number cooldown shared by MFA and login sends. @default 60 */
  resendSeconds: number;
  /** Wrong attempts before a code is invalidated. @default 5 */
  maxAttempts: number;
  /** Sends per number per UTC day. @default 10 */
  dailySendLimitPerPhone: number;
}

/** `Service:Security:Totp` (spec "TOTP (authenticator)"). */
export interface TotpOptions {
  /** @default 'Service' */
  issuer: string;
  /** @default 300 */
  challengeTtlSeconds: number;
  /** @default 5 */
  reauthWindowMinutes: number;
  /** @default 10 */
  recoveryCodeCount: number;
}

export interface MfaSettings {
  readonly sms: SmsOtpOptions;
  readonly totp: TotpOptions;
  captchaEnabled(): Promise<boolean>;
  captchaType(): Promise<CaptchaType>;
  smsMfaEnabled(): Promise<boolean>;
  smsLoginEnabled(): Promise<boolean>;
  /** The TOTP capability (master switch with its floor); also what turns re-authentication on. */
  totpEnabled(): Promise<boolean>;
  requireTotpForSuperAdmin(): Promise<boolean>;
}

/** Builds the settings from the options, the runtime keys and whether a master key is available. */
export function createMfaSettings(input: {
  options: ServiceOptions;
  runtime: Pick<RuntimeSettings, 'get'>;
  /** False when no master key could be resolved: TOTP stays off whatever the row says. @default true */
  protectorAvailable?: boolean;
}): MfaSettings {
  const { options, runtime } = input;
  const security = options.Security;
  const canSeal = input.protectorAvailable ?? true;
  return {
    sms: {
      codeLength: security.SmsOtp.CodeLength,
      ttlSeconds: security.SmsOtp.TtlSeconds,
      resendSeconds: security.SmsOtp.ResendSeconds,
      maxAttempts: security.SmsOtp.MaxAttempts,
      dailySendLimitPerPhone: security.SmsOtp.DailySendLimitPerPhone,
    },
    totp: {
      issuer: security.Totp.Issuer,
      challengeTtlSeconds: security.Totp.ChallengeTtlSeconds,
      reauthWindowMinutes: security.Totp.ReauthWindowMinutes,
      recoveryCodeCount: security.Totp.RecoveryCodeCount,
    },
    captchaEnabled: () => runtime.get('sys.security.captcha.enabled'),
    captchaType: () => runtime.get('sys.security.captcha.type'),
    smsMfaEnabled: () => runtime.get('sys.security.mfa.enabled'),
    smsLoginEnabled: () => runtime.get('sys.security.smsLogin.enabled'),
    async totpEnabled() {
      if (!canSeal) return false;
      return security.Totp.Enabled || (await runtime.get('sys.security.totp.enabled'));
    },
    async requireTotpForSuperAdmin() {
      return runtime.get('sys.security.totp.requireForSuperAdmin');
    },
  };
}

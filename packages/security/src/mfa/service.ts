/**
 * Assembles the second factors from their parts: captcha, SMS codes, TOTP, binding and recovery,
 * re-authentication and the high-sensitivity list. Framework-free; the HTTP routes call these, the password
 * login calls `steps.hooks`, and the route guards call `reauth.satisfied`.
 */
import { defaultSeedMenus, seedPermissionCodes } from '@svc/data';
import { createTotpBinding, type TotpBinding } from './binding.js';
import { type CaptchaService, createCaptchaService, type IssuedCaptcha } from './captcha/service.js';
import { createClockStore } from './clock-store.js';
import { createSharedChecks, type MfaDeps } from './common.js';
import { createHighSensitivityService, type HighSensitivityService } from './high-sensitivity.js';
import { createLoginSteps, type LoginSteps } from './login-steps.js';
import { createPhoneChangeService, type PhoneChangeService } from './phone.js';
import { createReauthService, type ReauthService } from './reauth.js';
import type { MfaSettings } from './settings.js';
import { createSmsCodeService } from './sms.js';
import { createTotpEngine } from './totp.js';

export interface MfaServices {
  settings: MfaSettings;
  /** `GET /auth/captcha`: a captcha of the type in effect. */
  issueCaptcha(): Promise<IssuedCaptcha>;
  captcha: CaptchaService;
  steps: LoginSteps;
  binding: TotpBinding;
  reauth: ReauthService;
  /** Self-service phone number changes (contract §10). */
  phone: PhoneChangeService;
  highSensitivity: HighSensitivityService;
}

/**
 * Creates the second-factor services.
 * @example
 * const mfa = createMfaServices({ repositories, cache, settings, auth: () => auth, sessions, passwords,
 *   protector, sender: createLogSmsSender(logger), knownPermissionCodes, now, logger });
 */
export function createMfaServices(deps: MfaDeps): MfaServices {
  const store = createClockStore(deps.cache, deps.now);
  const captcha = createCaptchaService({ store });
  const checks = createSharedChecks(deps, captcha);
  const totp = createTotpEngine({ cache: deps.cache });
  const sms = createSmsCodeService({
    cache: deps.cache,
    store,
    phones: deps.repositories.phones,
    sender: deps.sender,
    options: deps.settings.sms,
  });
  return {
    settings: deps.settings,
    captcha,
    async issueCaptcha() {
      return captcha.issue(await deps.settings.captchaType());
    },
    steps: createLoginSteps(deps, { checks, store, sms, totp }),
    binding: createTotpBinding(deps, { checks, store, totp }),
    reauth: createReauthService(deps, { checks, store, totp }),
    phone: createPhoneChangeService(deps, { checks, sms }),
    highSensitivity: createHighSensitivityService({
      ...deps,
      seedCodes: seedPermissionCodes(defaultSeedMenus),
    }),
  };
}

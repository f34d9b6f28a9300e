/**
 * Self-service phone number changes (contract §10): the phone is a second factor, so a stolen access token
 * alone must not move or remove it. Asking for a code needs the current password (through the shared
 * lock-aware check; captcha while captcha is on) and sends the code to the NEW number; the number is set only
 * when that code comes back, and only while the password it was asked with is still the user's (a change from
 * the same session keeps that session, so its token alone must not finish what the old password began).
 * Removing the number needs the current password.
 */
import { BusinessError, ErrorCode } from '@svc/kernel';
import { AdminErrorCode } from '../admin/codes.js';
import type { ClientInfo, UserPrincipal } from '../auth/principal.js';
import { type CaptchaFields, credentialStamp, type MfaDeps, type SharedChecks } from './common.js';
import type { SmsCodeService, SmsSendResult } from './sms.js';

export interface PhoneChangeService {
  /** `POST /personal/phone/code`: 40001/40004 wrong password; 40008 cooldown or daily limit. */
  sendCode(
    principal: UserPrincipal,
    input: { phone: string; currentPassword: string } & CaptchaFields,
    client?: ClientInfo,
  ): Promise<SmsSendResult>;
  /** `PUT /personal/phone`: 40010 wrong code (attempts left), 40011 none live for this number. */
  confirm(principal: UserPrincipal, input: { phone: string; code: string }): Promise<void>;
  /** `DELETE /personal/phone`: 40001/40004 wrong password. */
  remove(principal: UserPrincipal, input: { currentPassword: string }, client?: ClientInfo): Promise<void>;
}

export function createPhoneChangeService(
  deps: MfaDeps,
  parts: { checks: SharedChecks; sms: SmsCodeService },
): PhoneChangeService {
  const { passwords, repositories: repos } = deps;
  const { checks, sms } = parts;

  const setPhone = async (userId: number, phone: string | null) => {
    const ok = await repos.users.update(userId, { phone }, { userId, at: deps.now() });
    if (!ok) throw new BusinessError(AdminErrorCode.UserNotFound);
  };

  return {
    async sendCode(principal, input, client) {
      const user = await passwords.verify({
        who: { userId: principal.userId },
        password: input.currentPassword,
        beforeHash: checks.captcha(input),
        record: true,
        client,
      });
      return sms.sendPhone(principal.userId, input.phone, credentialStamp(user));
    },

    async confirm(principal, input) {
      const { credential } = await sms.completePhone(principal.userId, input.phone, input.code);
      const user = await repos.users.findById(principal.userId);
      if (!user || credential !== credentialStamp(user)) throw new BusinessError(ErrorCode.SmsCodeExpired);
      await setPhone(principal.userId, input.phone.trim());
    },

    async remove(principal, input, client) {
      await passwords.verify({
        who: { userId: principal.userId },
        password: input.currentPassword,
        record: true,
        client,
      });
      await setPhone(principal.userId, null);
    },
  };
}

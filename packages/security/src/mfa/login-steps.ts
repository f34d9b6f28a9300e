/**
 * The second-factor steps of login: the hooks the password login calls (captcha at step 2; at step 5 a
 * challenge instead of a session: 40018 for a TOTP-bound account, 40020 when TOTP is demanded but not bound,
 * 40009 for the SMS step), the completions (`/auth/login/totp`, `/auth/login/sms`, `/auth/sms/login`) and the
 * SMS sends. The passwordless SMS login passes the same TOTP demand as the password login. A challenge keeps a
 * stamp of the password it was started with and dies with it (a change or reset answers as a stale challenge); a
 * TOTP step dies with its authenticator too (cleared by an administrator or a recovery code, or re-bound).
 * A completion opens the session through `auth.openSession(..., { isMfa: true })` and writes its own login-log
 * row; each challenge or code is taken atomically, so one correct code opens one session.
 */
import type { SysUserRow } from '@svc/data';
import { BusinessError, ErrorCode, guidV7, isBusinessError } from '@svc/kernel';
import type { LoginHooks } from '../auth/auth-deps.js';
import type { IssuedSession } from '../auth/contracts.js';
import type { CredentialRecheck } from '../auth/issue.js';
import type { ClientInfo } from '../auth/principal.js';
import type { ClockStore } from './clock-store.js';
import { credentialStamp, factorStamp, type MfaDeps, type SharedChecks } from './common.js';
import { MFA_KEYS, TOTP_MAX_ATTEMPTS } from './constants.js';
import type { SmsCodeService, SmsSendResult } from './sms.js';
import type { TotpEngine } from './totp.js';

export interface LoginSteps {
  /** Captcha (step 2) and second factor (step 5) of the password login. */
  hooks: Required<LoginHooks>;
  completeTotp(challengeId: string, code: string, client: ClientInfo): Promise<IssuedSession>;
  completeSms(challengeId: string, code: string, client: ClientInfo): Promise<IssuedSession>;
  resendSms(challengeId: string): Promise<SmsSendResult>;
  /** `POST /auth/sms/send`: captcha when enabled, 40012 when SMS login is off. */
  sendLoginCode(input: {
    phone: string;
    captchaId?: string | undefined;
    captchaCode?: string | undefined;
  }): Promise<SmsSendResult>;
  smsLogin(phone: string, code: string, client: ClientInfo): Promise<IssuedSession>;
}

interface TotpChallenge {
  userId: number;
  /** Stamp of the password the login was started with (see `credentialStamp`). */
  credential?: string;
  /** Stamp of the authenticator the step was issued for (see `factorStamp`); a step without one is dead. */
  factor?: string | null;
  attempts: number;
  expiresAt: number;
}

export function createLoginSteps(
  deps: MfaDeps,
  parts: {
    checks: SharedChecks;
    store: ClockStore;
    sms: SmsCodeService;
    totp: TotpEngine;
  },
): LoginSteps {
  const { settings, repositories: repos } = deps;
  const { checks, store, sms, totp } = parts;

  /**
   * Runs a completion: the session on success, one login-log row either way. `work` answers the user and, for
   * a step started after a password, what the new session must find unchanged once its row exists.
   */
  async function complete(
    account: () => string,
    client: ClientInfo,
    work: () => Promise<{ user: SysUserRow; credential?: CredentialRecheck }>,
  ): Promise<IssuedSession> {
    let user: SysUserRow | undefined;
    try {
      const granted = await work();
      user = granted.user;
      const issued = await deps.auth().openSession(user, client, {
        isMfa: true,
        ...(granted.credential ? { credential: granted.credential } : {}),
      });
      await deps.passwords.log({ account: user.account, resultCode: 0, userId: user.id, client });
      return issued;
    } catch (error) {
      const resultCode = isBusinessError(error) ? error.code : ErrorCode.SystemError.code;
      await deps.passwords.log({ account: account(), resultCode, userId: user?.id ?? null, client });
      throw error;
    }
  }

  /** The live, enabled user a step belongs to. */
  async function liveUser(userId: number, dead: BusinessError): Promise<SysUserRow> {
    const user = await repos.users.findById(userId);
    if (!user) throw dead;
    if (!user.enabled) throw new BusinessError(ErrorCode.AccountDisabled);
    return user;
  }

  /**
   * A step started after a password dies with it: a change or reset since the step began answers `dead`, as a
   * stale challenge does, now and again once the session row exists (the change may land in between).
   */
  function samePassword(stamp: string | undefined, user: SysUserRow, dead: BusinessError): CredentialRecheck {
    const recheck = { holds: (row: SysUserRow) => stamp === credentialStamp(row), refusal: dead };
    if (!recheck.holds(user)) throw dead;
    return recheck;
  }

  /**
   * The TOTP step also dies with the authenticator it was issued for: an administrator's clear, a recovery or a
   * re-bind since the step began answers `dead`, now and again once the session row exists (the clear revokes
   * the user's sessions after writing the row, so either it sees the new session or this look sees the clear).
   */
  function sameFactors(challenge: TotpChallenge, user: SysUserRow, dead: BusinessError): CredentialRecheck {
    const password = (row: SysUserRow) => challenge.credential === credentialStamp(row);
    const authenticator = (row: SysUserRow) =>
      typeof challenge.factor === 'string' && challenge.factor === factorStamp(row);
    if (!password(user) || !authenticator(user)) throw dead;
    return {
      holds: (row) => password(row) && authenticator(row),
      refusal: dead,
      revokeReason: (row) => (password(row) ? 'mfa-cleared' : 'password-change'),
    };
  }

  /**
   * The TOTP demand of an account, whatever proved the first factor (password, external login, SMS login):
   * 40018 with a challenge for a bound account, 40020 when TOTP is demanded but not bound.
   */
  async function totpGate(user: SysUserRow): Promise<void> {
    if (!(await settings.totpEnabled())) return;
    if (user.totpSecret) {
      const challengeId = guidV7(store.nowMs());
      const ttl = settings.totp.challengeTtlSeconds;
      await store.put(
        `${MFA_KEYS.totpChallenge}${challengeId}`,
        { userId: user.id, credential: credentialStamp(user), factor: factorStamp(user), attempts: 0 },
        ttl * 1000,
      );
      throw new BusinessError(ErrorCode.TotpRequired, { challengeId, expiresSeconds: ttl });
    }
    if (user.forceTotp || (user.isSuperAdmin && (await settings.requireTotpForSuperAdmin()))) {
      throw new BusinessError(ErrorCode.TotpNotBound);
    }
  }

  return {
    hooks: {
      // The same captcha step as every anonymous password door.
      verifyCaptcha: (input) => checks.captcha(input)(),

      async afterPassword(user) {
        await totpGate(user);
        const phone = user.phone?.trim();
        if (phone && (await settings.smsMfaEnabled())) {
          const args = await sms.startMfa({ id: user.id, phone, credential: credentialStamp(user) });
          throw new BusinessError(ErrorCode.SmsCodeRequired, { ...args });
        }
      },
    },

    async completeTotp(challengeId, code, client) {
      let account = '';
      return complete(
        () => account,
        client,
        async () => {
          if (!(await settings.totpEnabled())) throw new BusinessError(ErrorCode.TotpDisabled);
          const key = `${MFA_KEYS.totpChallenge}${challengeId}`;
          const challenge = await store.take<TotpChallenge>(key);
          if (!challenge) throw new BusinessError(ErrorCode.MfaChallengeExpired);
          const dead = new BusinessError(ErrorCode.MfaChallengeExpired);
          const user = await liveUser(challenge.userId, dead);
          account = user.account;
          const credential = sameFactors(challenge, user, dead);
          // Codes count on the account across challenges (contract §10): reserved before the check.
          const attempt = await deps.passwords.secondFactorLock.begin({ userId: user.id });
          if (await totp.accept(user.id, checks.openSeed(user), code, store.nowMs())) {
            await attempt.succeeded();
            return { user, credential };
          }
          const attempts = challenge.attempts + 1;
          const attemptsLeft = Math.max(0, TOTP_MAX_ATTEMPTS - attempts);
          if (attemptsLeft > 0) await store.restore(key, { ...challenge, attempts });
          attempt.failed();
          throw new BusinessError(ErrorCode.TotpWrong, { attemptsLeft });
        },
      );
    },

    async completeSms(challengeId, code, client) {
      const known = await sms.peekMfaUser(challengeId);
      const owner = known === undefined ? undefined : await repos.users.findById(known);
      return complete(
        () => owner?.account ?? '',
        client,
        async () => {
          const { userId, credential } = await sms.completeMfa(challengeId, code, (id) =>
            deps.passwords.secondFactorLock.begin({ userId: id }),
          );
          const dead = new BusinessError(ErrorCode.SmsCodeExpired);
          const user = await liveUser(userId, dead);
          return { user, credential: samePassword(credential, user, dead) };
        },
      );
    },

    resendSms: (challengeId) => sms.resendMfa(challengeId),

    async sendLoginCode(input) {
      await checks.captcha(input)();
      if (!(await settings.smsLoginEnabled())) throw new BusinessError(ErrorCode.SmsLoginDisabled);
      return sms.sendLogin(input.phone);
    },

    async smsLogin(phone, code, client) {
      return complete(
        // A refused SMS login records what was submitted: a number, not an account.
        () => phone,
        client,
        async () => {
          if (!(await settings.smsLoginEnabled())) throw new BusinessError(ErrorCode.SmsLoginDisabled);
          const userId = await sms.completeLogin(phone, code);
          const user = await liveUser(userId, new BusinessError(ErrorCode.SmsCodeExpired));
          // The code proved the phone, which stands in for the password only: an account that demands TOTP
          // answers 40018 or 40020 here as at the password login. The SMS second factor is skipped, just proven.
          await totpGate(user);
          return { user };
        },
      );
    },
  };
}

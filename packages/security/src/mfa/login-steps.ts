/**
 * The second-factor steps of login: the hooks the password login calls (captcha at step 2; at step 5 a
 * challenge instead of a session: 40018 for a TOTP-bound account, 40020 when TOTP is demanded but not bound,
 * 40009 for the SMS step), the completions (`/auth/login/totp`, `/auth/login/sms`, `/auth/sms/login`) and the
 * SMS sends. The passwordless SMS login passes the same TOTP demand as the password login. A challenge keeps a
 * stamp of the password it was started with and dies with it (a change or reset answers as a stale challenge); a
 * TOTP step dies with its authenticator too (cleared by an administrator or a recovery code, or re-bound), an SMS
 * step or login code with the number it was sent to (changed, cleared, moved to or shared with another account).
 * A completion opens the session through `auth.openSession(..., { isMfa: true })` and writes its own login-log
 * row; each challenge or code is taken atomically, so one correct code opens one session.
 */
import type { LoginMethod, SysUserRow } from '@svc/data';
import { BusinessError, ErrorCode, guidV7, isBusinessError } from '@svc/kernel';
import type { LoginHooks } from '../auth/auth-deps.js';
import type { IssuedSession } from '../auth/contracts.js';
import type { CredentialRecheck } from '../auth/issue.js';
import type { ClientInfo } from '../auth/principal.js';
import { settleAttempt } from '../lockout.js';
import type { ClockStore } from './clock-store.js';
import { credentialStamp, factorStamp, type MfaDeps, type SharedChecks } from './common.js';
import { MFA_KEYS, TOTP_MAX_ATTEMPTS } from './constants.js';
import type { SmsCodeService, SmsSendResult, SmsStep } from './sms.js';
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

/** The number an account's SMS codes go to, if it has one. */
const smsNumber = (user: Pick<SysUserRow, 'phone'>): string | undefined => user.phone?.trim() || undefined;

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
    method: LoginMethod,
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
      await deps.passwords.log({ account: user.account, resultCode: 0, userId: user.id, method, client });
      return issued;
    } catch (error) {
      const resultCode = isBusinessError(error) ? error.code : ErrorCode.SystemError.code;
      await deps.passwords.log({ account: account(), resultCode, userId: user?.id ?? null, method, client });
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
   * stale challenge does, now and again once the session row exists (the change may land in between). The TOTP
   * step also dies with the authenticator it was issued for: an administrator's clear, a recovery or a
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
   * The SMS step dies with the factor its code proves: the number it was sent to must still be the account's, the
   * SMS second factor still on, and the account must not owe TOTP instead (bound, forced or demanded of the super
   * admin since the step began, which the password login would now ask for). Checked once the code is right and
   * again once the session row exists: a change landing in between is seen there; one landing later finds a
   * session opened before it, which a change of number leaves alone like any other.
   */
  function sameSmsFactor(step: SmsStep, dead: BusinessError): CredentialRecheck {
    const password = (row: SysUserRow) => step.credential === credentialStamp(row);
    return {
      holds: async (row) =>
        password(row) &&
        smsNumber(row) === step.phone &&
        (await settings.smsMfaEnabled()) &&
        !(await owesTotp(row)),
      refusal: dead,
      revokeReason: (row) => (password(row) ? 'mfa-cleared' : 'password-change'),
    };
  }

  /**
   * An SMS login code stands for the number it was sent to: that number must still belong to this account and to
   * no other enabled one (spec rule 4), when the code is checked and once the session row exists.
   */
  function soleOwner(phone: string, dead: BusinessError): CredentialRecheck {
    return {
      async holds(row) {
        if (smsNumber(row) !== phone) return false;
        const owners = await repos.phones.findLiveByPhone(phone, 2, { enabledOnly: true });
        return owners.length === 1 && owners[0]?.id === row.id;
      },
      refusal: dead,
      revokeReason: () => 'mfa-cleared',
    };
  }

  /** Whether the account owes TOTP at login (a challenge or a bind first) rather than the SMS code. */
  async function owesTotp(user: SysUserRow): Promise<boolean> {
    if (!(await settings.totpEnabled())) return false;
    if (user.totpSecret || user.forceTotp) return true;
    return user.isSuperAdmin && (await settings.requireTotpForSuperAdmin());
  }

  /**
   * The TOTP demand of an account, whatever proved the first factor (password, external login, SMS login):
   * 40018 with a challenge for a bound account, 40020 when TOTP is demanded but not bound.
   */
  async function totpGate(user: SysUserRow): Promise<void> {
    if (!(await owesTotp(user))) return;
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
    throw new BusinessError(ErrorCode.TotpNotBound);
  }

  return {
    hooks: {
      // The same captcha step as every anonymous password door.
      verifyCaptcha: (input) => checks.captcha(input)(),

      async afterPassword(user) {
        // A locked second factor answers 40004 before any step starts. The password check has looked already;
        // the external login, whose provider stands in for the password, has not (contract §10).
        await deps.passwords.secondFactorLock.assertOpen({ userId: user.id });
        await totpGate(user);
        const phone = smsNumber(user);
        if (phone && (await settings.smsMfaEnabled())) {
          const args = await sms.startMfa({ id: user.id, phone, credential: credentialStamp(user) });
          throw new BusinessError(ErrorCode.SmsCodeRequired, { ...args });
        }
      },
    },

    async completeTotp(challengeId, code, client) {
      let account = '';
      return complete(
        'totp',
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
          // Codes count on the account across challenges (contract §10): reserved before the check. A refused
          // reservation compared nothing: the challenge goes back as it was (40008 asks for a retry).
          const attempt = await deps.passwords.secondFactorLock
            .begin({ userId: user.id })
            .catch(async (error) => {
              await store.restore(key, challenge);
              throw error;
            });
          return settleAttempt(attempt, async () => {
            if (await totp.accept(user.id, checks.openSeed(user), code, store.nowMs())) {
              await attempt.succeeded();
              return { user, credential };
            }
            const attempts = challenge.attempts + 1;
            const attemptsLeft = Math.max(0, TOTP_MAX_ATTEMPTS - attempts);
            // Counted before the challenge goes back (see sms.ts `check`): a restore that throws must not release
            // the reservation of a compared code.
            try {
              attempt.failed();
            } finally {
              if (attemptsLeft > 0) await store.restore(key, { ...challenge, attempts });
            }
            throw new BusinessError(ErrorCode.TotpWrong, { attemptsLeft });
          });
        },
      );
    },

    async completeSms(challengeId, code, client) {
      const known = await sms.peekMfaUser(challengeId);
      const owner = known === undefined ? undefined : await repos.users.findById(known);
      return complete(
        'sms',
        () => owner?.account ?? '',
        client,
        async () => {
          const step = await sms.completeMfa(challengeId, code, (id) =>
            deps.passwords.secondFactorLock.begin({ userId: id }),
          );
          const dead = new BusinessError(ErrorCode.SmsCodeExpired);
          const user = await liveUser(step.userId, dead);
          const credential = sameSmsFactor(step, dead);
          if (!(await credential.holds(user))) throw dead;
          return { user, credential };
        },
      );
    },

    resendSms: (challengeId) =>
      sms.resendMfa(challengeId, async (step) => {
        const user = await repos.users.findById(step.userId);
        const dead = new BusinessError(ErrorCode.SmsCodeExpired);
        return user?.enabled === true && (await sameSmsFactor(step, dead).holds(user));
      }),

    async sendLoginCode(input) {
      await checks.captcha(input)();
      if (!(await settings.smsLoginEnabled())) throw new BusinessError(ErrorCode.SmsLoginDisabled);
      return sms.sendLogin(input.phone);
    },

    async smsLogin(phone, code, client) {
      return complete(
        'sms',
        // A refused SMS login records what was submitted: a number, not an account.
        () => phone,
        client,
        async () => {
          if (!(await settings.smsLoginEnabled())) throw new BusinessError(ErrorCode.SmsLoginDisabled);
          const userId = await sms.completeLogin(phone, code);
          const dead = new BusinessError(ErrorCode.SmsCodeExpired);
          const user = await liveUser(userId, dead);
          // Codes are filed under the trimmed number (sms.ts), which is the number the code went to.
          const credential = soleOwner(phone.trim(), dead);
          if (!(await credential.holds(user))) throw dead;
          // The code proved the phone, which stands in for the password only: an account that demands TOTP
          // answers 40018 or 40020 here as at the password login. The SMS second factor is skipped, just proven.
          await totpGate(user);
          return { user, credential };
        },
      );
    },
  };
}

/**
 * TOTP binding and its undoing (spec "TOTP (authenticator)"). Binding: start with account and current password
 * (a seed, its `otpauth://` URI and a bind challenge; refused for an account already bound, so a password
 * alone can never replace an authenticator), then complete with a valid code: the seed is stored sealed by the
 * secret protector and `RecoveryCodeCount` recovery codes are handed out once (stored as hashes). A bind
 * challenge dies with the password it was started with (40021 once it was changed or reset). Recovery
 * (account, password, one recovery code) clears the binding and revokes every session; an administrator clears
 * a binding with `clear`, which revokes the user's sessions too (but the caller's own). While the TOTP capability
 * is off, binding and recovery answer 40025.
 */
import { BusinessError, ErrorCode, guidV7 } from '@svc/kernel';
import { AdminErrorCode } from '../admin/codes.js';
import type { ClientInfo } from '../auth/principal.js';
import { settleAttempt } from '../lockout.js';
import type { ClockStore } from './clock-store.js';
import {
  type CaptchaFields,
  credentialStamp,
  type MfaDeps,
  recordingRefusal,
  type SharedChecks,
  seedContext,
} from './common.js';
import { MFA_KEYS, TOTP_MAX_ATTEMPTS } from './constants.js';
import { generateRecoveryCodes } from './recovery-codes.js';
import type { TotpEngine } from './totp.js';

/** Answer of bind start (contract §5). */
export interface BindStart {
  bindChallengeId: string;
  otpauthUri: string;
  /** The Base32 seed, for manual entry; shown once. */
  seed: string;
  expiresSeconds: number;
}

export interface TotpBinding {
  start(
    account: string,
    currentPassword: string,
    options?: { captcha?: CaptchaFields; client?: ClientInfo },
  ): Promise<BindStart>;
  /** Stores the seed and answers the recovery codes (shown once). */
  complete(bindChallengeId: string, code: string): Promise<{ recoveryCodes: string[] }>;
  /**
   * Uses one recovery code: the binding it belongs to is cleared and every session of the account revoked. A
   * wrong code counts on the account's second-factor counter.
   */
  recover(
    account: string,
    currentPassword: string,
    recoveryCode: string,
    options?: { captcha?: CaptchaFields; client?: ClientInfo },
  ): Promise<void>;
  /**
   * An administrator clears a user's binding (42001 for an unknown user) and every session of that user is
   * revoked; clearing one's own keeps the caller's session (`actorSessionId`).
   */
  clear(userId: number, actorId: number | null, actorSessionId?: string): Promise<void>;
}

interface BindChallenge {
  userId: number;
  /** Stamp of the password the bind was started with: a change or reset since then kills the challenge. */
  credential: string;
  /** The pending seed, sealed for this challenge: the cache (Redis) never holds it in plain text. */
  sealed: string;
  attempts: number;
  expiresAt: number;
}

const bindContext = (challengeId: string) => `totp:bind:${challengeId}`;

export function createTotpBinding(
  deps: MfaDeps,
  parts: { checks: SharedChecks; store: ClockStore; totp: TotpEngine },
): TotpBinding {
  const { settings, repositories: repos } = deps;
  const { checks, store, totp } = parts;

  /** The protector and the recovery-code hasher, when the TOTP capability is on (never without a master key). */
  async function capability() {
    const { protector, recoveryCodes } = deps;
    if (!protector || !recoveryCodes || !(await settings.totpEnabled()))
      throw new BusinessError(ErrorCode.TotpDisabled);
    return { protector, recoveryCodes };
  }

  return {
    async start(account, currentPassword, options = {}) {
      const { protector } = await capability();
      const user = await deps.passwords.verify({
        who: { account },
        password: currentPassword,
        beforeHash: checks.captcha(options.captcha),
        record: true,
        client: options.client,
      });
      if (user.totpSecret) throw new BusinessError(ErrorCode.MfaBindInvalid, { reason: 'alreadyBound' });
      const seed = await totp.newSecret();
      const bindChallengeId = guidV7(store.nowMs());
      const ttl = settings.totp.challengeTtlSeconds;
      await store.put(
        `${MFA_KEYS.totpBind}${bindChallengeId}`,
        {
          userId: user.id,
          credential: credentialStamp(user),
          sealed: protector.seal(seed, bindContext(bindChallengeId)),
          attempts: 0,
        },
        ttl * 1000,
      );
      return {
        bindChallengeId,
        otpauthUri: await totp.uri(settings.totp.issuer, user.account, seed),
        seed,
        expiresSeconds: ttl,
      };
    },

    async complete(bindChallengeId, code) {
      const { protector, recoveryCodes: hasher } = await capability();
      const key = `${MFA_KEYS.totpBind}${bindChallengeId}`;
      const challenge = await store.take<BindChallenge>(key);
      if (!challenge) throw new BusinessError(ErrorCode.MfaBindInvalid);
      // A bind started with a password that has since been changed or reset (a leaked one) binds nothing. A
      // change landing after this look is a bind that finished first, which a change never undoes either.
      const owner = await repos.users.findById(challenge.userId);
      if (!owner || challenge.credential !== credentialStamp(owner)) {
        throw new BusinessError(ErrorCode.MfaBindInvalid);
      }
      // An account bound since this bind began (a concurrent bind won) binds nothing: answered before the code is
      // checked, whose time step would otherwise be spent for the account and refuse the bound authenticator's
      // code of that step.
      if (owner.totpSecret) throw new BusinessError(ErrorCode.MfaBindInvalid, { reason: 'alreadyBound' });
      const seed = protector.open(challenge.sealed, bindContext(bindChallengeId));
      if (!(await totp.accept(challenge.userId, seed, code, store.nowMs()))) {
        const attempts = challenge.attempts + 1;
        const attemptsLeft = Math.max(0, TOTP_MAX_ATTEMPTS - attempts);
        if (attemptsLeft > 0) await store.restore(key, { ...challenge, attempts });
        throw new BusinessError(ErrorCode.TotpWrong, { attemptsLeft });
      }
      const recoveryCodes = generateRecoveryCodes(settings.totp.recoveryCodeCount);
      const bound = await repos.totp.bind(
        challenge.userId,
        protector.seal(seed, seedContext(challenge.userId)),
        recoveryCodes.map(hasher.hash),
        deps.now(),
      );
      if (!bound) throw new BusinessError(ErrorCode.MfaBindInvalid, { reason: 'alreadyBound' });
      return { recoveryCodes };
    },

    async recover(account, currentPassword, recoveryCode, options = {}) {
      const { recoveryCodes: hasher } = await capability();
      const user = await deps.passwords.verify({
        who: { account },
        password: currentPassword,
        beforeHash: checks.captcha(options.captcha),
        record: true,
        method: 'recovery',
        client: options.client,
      });
      const who = { account, userId: user.id, method: 'recovery' as const, client: options.client };
      const sealed = user.totpSecret;
      await recordingRefusal(deps.passwords.log, who, async () => {
        const attempt = await deps.passwords.secondFactorLock.begin({ userId: user.id });
        // The binding the code belongs to (the sealed secret read with the user).
        const binding = await settleAttempt(attempt, async () => {
          // The keyed form, else a code handed out by an earlier release: rewrapped at start-up, or still plain
          // when an instance of that release wrote it since (a rolling upgrade). Each is spent like any code.
          const { keyed, wrapped, legacy } = hasher.candidates(recoveryCode);
          const used =
            sealed !== null &&
            ((await repos.totp.consumeRecoveryCode(user.id, keyed, deps.now())) ||
              (await repos.totp.consumeRecoveryCode(user.id, wrapped, deps.now())) ||
              (await repos.totp.consumeRecoveryCode(user.id, legacy, deps.now())));
          if (!used) {
            attempt.failed();
            throw new BusinessError(ErrorCode.RecoveryCodeInvalid);
          }
          await attempt.succeeded();
          return sealed;
        });
        // The code clears the binding it belongs to, never one made after it was used (an administrator's clear
        // and a re-bind landing in between): then it answers as a used code, and the new binding stays.
        if (!(await repos.totp.clear(user.id, { userId: null, at: deps.now() }, { sealedSecret: binding }))) {
          throw new BusinessError(ErrorCode.RecoveryCodeInvalid);
        }
      });
      await deps.sessions.revokeUserSessions(user.id, 'mfa-recovery');
    },

    async clear(userId, actorId, actorSessionId) {
      if (!(await repos.totp.clear(userId, { userId: actorId, at: deps.now() }))) {
        throw new BusinessError(AdminErrorCode.UserNotFound);
      }
      // Whoever signed in with the old factor is signed out, as after a recovery or a password reset.
      const own = actorId === userId && actorSessionId !== undefined;
      await deps.sessions.revokeUserSessions(
        userId,
        'mfa-cleared',
        own ? { exceptSessionId: actorSessionId } : undefined,
      );
    },
  };
}

/**
 * What the second-factor flows are built from, and what they share: opening a user's sealed seed, and (through
 * `passwords`) the one lock-aware password check, the second-factor counter and the login-log writer.
 */
import type {
  HighSensitivityRepository,
  LoginMethod,
  PhoneUserRepository,
  SysUserRow,
  TotpRepository,
  UserRepository,
} from '@svc/data';
import type { Cache } from '@svc/data/cache';
import { BusinessError, ErrorCode, isBusinessError, type Logger, sha256Hex } from '@svc/kernel';
import type { SessionAuthService } from '../auth/auth-service.js';
import type { PasswordCheck } from '../auth/password-check.js';
import type { ClientInfo } from '../auth/principal.js';
import type { SessionManager } from '../auth/session-manager.js';
import type { CaptchaService } from './captcha/service.js';
import type { SecretProtector } from './protector.js';
import type { RecoveryCodeHasher } from './recovery-codes.js';
import type { MfaSettings } from './settings.js';
import type { SmsSender } from './sms-sender.js';

/** Dependencies of {@link createMfaServices}. */
export interface MfaDeps {
  repositories: {
    users: Pick<UserRepository, 'findById' | 'findByAccount' | 'update'>;
    totp: TotpRepository;
    phones: PhoneUserRepository;
    highSensitivity: HighSensitivityRepository;
  };
  cache: Cache;
  settings: MfaSettings;
  /** Opens the session of a completed step (the host binds it late: the auth service takes these hooks). */
  auth: () => Pick<SessionAuthService, 'openSession'>;
  /** Revokes every session of a user after a recovery. */
  sessions: Pick<SessionManager, 'revokeUserSessions'>;
  /**
   * The lock-aware password check the password login uses (the same instance): every door that takes a
   * password goes through it; its second-factor counter guards the code steps; its writer keeps the login log.
   */
  passwords: PasswordCheck;
  /** Seals TOTP seeds; undefined when no master key exists (then TOTP stays off). */
  protector: SecretProtector | undefined;
  /** Keyed hashes of recovery codes, under the same master key; undefined exactly when `protector` is. */
  recoveryCodes: RecoveryCodeHasher | undefined;
  /** Where SMS codes go. @default the log sender */
  sender: SmsSender;
  /** Every permission code of the running service (the high-sensitivity list accepts only these). */
  knownPermissionCodes: () => Iterable<string>;
  now: () => Date;
  logger: Logger;
}

/** Seeds are sealed for their owner, so a value moved to another user's row does not open. */
export const seedContext = (userId: number) => `totp:user:${userId}`;

/**
 * What a challenge (TOTP bind, the TOTP and SMS login steps) keeps of the password it was started with: the
 * SHA-256 of the stored hash. A change or reset writes a hash with a fresh salt, so the stamp stops matching and
 * the challenge is dead; the clock plays no part. The cache never holds the hash itself, and the stamp opens
 * nothing (a guess needs the salt). A login's rehash of the same password moves it too: a challenge that a
 * concurrent first login outran is refused like a stale one, and the user starts again.
 */
export const credentialStamp = (user: Pick<SysUserRow, 'password'>): string => sha256Hex(user.password);

/**
 * What a TOTP login step keeps of the authenticator it was issued for: the SHA-256 of the sealed seed, null while
 * none is bound. Every binding is sealed with a fresh data key, so a clear (by an administrator or a recovery
 * code) or a re-bind since the step began moves the stamp, even a re-bind of the same seed; the step is then
 * dead, as after a password change. Like `credentialStamp`, it opens nothing.
 */
export const factorStamp = (user: Pick<SysUserRow, 'totpSecret'>): string | null =>
  user.totpSecret ? sha256Hex(user.totpSecret) : null;

/** Captcha answer an anonymous password door takes while captcha is on (contract §10). */
export interface CaptchaFields {
  captchaId?: string | undefined;
  captchaCode?: string | undefined;
}

export interface SharedChecks {
  /** The plain seed of a bound user. */
  openSeed(user: SysUserRow): string;
  /** The captcha step of an anonymous door: checks `fields` while captcha is on (40002/40003). */
  captcha(fields: CaptchaFields | undefined): () => Promise<void>;
}

export function createSharedChecks(deps: MfaDeps, captcha: Pick<CaptchaService, 'verify'>): SharedChecks {
  return {
    captcha: (fields) => async () => {
      if (await deps.settings.captchaEnabled()) await captcha.verify(fields?.captchaId, fields?.captchaCode);
    },
    openSeed(user) {
      if (!user.totpSecret || !deps.protector) throw new BusinessError(ErrorCode.TotpNotBound);
      return deps.protector.open(user.totpSecret, seedContext(user.id));
    },
  };
}

/**
 * Runs a second-factor check of a door outside the login (recovery, re-authentication) and writes a login-log
 * row of its refusal, as the login does for its own steps: a wrong code there is a guess like any other.
 * @example
 * await recordingRefusal(passwords.log, { account: user.account, userId: user.id, method: 'totp', client }, () => checkCode());
 */
export async function recordingRefusal<T>(
  log: PasswordCheck['log'],
  who: { account: string; userId: number; method: LoginMethod; client?: ClientInfo | undefined },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const resultCode = isBusinessError(error) ? error.code : ErrorCode.SystemError.code;
    await log({
      account: who.account,
      resultCode,
      userId: who.userId,
      method: who.method,
      client: who.client,
    });
    throw error;
  }
}

/**
 * What the second-factor flows are built from, and the checks they share: the password check of the
 * anonymous steps (bind start, recovery) and of re-authentication, with the login lock; the login-log row of a
 * completed step; opening a user's sealed seed.
 */
import { randomBytes } from 'node:crypto';
import type {
  HighSensitivityRepository,
  LoginLogRepository,
  PhoneUserRepository,
  SysUserRow,
  TotpRepository,
  UserRepository,
} from '@svc/data';
import type { Cache } from '@svc/data/cache';
import { BusinessError, ErrorCode, hashPassword, type Logger, verifyPassword } from '@svc/kernel';
import type { SessionAuthService } from '../auth/auth-service.js';
import type { ClientInfo } from '../auth/principal.js';
import type { SessionManager } from '../auth/session-manager.js';
import type { LoginLock } from '../lockout.js';
import type { SecretProtector } from './protector.js';
import type { MfaSettings } from './settings.js';
import type { SmsSender } from './sms-sender.js';

/** Dependencies of {@link createMfaServices}. */
export interface MfaDeps {
  repositories: {
    users: Pick<UserRepository, 'findById' | 'findByAccount'>;
    loginLogs: Pick<LoginLogRepository, 'insert'>;
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
  /** The login lock shared with password login (wrong passwords on every anonymous step count on it). */
  lock: LoginLock;
  /** Seals TOTP seeds; undefined when no master key exists (then TOTP stays off). */
  protector: SecretProtector | undefined;
  /** Where SMS codes go. @default the log sender */
  sender: SmsSender;
  /** Every permission code of the running service (the high-sensitivity list accepts only these). */
  knownPermissionCodes: () => Iterable<string>;
  /** @default 600000 */
  pbkdf2Iterations: number;
  now: () => Date;
  logger: Logger;
}

/** Seeds are sealed for their owner, so a value moved to another user's row does not open. */
export const seedContext = (userId: number) => `totp:user:${userId}`;

export interface SharedChecks {
  /** Account + password with the lock (40004), the equal-cost unknown path (40001) and the enabled check. */
  checkPassword(account: string, password: string): Promise<SysUserRow>;
  /** The plain seed of a bound user. */
  openSeed(user: SysUserRow): string;
  /** Writes one login-log row; a failure to write is logged, never answered. */
  logLogin(entry: {
    account: string;
    resultCode: number;
    userId: number | null;
    client: ClientInfo;
  }): Promise<void>;
}

export function createSharedChecks(deps: MfaDeps): SharedChecks {
  const { repositories: repos, lock } = deps;
  let dummy: Promise<string> | undefined;
  // Unknown accounts verify against a hash of the current strength nobody knows the password of.
  const dummyHash = () => {
    dummy ??= hashPassword(randomBytes(32).toString('base64url'), deps.pbkdf2Iterations);
    return dummy;
  };

  return {
    async checkPassword(account, password) {
      const status = await lock.check(account);
      if (status.locked)
        throw new BusinessError(ErrorCode.AccountLocked, { lockMinutes: status.lockMinutes });
      const user = await repos.users.findByAccount(account);
      const ok = await verifyPassword(password, user?.password ?? (await dummyHash()), deps.pbkdf2Iterations);
      if (!user || !ok) {
        const failure = await lock.recordFailure(account);
        if (failure.locked)
          throw new BusinessError(ErrorCode.AccountLocked, { lockMinutes: failure.lockMinutes });
        throw new BusinessError(
          ErrorCode.PasswordWrong,
          failure.attemptsLeft === null ? undefined : { attemptsLeft: failure.attemptsLeft },
        );
      }
      if (!user.enabled) throw new BusinessError(ErrorCode.AccountDisabled);
      await lock.reset(account);
      return user;
    },

    openSeed(user) {
      if (!user.totpSecret || !deps.protector) throw new BusinessError(ErrorCode.TotpNotBound);
      return deps.protector.open(user.totpSecret, seedContext(user.id));
    },

    async logLogin({ account, resultCode, userId, client }) {
      try {
        await repos.loginLogs.insert({
          account,
          success: resultCode === ErrorCode.Success.code,
          resultCode,
          userId,
          ip: client.ip || null,
          userAgent: client.userAgent || null,
          traceId: client.traceId ?? null,
          createTime: deps.now(),
        });
      } catch (error) {
        deps.logger.error('Could not write the login log.', { error });
      }
    },
  };
}

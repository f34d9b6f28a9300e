/**
 * What the authentication service is built from. Everything is passed in (repositories, cache-backed helpers,
 * settings, clock), so tests pin the clock and consumers replace any part.
 */
import type { Repositories, SysUserRow } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import type { Logger } from '@svc/kernel';
import type { RuntimeSettings } from '../runtime-config.js';
import type { AccessTokens } from '../tokens.js';
import type { LoginInput } from './contracts.js';
import type { PasswordCheck } from './password-check.js';
import type { SecurityEventLog } from './security-events.js';
import type { SessionManager } from './session-manager.js';
import type { SessionPolicy } from './session-state.js';

/**
 * Extension points of the login decision order (spec "Login decision order"). A hook refuses by throwing a
 * `BusinessError`; such outcomes never count as lock failures.
 */
export interface LoginHooks {
  /**
   * Step 2, after the lock check and before the password: the captcha (40002 expired/missing, 40003 wrong).
   * @default none (no captcha)
   */
  verifyCaptcha?(input: LoginInput): Promise<void>;
  /**
   * Step 5, after the password and the policy check: a second factor may answer with a signal instead of a
   * session (40009 SMS code required, 40018 TOTP required, 40020 TOTP not bound).
   * @default none (password alone)
   */
  afterPassword?(user: SysUserRow, input: LoginInput): Promise<void>;
}

/** Dependencies of `createAuthService`. */
export interface AuthServiceDeps {
  repositories: Pick<Repositories, 'users' | 'sessions' | 'refreshTokens' | 'loginLogs' | 'passwordHistory'>;
  /** Revocation, limits and liveness of sessions (the same instance the authenticator uses). */
  sessions: SessionManager;
  tokens: Pick<AccessTokens, 'issue'>;
  /**
   * The one lock-aware password check (with its hasher, counters and login-log writer), shared with every
   * other door that accepts a password.
   */
  passwords: PasswordCheck;
  cache: Cache;
  /** Runtime keys: password policy and token lifetimes, read at every use. */
  settings: Pick<RuntimeSettings, 'passwordPolicy' | 'sessionLifetimes'>;
  /** `Service:Security:Session:*`. */
  policy: SessionPolicy;
  /** Clock of every timestamp and expiry decision. @default () => new Date() */
  now?: () => Date;
  /** Captcha and second-factor steps. @default {} */
  hooks?: LoginHooks;
  /** Told when a login-log row cannot be written (the login outcome stands). @default silentLogger */
  logger?: Logger;
  /**
   * `Service:Security:Session:RefreshReuseIntervalSeconds`: a refresh token presented again within this many
   * seconds after its rotation answers 40007 without revoking the session; 0 = every reuse revokes.
   * @default 5
   */
  refreshReuseIntervalSeconds?: number;
}

type Defaulted = 'now' | 'hooks' | 'logger' | 'refreshReuseIntervalSeconds';

/** The deps with every default applied (internal to the auth flows). */
export type ResolvedAuthDeps = Omit<AuthServiceDeps, Defaulted> &
  Required<Pick<AuthServiceDeps, Defaulted>> & {
    /** Login-log rows of refused requests (refresh replay). */
    securityEvents: SecurityEventLog;
  };

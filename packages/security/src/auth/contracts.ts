/**
 * The service contracts between the HTTP layer and the authentication services. Handlers parse, call one of
 * these, and return; every rule lives behind them and is testable without HTTP.
 */
import type { ClientInfo, UserPrincipal } from './principal.js';

export interface LoginInput {
  account: string;
  password: string;
  captchaId?: string | undefined;
  captchaCode?: string | undefined;
  client: ClientInfo;
}

/** What a successful login or refresh hands out (the HTTP layer applies cookie mode to it). */
export interface IssuedSession {
  accessToken: string;
  expiresAt: Date;
  refreshToken: string;
  refreshExpiresAt: Date;
  mustChangePassword: boolean;
  userId: number;
  account: string;
  name: string;
  isSuperAdmin: boolean;
  sessionId: string;
}

/** Whose refresh token it is. */
export interface RefreshTokenOwner {
  sessionId: string;
  userId: number;
  account: string;
}

export interface AuthService {
  /** The login decision order of the spec; throws `BusinessError` (40001, 40004, 40005, …). */
  login(input: LoginInput): Promise<IssuedSession>;
  /**
   * Rotates a refresh token. A `Used` token revokes its whole session unless it was rotated within the reuse
   * interval (then it only answers 40007). Throws 40007.
   */
  refresh(refreshToken: string, client: ClientInfo): Promise<IssuedSession>;
  /** The session a refresh token belongs to, without rotating it (cookie-mode CSRF check). */
  sessionOfRefreshToken(refreshToken: string): Promise<string | undefined>;
  /**
   * The session and account a refresh token belongs to, without rotating it (cookie-mode CSRF check and its
   * login-log row); undefined for an unknown token.
   */
  ownerOfRefreshToken(refreshToken: string): Promise<RefreshTokenOwner | undefined>;
  /** Revokes the caller's session. */
  logout(principal: UserPrincipal): Promise<void>;
  /** Self-service change: old password, policy, reuse check (42025); every other session is revoked. */
  changePassword(
    principal: UserPrincipal,
    oldPassword: string,
    newPassword: string,
    client?: ClientInfo,
  ): Promise<void>;
}

/** Resolves a bearer token to a live session, on every request (revocation is immediate). */
export interface SessionAuthenticator {
  authenticate(accessToken: string): Promise<UserPrincipal | null>;
  /**
   * What {@link SessionAuthenticator.authenticate} would answer, when it can be known without waiting (a
   * verified token and a live session copy in memory needing no write, or a token refused outright);
   * undefined when the asynchronous check must run. The same rules, never a different answer.
   */
  authenticateNow?(accessToken: string): UserPrincipal | null | undefined;
}

/** A user's permission codes (union over enabled menus of enabled roles), cached with a generation counter. */
export interface PermissionResolver {
  codesOf(userId: number): Promise<ReadonlySet<string>>;
  /**
   * True while the user exists, is enabled and not deleted: what a key bound to the user needs on every request
   * (cached and invalidated with the codes, so a disable or delete applies on every instance at once).
   */
  isActive(userId: number): Promise<boolean>;
}

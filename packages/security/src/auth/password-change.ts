/**
 * Self-service password change (spec "Password policy", rules 1, 2, 4, 6): the old password, the runtime
 * policy (42019 with the requirements), reuse of the current or one of the last N passwords (42025), a hash
 * at the current strength, the expiry anchor refreshed and the must-change flag cleared, history trimmed to
 * N. Every other session of the user is revoked (issue 9: whoever held the old password is signed out, on every
 * instance from the next request on); the caller's session stays alive.
 *
 * The old password goes through the shared lock-aware check like a login: a stolen access token must not
 * become an unlimited oracle for guessing the password it would need to take the account over.
 */
import { BusinessError } from '@svc/kernel';
import { AdminErrorCode } from '../admin/codes.js';
import { assertPassword } from '../password-policy.js';
import type { ResolvedAuthDeps } from './auth-deps.js';
import type { ClientInfo, UserPrincipal } from './principal.js';

/** Changes the caller's password; throws 40001, 40004, 42019 or 42025. */
export async function changeOwnPassword(
  deps: ResolvedAuthDeps,
  principal: UserPrincipal,
  oldPassword: string,
  newPassword: string,
  client?: ClientInfo,
): Promise<void> {
  const { repositories: repos, passwords, now } = deps;
  const { hasher } = passwords;
  const user = await passwords.verify({
    who: { userId: principal.userId },
    password: oldPassword,
    record: true,
    client,
  });

  const policy = await deps.settings.passwordPolicy();
  assertPassword(newPassword, policy);

  // The current hash and the newest N of the history (usually the current one again): compared in parallel.
  const history = await repos.passwordHistory.listNewest(user.id, policy.historyCount);
  const previous = [...new Set([user.password, ...history])];
  const matches = await Promise.all(previous.map((hash) => hasher.verify(newPassword, hash)));
  if (matches.some(Boolean)) throw new BusinessError(AdminErrorCode.PasswordReused);

  const at = now();
  const hash = await hasher.hash(newPassword);
  await repos.users.updatePassword(user.id, {
    password: hash,
    lastPasswordChangeTime: at,
    mustChangePassword: false,
    updateUserId: user.id,
    updateTime: at,
  });
  await repos.passwordHistory.add(user.id, hash, policy.historyCount, at);
  // After the new hash is written: a login with the old password between its check and its session insert is
  // either revoked here or sees the new hash when it looks again (issue.ts `openSession`).
  await deps.sessions.revokeUserSessions(user.id, 'password-change', {
    exceptSessionId: principal.sessionId,
  });
}

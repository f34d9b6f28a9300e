/**
 * What the second-factor routes use: the core's second-factor services (the instance whose hooks the password
 * login calls and whose re-authentication check the route guards ask), the HTTP security services (login answers,
 * cookies), the client-IP resolver, the clock, the Admin module's target checks for clearing a binding, and module
 * Passkey's service when that module is on.
 */
import type { PasskeyService } from '@svc/modules';
import type { AdminServices, ClientIpResolver, MfaServices } from '@svc/security';
import type { HttpSecurity } from '../../security/deps.js';

export interface MfaRouteDeps {
  mfa: Pick<MfaServices, 'issueCaptcha' | 'steps' | 'binding' | 'reauth' | 'highSensitivity'>;
  /** Login answers (tokens or cookies) of the steps that complete a login. */
  security: HttpSecurity;
  resolveClientIp: ClientIpResolver;
  /** The service clock (timestamps in answers). */
  now: () => Date;
  /** The target checks every action on a user goes through (scope, super admin, rank). */
  admin: Pick<AdminServices, 'users' | 'actorOf'>;
  /** Module Passkey's service while it is on: re-authentication by passkey, and `clear` removing passkeys. */
  passkeys: Pick<PasskeyService, 'reauth' | 'removeAll'> | undefined;
}

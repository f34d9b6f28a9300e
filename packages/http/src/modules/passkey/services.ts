/**
 * What module `Passkey` builds once and its routes pick from: the passkey service (ceremonies, lists, removal),
 * the HTTP security services (client IP, the login output) and the Admin module's actor and target checks (the
 * rank rule on the administrator's routes).
 */
import type { PasskeyService } from '@svc/modules';
import type { AdminServices } from '@svc/security';
import type { HttpSecurity } from '../../security/deps.js';

export interface PasskeyModuleServices {
  passkeys: PasskeyService;
  security: HttpSecurity;
  admin: Pick<AdminServices, 'actorOf' | 'users'>;
  now: () => Date;
}

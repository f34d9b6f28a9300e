/**
 * What the external-login routes receive (module `ExternalAuth`): the login service, built once by the module,
 * the binding repository, the HTTP security services (client IP, the login output), the clock and the cookie and
 * redirect settings read from `Service:ExternalAuth` and the environment.
 */
import type { Repositories } from '@svc/data';
import type { ExternalAuthService } from '@svc/modules';
import type { HttpSecurity } from '../../security/deps.js';

export interface ExternalAuthRouteDeps {
  service: ExternalAuthService;
  /** The signed-in user's external identities (list, unbind). */
  bindings: Repositories['userExternal'];
  security: HttpSecurity;
  /** The service clock (timestamps in answers). */
  now: () => Date;
  /** The binder and pending-link cookies are Secure (outside Development and tests). */
  secureCookies: boolean;
  /** The frontend path the browser is sent back to with the outcome (`Service:ExternalAuth:FrontendResultPath`). */
  resultPath: string;
}

/** What the sign-in routes use: the HTTP security services (login, refresh, logout, cookies) and the clock. */
import type { HttpSecurity } from '../../security/deps.js';

export interface AuthRouteDeps {
  security: HttpSecurity;
  /** The service clock (timestamps in answers). */
  now: () => Date;
}

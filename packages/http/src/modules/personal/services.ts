/** What the personal-centre routes use: password change through the HTTP security services, and phone change. */
import type { ClientIpResolver, PhoneChangeService } from '@svc/security';
import type { HttpSecurity } from '../../security/deps.js';

export interface PhoneRouteDeps {
  phone: PhoneChangeService;
  resolveClientIp: ClientIpResolver;
}

export interface PersonalRouteDeps extends PhoneRouteDeps {
  security: HttpSecurity;
}

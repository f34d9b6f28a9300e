/** What the personal phone routes use: the phone-change service and the client facts for the login log. */
import type { ClientIpResolver, PhoneChangeService } from '@svc/security';

export interface PhoneRouteDeps {
  phone: PhoneChangeService;
  resolveClientIp: ClientIpResolver;
}

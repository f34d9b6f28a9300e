/**
 * Second factors and step-up (captcha, SMS, TOTP, recovery, re-authentication, high-sensitivity list): registers the routes of this area.
 */
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';

export function registerMfaRoutes(_ctx: RegisterContext, _deps: HttpDeps): void {}

/** External login (module `ExternalAuth`): the nine routes under `/api/v1/auth/external`. */
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';
import * as authorize from './authorize.js';
import * as bind from './bind.js';
import * as bindings from './bindings.js';
import * as callback from './callback.js';
import * as exchange from './exchange.js';
import * as pendingClaim from './pending-claim.js';
import * as providers from './providers.js';
import * as providersAll from './providers-all.js';
import * as unbind from './unbind.js';

export function registerExternalAuthRoutes(ctx: RegisterContext, deps: HttpDeps): void {
  // Fixed paths before the `{provider}` templates.
  for (const route of [
    providers,
    providersAll,
    exchange,
    pendingClaim,
    bindings,
    authorize,
    callback,
    bind,
    unbind,
  ])
    route.register(ctx, deps);
}

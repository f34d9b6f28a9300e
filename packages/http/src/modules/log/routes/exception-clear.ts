/** `DELETE /api/v1/sys/log/exception`: hard-deletes the exception log (this action is itself operation-logged);
 * in the default high-sensitivity set, so it needs a recent re-authentication while TOTP is on. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { ClearedSchema, envelopeResponses } from '../../../openapi/schemas.js';
import { assertScopeAll, type LogRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/log/exception',
  tags: ['Log'],
  summary: 'Clear the exception log',
  responses: envelopeResponses(ClearedSchema),
});

export function register(ctx: RegisterContext, d: Pick<LogRouteDeps, 'exceptionLogs' | 'scopes'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Log' }, async (c) => {
    // Exception rows belong to no user, so no narrower scope holds them: only a caller of scope All may clear.
    await assertScopeAll(c, d);
    return c.json(ok({ cleared: await d.exceptionLogs.deleteAll() }), 200);
  });
}

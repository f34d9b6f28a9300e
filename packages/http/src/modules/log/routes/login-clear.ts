/** `DELETE /api/v1/sys/log/login`: hard-deletes the login log (this action is itself operation-logged);
 * in the default high-sensitivity set, so it needs a recent re-authentication while TOTP is on. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { ClearedSchema, envelopeResponses } from '../../../openapi/schemas.js';
import { assertScopeAll, type LogRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/log/login',
  tags: ['Log'],
  summary: 'Clear the login log',
  responses: envelopeResponses(ClearedSchema),
});

export function register(ctx: RegisterContext, d: Pick<LogRouteDeps, 'loginLogs' | 'scopes'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Log' }, async (c) => {
    // Clearing takes every row, those of users outside the caller's scope too.
    await assertScopeAll(c, d);
    return c.json(ok({ cleared: await d.loginLogs.deleteAll() }), 200);
  });
}

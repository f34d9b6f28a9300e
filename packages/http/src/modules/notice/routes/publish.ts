/**
 * `POST /api/v1/sys/notice`: publishes a notice (45002 no receivers, 45003 unknown receiver, 45004 bad action,
 * 41001 a POST action whose route needs a code the publisher lacks, or one sent to everyone, the super admin or
 * someone above the publisher; 41005 receivers beyond the publisher's data scope: everyone or a role but for scope
 * All, a user id that is no user inside it).
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { publishNotice } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses, IdSchema } from '../../../openapi/schemas.js';
import { requirePrincipal } from '../../../security/principal.js';
import { actionRank, assertOutranksReceivers } from '../action-rank.js';
import type { NoticeServices } from '../services.js';
import { NoticePublishSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/notice',
  tags: ['Notice'],
  summary: 'Publish a notice',
  request: { body: { required: true, content: { 'application/json': { schema: NoticePublishSchema } } } },
  responses: envelopeResponses(IdSchema),
});

export function register(
  ctx: RegisterContext,
  d: Pick<NoticeServices, 'notices' | 'codesOf' | 'scopeOf' | 'actorOf' | 'repos'>,
): void {
  const assertActionsHeld = actionRank(ctx.table, d.codesOf);
  registerRoute(ctx, route, { auth: 'permission', module: 'Notice' }, async (c) => {
    const body = c.req.valid('json');
    const principal = requirePrincipal(c);
    // An acting POST action goes only to receivers the publisher outranks: checked on the list it is delivered to.
    const acting = await assertActionsHeld(principal, body.actions);
    const actor = acting ? d.actorOf(principal) : undefined;
    const id = await publishNotice(d.notices, body, principal.userId, {
      scope: await d.scopeOf(principal),
      checkReceivers: actor && ((userIds) => assertOutranksReceivers(d, actor, body.receiverType, userIds)),
    });
    return c.json(ok({ id }), 200);
  });
}

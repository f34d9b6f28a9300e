/** Shapes of the notice routes (module `Notice`). */
import { z } from '@hono/zod-openapi';
import type { SysNoticeRow } from '@svc/data';

const noNul = (v: string) => !v.includes('\u0000');

/** One action button. The URL is checked by the service (45004 with `args.index`), not here. */
export const NoticeActionSchema = z
  .object({
    label: z.string().trim().min(1).max(64).refine(noNul, 'must not contain NUL'),
    method: z.enum(['GET', 'POST']),
    url: z.string().max(2000).openapi({ description: 'Same-origin path: exactly one leading "/".' }),
    style: z.string().max(32).refine(noNul, 'must not contain NUL').optional(),
    confirm: z.string().max(200).refine(noNul, 'must not contain NUL').optional(),
    comment: z.string().max(500).refine(noNul, 'must not contain NUL').optional(),
  })
  .strict()
  .openapi('NoticeAction');

export const NoticePublishSchema = z
  .object({
    title: z.string().trim().min(1).max(128).refine(noNul, 'must not contain NUL'),
    content: z.string().max(2000).refine(noNul, 'must not contain NUL').nullable().optional(),
    type: z
      .union([z.literal(1), z.literal(2), z.literal(3)])
      .openapi({ description: '1 Notice, 2 Announcement, 3 Message.' }),
    receiverType: z
      .union([z.literal(0), z.literal(1), z.literal(2)])
      .openapi({ description: '0 All, 1 Role, 2 User.' }),
    receiverIds: z
      .array(z.number().int().positive())
      .max(10_000)
      .optional()
      .openapi({ description: 'Role ids (Role) or user ids (User); ignored for All.' }),
    actions: z.array(NoticeActionSchema).max(10).optional(),
  })
  .strict()
  .openapi('NoticePublish');

export const NoticeSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    content: z.string().nullable(),
    type: z.number().int(),
    receiverType: z.number().int(),
    actions: z.array(NoticeActionSchema),
    publishTime: z.string(),
    createUserId: z.number().int().nullable(),
  })
  .openapi('Notice');

export const MyNoticeSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    content: z.string().nullable(),
    type: z.number().int(),
    publishTime: z.string(),
    isRead: z.boolean(),
    actions: z.array(NoticeActionSchema),
  })
  .openapi('MyNotice');

export const noticeDto = (r: SysNoticeRow): z.infer<typeof NoticeSchema> => ({
  id: r.id,
  title: r.title,
  content: r.content,
  type: r.type,
  receiverType: r.receiverType,
  actions: r.actionsJson ? (JSON.parse(r.actionsJson) as z.infer<typeof NoticeActionSchema>[]) : [],
  publishTime: r.publishTime.toISOString(),
  createUserId: r.createUserId,
});

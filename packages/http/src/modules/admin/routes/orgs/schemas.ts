/** Write bodies of the organisation routes. */
import { z } from '@hono/zod-openapi';
import { code64, name64, optPhone, optText, sortSchema } from '../../../../admin/schemas.js';

const orgFields = {
  parentId: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .openapi({ description: '0 = top level.' }),
  name: name64,
  code: code64,
  sort: sortSchema.optional(),
  enabled: z.boolean().optional(),
  leader: optText(64),
  phone: optPhone,
  remark: optText(500),
};

export const CreateOrgSchema = z.object(orgFields).strict().openapi('CreateOrg');

export const UpdateOrgSchema = z
  .object({ ...orgFields, name: name64.optional(), code: code64.optional() })
  .strict()
  .openapi('UpdateOrg');

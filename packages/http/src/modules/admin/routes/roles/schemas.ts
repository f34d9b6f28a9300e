/** Write bodies of the role routes. */
import { z } from '@hono/zod-openapi';
import { code64, name64, optText, sortSchema } from '../../../../admin/schemas.js';

const roleFields = {
  name: name64,
  code: code64,
  sort: sortSchema.optional(),
  enabled: z.boolean().optional(),
  remark: optText(500),
};

export const CreateRoleSchema = z.object(roleFields).strict().openapi('CreateRole');

export const UpdateRoleSchema = z
  .object({ ...roleFields, name: name64.optional(), code: code64.optional() })
  .strict()
  .openapi('UpdateRole');

export const RoleDataScopeSchema = z
  .object({
    scopeType: z
      .number()
      .int()
      .min(1)
      .max(5)
      .openapi({ description: '1 All, 2 own Org, 3 Org and children, 4 Self, 5 Custom.' }),
    customOrgIds: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .max(1000)
      .default([])
      .openapi({ description: 'Organisations of a Custom (5) scope; ignored for other types.' }),
  })
  .strict()
  .openapi('RoleDataScope');

/** Write bodies of the menu routes. */
import { z } from '@hono/zod-openapi';
import { MenuTypeSchema, optText, sortSchema } from '../../../../admin/schemas.js';

const menuFields = {
  parentId: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .openapi({ description: '0 = top level.' }),
  type: MenuTypeSchema,
  title: z.string().trim().min(1).max(64),
  permission: z
    .string()
    .max(2000)
    .nullable()
    .optional()
    .openapi({ description: 'Codes joined by `;` (`METHOD:/api/v1/...`), normalised on save.' }),
  path: optText(200),
  component: optText(200),
  icon: optText(64),
  sort: sortSchema.optional(),
  enabled: z.boolean().optional(),
  hidden: z.boolean().optional(),
  moduleId: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .nullable()
    .optional()
    .openapi({ description: 'Portal module (`sys_module.id`) of a top-level menu; 42011 when unknown.' }),
  remark: optText(500),
};

export const CreateMenuSchema = z.object(menuFields).strict().openapi('CreateMenu');

export const UpdateMenuSchema = z
  .object({ ...menuFields, type: MenuTypeSchema.optional(), title: menuFields.title.optional() })
  .strict()
  .openapi('UpdateMenu');

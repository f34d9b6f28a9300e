/** Write bodies of the position routes. */
import { z } from '@hono/zod-openapi';
import { code64, name64, optText, sortSchema } from '../../../../admin/schemas.js';

const positionFields = {
  name: name64,
  code: code64,
  sort: sortSchema.optional(),
  enabled: z.boolean().optional(),
  remark: optText(500),
};

export const CreatePositionSchema = z.object(positionFields).strict().openapi('CreatePosition');

export const UpdatePositionSchema = z
  .object({ ...positionFields, name: name64.optional(), code: code64.optional() })
  .strict()
  .openapi('UpdatePosition');

/** Path parameters of the recycle-bin routes. */
import { z } from '@hono/zod-openapi';
import { IdParamSchema } from '../../../admin/schemas.js';
import { noNul } from '../../../openapi/query.js';

const type = z
  .string()
  .max(64)
  .refine(noNul, 'must not contain NUL')
  .openapi({
    param: { name: 'type', in: 'path' },
    description: '`user`, `role`, or a type a consumer registered.',
  });

export const TypeParamSchema = z.object({ type });
export const TypeIdParamSchema = IdParamSchema.extend({ type });

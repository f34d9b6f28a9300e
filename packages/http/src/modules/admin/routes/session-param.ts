/** `{sessionId}` in a path: a GUID (anything else answers 48000 naming `sessionId`). */
import { z } from '@hono/zod-openapi';

export const SessionIdParamSchema = z.object({
  sessionId: z
    .string()
    .regex(
      /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
      'must be a session id',
    )
    .transform((s) => s.toLowerCase())
    .openapi({ param: { name: 'sessionId', in: 'path' }, format: 'uuid' }),
});

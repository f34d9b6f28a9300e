/**
 * `POST /api/v1/sys/file/chunk` (multipart `uploadId`, `index`, then `chunk`): stores one chunk, streamed to
 * disk. The fields must come before the chunk part (the body is read once, as it arrives). Its body limit is
 * the upload one (`Upload:MaxSizeMb`).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, ok } from '@svc/kernel';
import { readHeader } from '../../../context.js';
import { discardRest } from '../../../middleware/body-limit.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { setOpLogBody } from '../../../ops/op-log.js';
import { actorIdOf } from '../../../security/principal.js';
import { boundaryOf, MultipartError, multipartEvents } from '../multipart.js';
import type { UploadRouteDeps } from '../services.js';

export const ChunkPath = '/api/v1/sys/file/chunk';

export const route = createRoute({
  method: 'post',
  path: ChunkPath,
  tags: ['File'],
  summary: 'Upload one chunk',
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              uploadId: { type: 'string' },
              index: { type: 'integer' },
              chunk: { type: 'string', format: 'binary' },
            },
            required: ['uploadId', 'index', 'chunk'],
          },
        },
      },
    },
  },
  responses: envelopeResponses(z.object({ index: z.number().int() })),
});

const invalid = (path: string, message: string) =>
  new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path, message }] });

/** Small fields are at most this long. */
const MAX_FIELD_CHARS = 128;

export function register(ctx: RegisterContext, d: Pick<UploadRouteDeps, 'chunks' | 'maxFileBytes'>): void {
  const policy = { auth: 'permission', module: 'Upload', bodyLimit: { upload: d.maxFileBytes } } as const;
  registerRoute(ctx, route, policy, async (c) => {
    const boundary = boundaryOf(readHeader(c, 'content-type'));
    const body = c.req.raw.body;
    if (!boundary || !body) throw invalid('chunk', 'multipart body expected');
    const reader = body.getReader();
    const fields: Record<string, string> = {};
    let stored = false;
    try {
      const events = multipartEvents(
        (async function* () {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            yield value;
          }
        })(),
        boundary,
      );
      let current: string | undefined;
      for await (const event of events) {
        if (event.kind === 'part') {
          current = event.name;
          if (current === 'chunk') {
            const uploadId = fields.uploadId ?? '';
            const index = fields.index ?? '';
            if (stored) throw invalid('chunk', 'one chunk per request');
            // The rest of this part is the chunk: hand the generator's data events to the store.
            await d.chunks.writeChunk(uploadId, index, actorIdOf(c), dataOf(events));
            stored = true;
            current = undefined;
          } else fields[current] = '';
          continue;
        }
        if (event.kind === 'data' && current !== undefined) {
          fields[current] += Buffer.from(event.chunk).toString('utf8');
          if ((fields[current] ?? '').length > MAX_FIELD_CHARS) throw invalid(current, 'too long');
        }
      }
    } catch (error) {
      await discardRest(reader);
      if (error instanceof MultipartError) throw invalid('chunk', error.message);
      throw error;
    }
    if (!stored) throw invalid('chunk', 'a chunk is required');
    setOpLogBody(c, { uploadId: fields.uploadId, index: fields.index });
    return c.json(ok({ index: Number(fields.index) }), 200);
  });
}

/**
 * The data events of the current part, ending at the next part or the end. A `part` event that ends the chunk
 * means another part follows: that is refused (the chunk must be the last part).
 */
async function* dataOf(events: AsyncGenerator<import('../multipart.js').MultipartEvent>) {
  for (;;) {
    const next = await events.next();
    if (next.done) return;
    const event = next.value;
    if (event.kind === 'data') {
      yield event.chunk;
      continue;
    }
    if (event.kind === 'end') return;
    throw invalid('chunk', 'the chunk must be the last part');
  }
}

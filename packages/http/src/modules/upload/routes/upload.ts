/**
 * `POST /api/v1/sys/file/upload` (multipart field `file`): checks size (44002), emptiness (44001) and extension
 * (44003), stores under a generated name and answers the row with its signed `viewUrl`. This route is exempt
 * from the 1 MiB JSON body limit; its own limit is `Upload:MaxSizeMb` (see middleware/body-limit.ts). The body
 * is streamed to disk as it arrives and the size is enforced while streaming (issue 11): memory stays flat
 * under parallel large uploads.
 */

import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, isBusinessError, ok } from '@svc/kernel';
import type { FileStore, StoredUpload, UploadSink } from '@svc/modules';
import { UploadErrorCode } from '@svc/modules';
import type { Context } from 'hono';
import { readHeader } from '../../../context.js';
import { closeAfterAnswer, discardRest } from '../../../middleware/body-limit.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { setOpLogBody } from '../../../ops/op-log.js';
import { actorIdOf } from '../../../security/principal.js';
import { boundaryOf, MultipartError, multipartEvents } from '../multipart.js';
import type { UploadRouteDeps } from '../services.js';

export const UploadPath = '/api/v1/sys/file/upload';

export const UploadResultSchema = z
  .object({
    id: z.number().int(),
    originalName: z.string(),
    sizeBytes: z.number().int(),
    contentType: z.string(),
    viewUrl: z.string(),
  })
  .openapi('UploadResult');

export const route = createRoute({
  method: 'post',
  path: UploadPath,
  tags: ['File'],
  summary: 'Upload a file',
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          // A plain OpenAPI schema, not a zod one: zod-openapi would validate it by parsing the whole form into
          // memory before the handler; the handler streams the body itself.
          schema: {
            type: 'object',
            properties: { file: { type: 'string', format: 'binary' } },
            required: ['file'],
          },
        },
      },
    },
  },
  responses: envelopeResponses(UploadResultSchema),
});

/** Small form fields beside the file are not used; a body carrying more of them than this is refused. */
const MAX_FIELD_BYTES = 64 * 1024;

function invalid(message: string): BusinessError {
  return new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path: 'file', message }] });
}

/** A reader's chunks as an async iterable, leaving the reader usable for discarding the rest after an error. */
async function* chunksOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/**
 * Streams the multipart body: the part named `file` goes straight to the file store (checked while it
 * arrives), other parts are skipped. On any refusal the rest of the body is read and discarded first, so the
 * client reads the answer; a connection that could not be drained is closed after it.
 */
async function receive(c: Context, files: FileStore): Promise<StoredUpload> {
  const boundary = boundaryOf(readHeader(c, 'content-type'));
  const body = c.req.raw.body;
  if (!boundary || !body) throw invalid('multipart body expected');
  const reader = body.getReader();
  let sink: UploadSink | undefined;
  let stored: StoredUpload | undefined;
  let fieldBytes = 0;
  let inFile = false;
  try {
    for await (const event of multipartEvents(chunksOf(reader), boundary)) {
      if (event.kind === 'data') {
        if (inFile && sink) {
          await sink.write(event.chunk);
        } else {
          fieldBytes += event.chunk.byteLength;
          if (fieldBytes > MAX_FIELD_BYTES) throw invalid('form fields too large');
        }
        continue;
      }
      // A part ends where the next begins or the body ends; only the first `file` part with a name is kept.
      if (inFile && sink) stored = await sink.finish();
      inFile = event.kind === 'part' && event.name === 'file' && event.filename !== undefined && !sink;
      if (inFile && event.kind === 'part') sink = await files.begin(event.filename ?? '');
    }
  } catch (error) {
    if (sink && !stored) await sink.abort();
    if (stored) await files.remove(stored.storageKey);
    const drained = await discardRest(reader);
    if (!drained || (isBusinessError(error) && error.code === UploadErrorCode.FileTooLarge.code))
      closeAfterAnswer(c);
    if (error instanceof MultipartError) throw invalid(error.message);
    throw error;
  }
  if (!stored) throw invalid('a file is required');
  return stored;
}

export function register(
  ctx: RegisterContext,
  d: Pick<UploadRouteDeps, 'fileRows' | 'files' | 'links' | 'now' | 'maxFileBytes'>,
): void {
  const policy = { auth: 'permission', module: 'Upload', bodyLimit: { upload: d.maxFileBytes } } as const;
  registerRoute(ctx, route, policy, async (c) => {
    const stored = await receive(c, d.files);
    // The body is consumed by now: the operation log gets the file's description from here.
    setOpLogBody(c, {
      file: { fileName: stored.originalName, size: stored.sizeBytes, type: stored.contentType },
    });
    let id: number;
    try {
      id = await d.fileRows.insert({
        ...stored,
        createTime: d.now(),
        createUserId: actorIdOf(c),
      });
    } catch (error) {
      await d.files.remove(stored.storageKey);
      throw error;
    }
    return c.json(
      ok({
        id,
        originalName: stored.originalName,
        sizeBytes: stored.sizeBytes,
        contentType: stored.contentType,
        viewUrl: d.links.viewUrl(id),
      }),
      200,
    );
  });
}

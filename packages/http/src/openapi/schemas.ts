/**
 * Schemas shared by every route: the envelope around a payload, the error envelope, paging.
 */
import { z } from '@hono/zod-openapi';

/** `code` of the envelope: a reference to the `ErrorCode` component (int32, open set, see document.ts). */
export const ErrorCodeSchema = z.number().int().openapi('ErrorCode');

export const ErrorEnvelopeSchema = z
  .object({
    code: ErrorCodeSchema,
    msgKey: z.string(),
    data: z.null(),
    args: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('ErrorEnvelope');

/** The success envelope around `data`. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({
    code: ErrorCodeSchema,
    msgKey: z.string(),
    data,
    args: z.record(z.string(), z.unknown()).optional(),
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorEnvelopeSchema } },
});

/** Responses every API route may give besides its success. */
export const commonErrorResponses = {
  401: errorResponse('Missing, expired or revoked credentials (40006, 40027).'),
  403: errorResponse('No permission (41001), demo mode (41002), re-authentication needed (40024).'),
  429: errorResponse('Rate limited (40008); see `Retry-After`.'),
  500: errorResponse('Unhandled error (50000); `args.traceId` names the exception log row.'),
} as const;

/** The success response of an envelope route (business failures are also HTTP 200 with a non-zero code). */
export function envelopeResponses<T extends z.ZodType>(
  data: T,
  description = 'Envelope; `code` 0 on success.',
) {
  return {
    200: { description, content: { 'application/json': { schema: envelopeOf(data) } } },
    ...commonErrorResponses,
  } as const;
}

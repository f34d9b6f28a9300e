/**
 * Schemas shared by every route: the envelope around a payload, the error envelope, paging.
 */
import { z } from '@hono/zod-openapi';
import { ErrorCode } from '@svc/kernel';

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

const errorResponse = (description: string, example: { code: number; msgKey: string }) => ({
  description,
  content: {
    'application/json': {
      schema: ErrorEnvelopeSchema,
      example: { code: example.code, msgKey: example.msgKey, data: null },
    },
  },
});

/** Responses every API route may give besides its success. */
export const commonErrorResponses = {
  401: errorResponse('Missing, expired or revoked credentials (40006, 40027).', ErrorCode.TokenInvalid),
  403: errorResponse(
    'No permission (41001), demo mode (41002), re-authentication needed (40024).',
    ErrorCode.NoPermission,
  ),
  429: errorResponse('Rate limited (40008); see `Retry-After`.', ErrorCode.TooManyRequests),
  500: errorResponse(
    'Unhandled error (50000); `args.traceId` names the exception log row.',
    ErrorCode.SystemError,
  ),
} as const;

/**
 * The HTTP 200 answer of an envelope route: the success envelope (`code` 0, `data` the payload) or the error
 * envelope (`code` non-zero, `data` null), because business failures are HTTP 200 too. Documented as a union so a
 * generated client must look at `code` before it reads `data`.
 */
export function envelopeResponses<T extends z.ZodType>(
  data: T,
  description = 'Success envelope (`code` 0) or a business failure (`code` non-zero, `data` null).',
) {
  return {
    200: {
      description,
      content: { 'application/json': { schema: z.union([envelopeOf(data), ErrorEnvelopeSchema]) } },
    },
    ...commonErrorResponses,
  } as const;
}

/** `{cleared}` of the cache actions and log clears. */
export const ClearedSchema = z.object({ cleared: z.number().int() }).openapi('Cleared');

/** `{id}` of a create. */
export const IdSchema = z.object({ id: z.number().int() }).openapi('CreatedId');

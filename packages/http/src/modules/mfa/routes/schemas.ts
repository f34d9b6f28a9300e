/** Schemas of the second-factor routes (contract §5). Write bodies refuse unknown properties. */
import { z } from '@hono/zod-openapi';

/** Challenge ids are GUIDs; anything longer is refused before it reaches the cache. */
export const ChallengeIdSchema = z.string().min(1).max(64);
/**
 * Codes are short; the services read them without ASCII whitespace (`123 456` as apps show it) and answer a
 * wrong one with its own code (40010, 40019, 40022). Whitespace alone is no code: 48000, as an empty one is.
 */
export const CodeSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/[^\t\n\f\r ]/, 'A code, not only whitespace.');
/** A phone number: digits with an optional leading `+`. */
export const PhoneSchema = z
  .string()
  .trim()
  .regex(/^\+?\d{5,20}$/, 'Digits with an optional leading +.');
export const AccountSchema = z.string().min(1).max(64);
export const PasswordSchema = z.string().min(1).max(128);

/** Captcha answer of the anonymous password doors, as at login (contract §10: required while captcha is on). */
export const captchaFields = {
  captchaId: z.string().max(64).optional(),
  captchaCode: z.string().max(16).optional(),
};

export const ChallengeCodeBody = z.object({ challengeId: ChallengeIdSchema, code: CodeSchema }).strict();

export const SmsSendResultSchema = z
  .object({ expiresSeconds: z.number().int(), resendSeconds: z.number().int() })
  .openapi('SmsSendResult');

/** A JSON body, required. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});

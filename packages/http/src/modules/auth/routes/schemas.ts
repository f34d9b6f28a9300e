/** Schemas of the authentication routes (spec "Login output", contract §5). */
import { z } from '@hono/zod-openapi';

export const LoginOutputSchema = z
  .object({
    accessToken: z.string(),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    refreshToken: z
      .string()
      .openapi({ description: 'Empty in cookie session mode (the `app_rt` cookie carries it).' }),
    refreshExpiresAt: z.string().openapi({ format: 'date-time' }),
    mustChangePassword: z.boolean(),
    sessionMode: z.enum(['cookie', 'token']),
    csrfRequired: z.boolean(),
    userId: z.number().int(),
    account: z.string(),
    name: z.string(),
    isSuperAdmin: z.boolean(),
  })
  .openapi('LoginOutput');

/** Accounts and passwords are bounded so that a hash is never computed over megabytes. */
export const AccountSchema = z.string().min(1).max(64);
export const PasswordSchema = z.string().min(1).max(128);

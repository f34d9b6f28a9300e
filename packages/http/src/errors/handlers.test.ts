import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { validationErrors } from './handlers.js';

describe('validation errors', () => {
  it('name each failing path, and each unknown property by its own path', () => {
    const schema = z
      .object({ name: z.string().min(2), nested: z.object({ n: z.number() }).strict() })
      .strict();
    const result = schema.safeParse({ name: 'a', isSuperAdmin: true, nested: { n: 1, password: 'x' } });
    expect(result.success).toBe(false);
    const errors = validationErrors(result.error!);
    expect(errors.map((e) => e.path).sort()).toEqual(['isSuperAdmin', 'name', 'nested.password']);
    expect(errors.find((e) => e.path === 'isSuperAdmin')?.message).toBe('Unrecognized key');
  });
});

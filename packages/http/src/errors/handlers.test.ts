import { z } from '@hono/zod-openapi';
import { CacheUnavailableError } from '@svc/data/cache';
import { describe, expect, it } from 'vitest';
import { outageOf, validationErrors } from './handlers.js';

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

describe('outage recognition', () => {
  it('names the database for driver connection and timeout errors, wrapped or not, and nothing else', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('Failed query: select 1\nparams: ', { cause: refused });
    const statementTimeout = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    expect(outageOf(wrapped)).toBe('database');
    expect(outageOf(new AggregateError([refused]))).toBe('database');
    expect(outageOf(statementTimeout)).toBe('database');
    expect(outageOf(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(
      'database',
    );
    const mariaTimeout = Object.assign(
      new Error('Query execution was interrupted (max_statement_time exceeded)'),
      {
        errno: 1969,
      },
    );
    expect(outageOf(mariaTimeout)).toBe('database');
    expect(outageOf(new CacheUnavailableError('Redis is down'))).toBe('cache');
    // A wrong statement or a bug stays a 500 that is recorded.
    expect(
      outageOf(Object.assign(new Error('relation "x" does not exist'), { code: '42P01' })),
    ).toBeUndefined();
    expect(outageOf(new TypeError('x is undefined'))).toBeUndefined();
  });
});

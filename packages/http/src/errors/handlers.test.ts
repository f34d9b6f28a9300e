import { z } from '@hono/zod-openapi';
import { CacheUnavailableError } from '@svc/data/cache';
import { ErrorCodeRegistry, type Logger } from '@svc/kernel';
import type { ExceptionRecorder } from '@svc/logging';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createErrorHandler, outageOf, validationErrors } from './handlers.js';

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

describe('the error handler', () => {
  /** An app whose one route throws `error`, answered by the handler; what it logged and recorded. */
  function throwing(error: unknown) {
    const warned: string[] = [];
    const recorded: unknown[] = [];
    const logger = { warn: (m: string) => warned.push(m), debug: () => {} } as unknown as Logger;
    const exceptions = {
      record: async (e: unknown) => void recorded.push(e),
    } as unknown as ExceptionRecorder;
    const app = new Hono();
    app.onError(createErrorHandler({ errors: new ErrorCodeRegistry(), exceptions, logger }) as never);
    app.post('/x', () => {
      throw error;
    });
    return { app, warned, recorded };
  }
  const reset = () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

  it('answers a client that hung up mid-body with 48000, not as a database outage (no warning)', async () => {
    const { app, warned, recorded } = throwing(reset());
    const gone = { incoming: { destroyed: true, complete: false } };
    const res = await app.request('/x', { method: 'POST' }, gone);
    expect(((await res.json()) as { code: number }).code).toBe(48000);
    expect(warned).toEqual([]);
    expect(recorded).toEqual([]);
    // The same error while the client is still there is an outage, and warned about.
    const there = throwing(reset());
    const outage = await there.app.request('/x', { method: 'POST' }, { incoming: { complete: true } });
    expect([outage.status, ((await outage.json()) as { code: number }).code]).toEqual([503, 50003]);
    expect(there.warned).toHaveLength(1);
  });

  it('answers text the database cannot store (PostgreSQL 22021) with 48000, recording nothing', async () => {
    const nul = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
    });
    const { app, recorded } = throwing(new Error('Failed query', { cause: nul }));
    const res = await app.request('/x', { method: 'POST' });
    expect([res.status, ((await res.json()) as { code: number }).code]).toEqual([200, 48000]);
    expect(recorded).toEqual([]);
  });
});

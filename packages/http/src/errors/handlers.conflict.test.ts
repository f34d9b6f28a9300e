import type { Database } from '@svc/data';
import { type OpenTestDatabase, openTestDatabase } from '@svc/data/testing';
import { ErrorCodeRegistry, type Logger } from '@svc/kernel';
import type { ExceptionRecorder } from '@svc/logging';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErrorHandler } from './handlers.js';

/** InnoDB's deadlock victim as mysql2 reports it, wrapped as drizzle wraps a failed statement. */
const deadlock = () =>
  new Error('Failed query: update sys_user set remark = ?\nparams: x', {
    cause: Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
      errno: 1213,
      code: 'ER_LOCK_DEADLOCK',
      sqlState: '40001',
    }),
  });

describe('a transaction that stays a deadlock victim', () => {
  let inserts = 0;
  let t: OpenTestDatabase;
  let database: Database;
  beforeAll(async () => {
    t = await openTestDatabase('Sqlite');
    database = t.database;
  });
  afterAll(() => t?.cleanup());

  /** An app whose one route runs `work` in a real transaction; what it warned about and recorded. */
  function app(work: () => Promise<void>) {
    const warned: string[] = [];
    const recorded: unknown[] = [];
    const logger = { warn: (m: string) => warned.push(m), debug: () => {} } as unknown as Logger;
    const exceptions = {
      record: async (e: unknown) => void recorded.push(e),
    } as unknown as ExceptionRecorder;
    const hono = new Hono();
    hono.onError(createErrorHandler({ errors: new ErrorCodeRegistry(), exceptions, logger }) as never);
    hono.post('/x', async (c) => {
      await database.adapter.transaction(database.db, async (tx) => {
        // Codes are unique among live organisations: a run that commits must not make the next one a conflict.
        await tx.insert(database.tables.sysOrg).values({ name: 'victim', code: `victim-${++inserts}` });
        await work();
      });
      return c.json({ code: 0 });
    });
    return { hono, warned, recorded };
  }

  it('answers 503 with 50003 and Retry-After once its runs are spent, never a recorded 500', async () => {
    let runs = 0;
    const { hono, warned, recorded } = app(async () => {
      runs += 1;
      throw deadlock();
    });
    const res = await hono.request('/x', { method: 'POST' });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: number }).code).toBe(50003);
    expect(res.headers.get('Retry-After')).toBe('1');
    expect(runs).toBe(3);
    expect(recorded).toEqual([]);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/lock conflict/);
    const again = await hono.request('/x', { method: 'POST' });
    expect(again.status).toBe(503);
    // One warning a minute, not one a request.
    expect(warned).toHaveLength(1);
    const left = await database.db.select().from(database.tables.sysOrg);
    expect(left.filter((o) => o.name === 'victim')).toEqual([]);
  });

  it('answers 200 when a later run gets through', async () => {
    let runs = 0;
    const { hono, recorded } = app(async () => {
      runs += 1;
      if (runs < 3) throw deadlock();
    });
    const res = await hono.request('/x', { method: 'POST' });
    expect([res.status, runs, recorded]).toEqual([200, 3, []]);
  });

  it('keeps the warning of a real outage: a conflict is reported apart from it', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
    let failure: Error = deadlock();
    const { hono, warned } = app(async () => {
      throw failure;
    });
    expect((await hono.request('/x', { method: 'POST' })).status).toBe(503);
    failure = refused;
    const outage = await hono.request('/x', { method: 'POST' });
    expect([outage.status, outage.headers.get('Retry-After')]).toEqual([503, '5']);
    expect(warned).toHaveLength(2);
    expect(warned[1]).toMatch(/database is unavailable/);
  });
});

/**
 * Per-dialect test fixtures: what a thin test runner hands to a contract suite. They hold the few
 * dialect-specific probes a suite needs to look beneath the adapter, such as how a timestamp is stored.
 */
import type { DbType } from '@svc/kernel';
import { type Column, type SQL, sql } from 'drizzle-orm';
import type { Cache } from '../cache/port.js';
import type { NewOpLog } from '../repositories/op-logs.js';

export interface DialectFixture {
  dbType: DbType;
  /** SQL rendering the stored instant in `column` as UTC text `YYYY-MM-DD HH:MM:SS.mmm`, computed by the
   * database itself (so a driver that shifted values by the local time zone would be caught). */
  utcText(column: Column): SQL<string>;
}

export const dialectFixtures: Record<DbType, DialectFixture> = {
  Sqlite: {
    dbType: 'Sqlite',
    utcText: (c) => sql<string>`strftime('%Y-%m-%d %H:%M:%f', ${c} / 1000.0, 'unixepoch')`,
  },
  PostgreSQL: {
    dbType: 'PostgreSQL',
    utcText: (c) => sql<string>`to_char(${c} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')`,
  },
  MySql: {
    dbType: 'MySql',
    utcText: (c) => sql<string>`left(date_format(${c}, '%Y-%m-%d %H:%i:%s.%f'), 23)`,
  },
  SqlServer: {
    dbType: 'SqlServer',
    utcText: (c) => sql<string>`format(${c}, 'yyyy-MM-dd HH:mm:ss.fff')`,
  },
};

/** An operation-log row of plain values, with what a test looks at given in `fields`. */
export function opLogRow(fields: Partial<NewOpLog> = {}): NewOpLog {
  return {
    title: 'op',
    httpMethod: 'POST',
    path: '/x',
    paramJson: null,
    resultCode: 0,
    success: true,
    elapsedMs: 1,
    operatorId: 1,
    operatorName: 'a',
    ip: null,
    userAgent: null,
    traceId: null,
    createTime: new Date(0),
    ...fields,
  };
}

/**
 * A pub/sub whose subscribers hear a message only when the test calls `deliver`, as Redis delivers it some time
 * after the publish (the in-process bus delivers at once, which hides an echo that comes back late).
 */
export function latePubSub(): { cache: Pick<Cache, 'publish' | 'subscribe'>; deliver(): void } {
  const handlers: ((message: unknown) => void)[] = [];
  const sent: unknown[] = [];
  const cache = {
    async publish(_channel: string, message: unknown) {
      sent.push(message);
    },
    async subscribe(_channel: string, handler: (message: unknown) => void) {
      handlers.push(handler);
      return async () => {};
    },
  } as unknown as Pick<Cache, 'publish' | 'subscribe'>;
  const deliver = () => {
    for (const message of sent.splice(0)) for (const handler of handlers) handler(message);
  };
  return { cache, deliver };
}

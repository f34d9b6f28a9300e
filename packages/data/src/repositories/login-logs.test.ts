/** The login log keeps only a known method: a row replayed from a spill file may carry anything. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenTestDatabase, openTestDatabase } from '../testing/test-database.js';
import { createRepositories } from './index.js';
import type { LoginMethod } from './login-logs.js';

describe('login log method', () => {
  let t: OpenTestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase('Sqlite');
  });
  afterAll(() => t?.cleanup());

  it('stores a known method and null for a value outside the set', async () => {
    const logs = createRepositories(t.database).loginLogs;
    const entry = { account: 'ann', success: false, resultCode: 40001, createTime: new Date() };
    await logs.insert({ ...entry, method: 'passkey' });
    // As a replayed spill line could hold it: longer than the column and outside the set.
    await logs.insert({ ...entry, method: 'a-method-no-one-knows-of' as LoginMethod });
    // The stored column itself (the page maps an unknown value to null on reading, which would hide it).
    const stored = await t.database.db
      .select({ method: t.database.tables.sysLoginLog.method })
      .from(t.database.tables.sysLoginLog);
    expect(stored.map((r) => r.method)).toEqual(['passkey', null]);
  });
});

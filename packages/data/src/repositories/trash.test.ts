/**
 * The generic purge refuses users: a user deleted for good goes through repos.users.purge, which the composition
 * root decorates so the modules remove what they keep of the user. A caller past the type still gets refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenTestDatabase, openTestDatabase } from '../testing/test-database.js';
import { createRepositories } from './index.js';
import type { TrashPurgeKey } from './trash.js';

describe('trash purge', () => {
  let t: OpenTestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase('Sqlite');
  });
  afterAll(() => t?.cleanup());

  it('refuses to purge a user and leaves the row; purges another table’s row', async () => {
    const repos = createRepositories(t.database);
    const at = new Date();
    const userId = await repos.users.insert({ account: 'binned', realName: 'Binned', password: 'h' });
    await repos.users.softDelete([userId], { userId: null, at });
    await expect(repos.trash.purge('sysUser' as TrashPurgeKey, userId)).rejects.toThrow(
      'Users are purged through repos.users.purge.',
    );
    expect(await repos.users.findById(userId, { includeDeleted: true })).toMatchObject({ id: userId });

    const positionId = await repos.positions.insert({ name: 'Binned', code: 'binned' });
    await repos.positions.softDelete(positionId, { userId: null, at });
    expect(await repos.trash.purge('sysPosition', positionId)).toBe(true);
    expect(await repos.trash.findDeleted('sysPosition', positionId)).toBeUndefined();
  });
});

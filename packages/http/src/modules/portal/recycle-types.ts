/** The recycle-bin type of module `Module`: portal modules (the portal generation is bumped at restore and purge). */
import type { Repositories } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import {
  deleteCodeOf,
  PORTAL_GENERATION_KEY,
  type RecycleBinType,
  softDeleteRecycleType,
} from '@svc/security';

export function portalRecycleTypes(deps: {
  repos: Repositories;
  now: () => Date;
  cache: Pick<Cache, 'increment'>;
}): RecycleBinType[] {
  const bumped = async () => void (await deps.cache.increment(PORTAL_GENERATION_KEY));
  return [
    softDeleteRecycleType(deps, {
      type: 'module',
      codes: [deleteCodeOf('/sys/module/{id}')],
      title: 'Portal modules',
      table: 'sysModule',
      describe: (r) => ({ title: r.title, subtitle: r.code }),
      uniqueKey: (r) => ({ field: 'code', value: r.code }),
      afterRestore: bumped,
      afterPurge: bumped,
    }),
  ];
}

/**
 * The recycle-bin type of module `Job`: scheduled jobs. A restored job comes back paused (set by the restore
 * statement itself, so no scan ever sees it live and ready); an operator resumes it, which computes its next fire
 * from now. A purge takes the job's run log with it, in one transaction.
 */
import type { Repositories } from '@svc/data';
import { deleteCodeOf, type RecycleBinType, softDeleteRecycleType } from '@svc/security';

export function jobRecycleTypes(deps: { repos: Repositories; now: () => Date }): RecycleBinType[] {
  return [
    softDeleteRecycleType(deps, {
      type: 'job',
      codes: [deleteCodeOf('/sys/job/{id}')],
      title: 'Scheduled jobs',
      reauth: true,
      table: 'sysJob',
      describe: (r) => ({ title: r.name, subtitle: r.code }),
      uniqueKey: (r) => ({ field: 'code', value: r.code }),
      restoreValues: { status: 2 },
      purgeRow: (r) => deps.repos.jobs.purge(r.id),
    }),
  ];
}

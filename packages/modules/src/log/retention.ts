/**
 * The retention of the operation, login and exception logs (`Logging:RetentionDays`), as a reclaimer the
 * scheduled clean-up job runs.
 */
import type { Repositories } from '@svc/data';
import type { Reclaimer } from '../upload/chunks.js';

/**
 * `reclaim(now)` deletes the logs' rows older than `retentionDays` (0 keeps every row), a chunk at a time, and
 * answers how many went.
 * @example reclaimers.push(logRetentionReclaimer({ repos, retentionDays: config.service.Logging.RetentionDays }));
 */
export function logRetentionReclaimer(deps: {
  repos: Pick<Repositories, 'opLogs' | 'loginLogs' | 'exceptionLogs'>;
  retentionDays: number;
}): Reclaimer {
  return {
    name: 'logs',
    async reclaim(now) {
      const days = deps.retentionDays;
      if (days <= 0) return 0;
      const cutoff = new Date(now.getTime() - days * 86_400_000);
      const { opLogs, loginLogs, exceptionLogs } = deps.repos;
      let deleted = 0;
      for (const log of [opLogs, loginLogs, exceptionLogs]) deleted += await log.deleteOlderThan(cutoff);
      return deleted;
    },
  };
}

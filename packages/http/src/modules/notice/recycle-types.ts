/**
 * The recycle-bin type of module `Notice`. A restore puts the notice back into the inboxes it was published to
 * (receivers are told while module `Realtime` is on), a purge removes its receiver and read rows with it in one
 * transaction. As on the notice page, a caller sees only notices sent by users inside their scope (sender-less job
 * alerts: All only); bringing one back is publishing it again, so only to receivers the restorer could send to
 * now (41005).
 */
import type { Repositories } from '@svc/data';
import { assertRestorableWithin, type NoticeDeps, noticeRestored } from '@svc/modules';
import { deleteCodeOf, type RecycleBinType, softDeleteRecycleType } from '@svc/security';

export function noticeRecycleTypes(
  deps: Pick<NoticeDeps, 'realtime' | 'now'> & { repos: Repositories },
): RecycleBinType[] {
  const { repos } = deps;
  return [
    softDeleteRecycleType(deps, {
      type: 'notice',
      codes: [deleteCodeOf('/sys/notice/{id}')],
      title: 'Notices',
      table: 'sysNotice',
      scopedByCreator: true,
      describe: (r) => ({ title: r.title, subtitle: r.content }),
      checkRestore: async (actor, r) => assertRestorableWithin({ repos }, r, await actor.scope()),
      afterRestore: (_a, r) => noticeRestored(deps, r),
      purgeRow: (r) => repos.notices.purge(r.id),
    }),
  ];
}

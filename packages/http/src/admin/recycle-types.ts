/**
 * Recycle-bin entries of the kernel types whose rules live above the administration services: dictionary
 * types and items (the dictionary cache is invalidated), config rows (the key is invalidated), files (scoped by
 * uploader, bytes removed at purge), scheduled jobs (restored paused, run log purged with them), notices (scoped
 * by sender, restored only to receivers within the restorer's scope) and portal modules (the portal generation
 * is bumped). Each is one entry of the table-driven registry.
 */

import { BusinessError, ErrorCode } from '@svc/kernel';
import { assertRestorableWithin, noticeRestored } from '@svc/modules';
import {
  deleteCodeOf,
  PORTAL_GENERATION_KEY,
  type RecycleBinRegistry,
  type ResolvedRecycleDeps,
  softDeleteRecycleType,
} from '@svc/security';
import type { HttpDeps } from '../deps.js';
import { realtimeModule } from '../modules/realtime/index.js';
import { assertConfigKeyWritableBy } from '../ops/config-keys.js';
import { opsServicesFor } from '../ops/services.js';

export function registerKernelRecycleTypes(
  registry: RecycleBinRegistry,
  deps: Pick<HttpDeps, 'core' | 'config' | 'now' | 'logger' | 'modules'>,
): void {
  const { core } = deps;
  const { repos } = core;
  const bin: ResolvedRecycleDeps = { repos, now: deps.now };
  // Built lazily: the operations services are created on first use, after the administration services.
  const ops = () => opsServicesFor(deps);
  const off = (name: string) => !deps.modules.plan.isEnabled(name);
  const dictChanged = async (typeCode: string) => void (await (await ops().dicts).invalidate(typeCode));
  registry.register(
    softDeleteRecycleType(bin, {
      type: 'dict-type',
      codes: [deleteCodeOf('/sys/dict/type/{id}')],
      title: 'Dictionary types',
      table: 'sysDictType',
      describe: (r) => ({ title: r.name, subtitle: r.code }),
      uniqueKey: (r) => ({ field: 'code', value: r.code }),
      afterRestore: (_a, r) => dictChanged(r.code),
    }),
  );
  registry.register(
    softDeleteRecycleType(bin, {
      type: 'dict-item',
      codes: [deleteCodeOf('/sys/dict/item/{id}')],
      title: 'Dictionary items',
      table: 'sysDictItem',
      describe: (r) => ({ title: r.label, subtitle: `${r.typeCode}: ${r.value}` }),
      // Its value comes back into the type's unique index (a row kept as a duplicate by the migration too): 42021
      // when a live item of the type holds it now.
      uniqueKey: (r) => ({ field: 'value', value: r.value }),
      restoreValues: { liveExempt: false },
      // An item comes back only into a live type: restore the type first (43001).
      async checkRestore(_a, r) {
        if (!(await repos.dicts.getType(r.typeId)))
          throw new BusinessError(ErrorCode.DictTypeNotFound, { typeId: r.typeId });
      },
      afterRestore: (_a, r) => dictChanged(r.typeCode),
    }),
  );
  registry.register(
    softDeleteRecycleType(bin, {
      type: 'file',
      codes: [deleteCodeOf('/sys/file/{id}')],
      title: 'Files',
      table: 'sysFile',
      scopedByCreator: true,
      describe: (r) => ({ title: r.originalName, subtitle: r.contentType }),
      // Deleting keeps the bytes so that a restore gives the file back; purging removes them unless another row
      // still names them (an instant upload shares the bytes of the file it matched).
      afterPurge: async (_a, r) => {
        await ops().files.release(r.storageKey, () => repos.files.storageKeyInUse(r.storageKey));
      },
    }),
  );
  registry.register(
    softDeleteRecycleType(bin, {
      type: 'config',
      codes: [deleteCodeOf('/sys/config/{id}')],
      title: 'Configuration',
      reauth: true,
      table: 'sysConfig',
      describe: (r) => ({ title: r.name, subtitle: r.configKey }),
      uniqueKey: (r) => ({ field: 'configKey', value: r.configKey }),
      // Bringing a value back is writing it: the super admin's keys stay the super admin's (41001).
      checkRestore: async (actor, r) => assertConfigKeyWritableBy(actor.isSuperAdmin, r.configKey),
      // Readers of the key (the value route, consumers' cached reads) see it again on every instance.
      afterRestore: async (_a, r) => void (await ops().configs.invalidate(r.configKey)),
    }),
  );
  // Scheduled jobs join the bin while module `Job` is on. A restored job comes back paused (set by the restore
  // statement itself, so no scan ever sees it live and ready); an operator resumes it, which computes its next
  // fire from now. A purge takes the job's run log with it, in one transaction.
  if (!off('job'))
    registry.register(
      softDeleteRecycleType(bin, {
        type: 'job',
        codes: [deleteCodeOf('/sys/job/{id}')],
        title: 'Scheduled jobs',
        reauth: true,
        table: 'sysJob',
        describe: (r) => ({ title: r.name, subtitle: r.code }),
        uniqueKey: (r) => ({ field: 'code', value: r.code }),
        restoreValues: { status: 2 },
        purgeRow: (r) => repos.jobs.purge(r.id),
      }),
    );
  // Notices join the bin while module `Notice` is on: a restore puts the notice back into the inboxes it was
  // published to (receivers are told), a purge removes its receiver and read rows with it in one transaction. As
  // on the notice page, a caller sees only notices sent by users inside their scope (sender-less job alerts: All
  // only); bringing one back is publishing it again, so only to receivers the restorer could send to now (41005).
  if (!off('notice'))
    registry.register(
      softDeleteRecycleType(bin, {
        type: 'notice',
        codes: [deleteCodeOf('/sys/notice/{id}')],
        title: 'Notices',
        table: 'sysNotice',
        scopedByCreator: true,
        describe: (r) => ({ title: r.title, subtitle: r.content }),
        checkRestore: async (actor, r) => assertRestorableWithin({ repos }, r, await actor.scope()),
        // Read at restore time: module Realtime is built after Admin.
        afterRestore: (_a, r) =>
          noticeRestored({ repos, realtime: deps.modules.servicesIfOn(realtimeModule) }, r),
        purgeRow: (r) => repos.notices.purge(r.id),
      }),
    );
  // Portal modules join the bin only while the portal (module `Module`) is switched on.
  if (off('module')) return;
  registry.register(
    softDeleteRecycleType(bin, {
      type: 'module',
      codes: [deleteCodeOf('/sys/module/{id}')],
      title: 'Portal modules',
      table: 'sysModule',
      describe: (r) => ({ title: r.title, subtitle: r.code }),
      uniqueKey: (r) => ({ field: 'code', value: r.code }),
      afterRestore: async () => void (await core.cache.increment(PORTAL_GENERATION_KEY)),
      afterPurge: async () => void (await core.cache.increment(PORTAL_GENERATION_KEY)),
    }),
  );
}

/** Recycle-bin type of module `Config`: config rows (the super admin's keys stay theirs; the key is invalidated). */
import type { ConfigService, Repositories } from '@svc/data';
import { assertConfigKeyWritableBy } from '@svc/modules';
import { deleteCodeOf, type RecycleBinType, softDeleteRecycleType } from '@svc/security';

interface BinDeps {
  repos: Repositories;
  now: () => Date;
}

/** Config rows: restoring is writing the key, so only by whom may write it. */
export function configRecycleTypes(
  deps: BinDeps & { configs: () => Pick<ConfigService, 'invalidate'> },
): RecycleBinType[] {
  return [
    softDeleteRecycleType(deps, {
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
      afterRestore: async (_a, r) => void (await deps.configs().invalidate(r.configKey)),
    }),
  ];
}

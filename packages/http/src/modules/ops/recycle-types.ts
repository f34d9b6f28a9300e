/**
 * Recycle-bin types of the operations modules: dictionary types and items (module `Dict`; the dictionary cache is
 * invalidated at restore), config rows (module `Config`; the super admin's keys stay theirs, the key is
 * invalidated) and files (module `Upload`; scoped by uploader, bytes removed at purge). Each is one entry of the
 * table-driven bin; the services they call are resolved at first use.
 */
import type { ConfigService, DictService, Repositories } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { deleteCodeOf, type RecycleBinType, softDeleteRecycleType } from '@svc/security';
import { assertConfigKeyWritableBy } from '../../ops/config-keys.js';
import type { FileStore } from '../../ops/file-store.js';

interface BinDeps {
  repos: Repositories;
  now: () => Date;
}

/** Dictionary types and items; an item comes back only into a live type. */
export function dictRecycleTypes(
  deps: BinDeps & { dicts: () => Promise<Pick<DictService, 'invalidate'>> },
): RecycleBinType[] {
  const { repos } = deps;
  const dictChanged = async (typeCode: string) => void (await (await deps.dicts()).invalidate(typeCode));
  return [
    softDeleteRecycleType(deps, {
      type: 'dict-type',
      codes: [deleteCodeOf('/sys/dict/type/{id}')],
      title: 'Dictionary types',
      table: 'sysDictType',
      describe: (r) => ({ title: r.name, subtitle: r.code }),
      uniqueKey: (r) => ({ field: 'code', value: r.code }),
      afterRestore: (_a, r) => dictChanged(r.code),
    }),
    softDeleteRecycleType(deps, {
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
  ];
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

/** Files, in the uploader's data scope; the purge removes the bytes unless another row still names them. */
export function fileRecycleTypes(
  deps: BinDeps & { files: () => Pick<FileStore, 'release'> },
): RecycleBinType[] {
  const { repos } = deps;
  return [
    softDeleteRecycleType(deps, {
      type: 'file',
      codes: [deleteCodeOf('/sys/file/{id}')],
      title: 'Files',
      table: 'sysFile',
      scopedByCreator: true,
      describe: (r) => ({ title: r.originalName, subtitle: r.contentType }),
      // Deleting keeps the bytes so that a restore gives the file back; purging removes them unless another row
      // still names them (an instant upload shares the bytes of the file it matched).
      afterPurge: async (_a, r) => {
        await deps.files().release(r.storageKey, () => repos.files.storageKeyInUse(r.storageKey));
      },
    }),
  ];
}

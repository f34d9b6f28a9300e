/** Recycle-bin types of module `Dict`: dictionary types and items (the dictionary cache is invalidated at restore). */

import type { DictService, Repositories } from '@svc/data';
import { DictErrorCode } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import { deleteCodeOf, type RecycleBinType, softDeleteRecycleType } from '@svc/security';

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
          throw new BusinessError(DictErrorCode.DictTypeNotFound, { typeId: r.typeId });
      },
      afterRestore: (_a, r) => dictChanged(r.typeCode),
    }),
  ];
}

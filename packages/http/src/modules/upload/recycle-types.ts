/** Recycle-bin type of module `Upload`: files, scoped by uploader; the bytes are removed at purge. */
import type { Repositories } from '@svc/data';
import type { FileStore } from '@svc/modules';
import { deleteCodeOf, type RecycleBinType, softDeleteRecycleType } from '@svc/security';

interface BinDeps {
  repos: Repositories;
  now: () => Date;
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

/**
 * Recycle bin in the console: which row actions a user is shown for a type. Restoring and purging ask the bin's
 * own code of the action and every code the type lists (`/sys/recycle/types`: the code of the type's own delete
 * route); the service refuses a caller lacking one with 41001, so the button is hidden from them instead.
 */
import type { components } from '../../api/schema.js';

/** A type of the bin as `/sys/recycle/types` answers it, with its count of deleted rows. */
export type RecycleTypeCount = components['schemas']['RecycleType'] & { total: number };

/** The bin's own code of restoring a row. */
export const RESTORE_CODE = 'POST:/api/v1/sys/recycle/{type}/{id}/restore';
/** The bin's own code of purging a row. */
export const PURGE_CODE = 'DELETE:/api/v1/sys/recycle/{type}/{id}';

/**
 * Whether restore and purge are shown for a type: the bin's code of each plus every code of the type, asked
 * through `can` (the user store's, which holds every code for a super administrator).
 */
export function recycleActions(
  can: (code: string) => boolean,
  codes: readonly string[],
): { restore: boolean; purge: boolean } {
  const typeCodes = codes.every((code) => can(code));
  return { restore: typeCodes && can(RESTORE_CODE), purge: typeCodes && can(PURGE_CODE) };
}

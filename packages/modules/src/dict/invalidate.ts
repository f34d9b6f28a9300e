/**
 * Dropping dictionary copies: through module `Dict`'s service while it is on (its own copy, then every other
 * instance's), or, while it is off on this instance and so holds no copy, by raising the change event alone, so
 * the instances that serve dictionaries still drop theirs (a flush from the cache page, a type restored from the
 * recycle bin).
 */
import { DICT_CHANGED_CHANNEL, type DictChangedEvent, type DictService } from '@svc/data';
import type { Cache } from '@svc/data/cache';

/**
 * Raises `DictChangedEvent` for `typeCode` (every type when omitted); answers the entries this instance dropped.
 * @example await invalidateDicts({ cache, dicts: useOptional(dictModule)?.dicts }, 'gender');
 */
export async function invalidateDicts(
  deps: {
    cache: Pick<Cache, 'publish'>;
    /** Module `Dict`'s service; undefined while the module is off. */
    dicts: Promise<Pick<DictService, 'invalidate'>> | undefined;
  },
  typeCode?: string,
): Promise<number> {
  if (deps.dicts) return (await deps.dicts).invalidate(typeCode);
  await deps.cache.publish<DictChangedEvent>(DICT_CHANGED_CHANNEL, { typeCode: typeCode ?? null });
  return 0;
}

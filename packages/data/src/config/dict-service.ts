/**
 * Dictionaries (contract §5 `/sys/dict`): type and item administration plus the cached read
 * `items(typeCode)` every logged-in user may call. The cache is in-process per type, rebuilt after
 * `Cache:PermissionMinutes` or after a `DictChangedEvent`, which every write through this service raises and
 * `invalidate(typeCode)` raises on demand. The event travels over the cache's pub/sub, so with Redis every
 * instance drops its copy and reads the change on its next call (the pattern of the config store).
 */

import { randomUUID } from 'node:crypto';
import { BusinessError } from '@svc/kernel';
import type { Cache, Unsubscribe } from '../cache/port.js';
import { uniqueOr } from '../errors.js';
import type { Page } from '../paging.js';
import type {
  DictItemPageQuery,
  DictItemPatch,
  DictRepository,
  DictTypePageQuery,
  DictTypePatch,
} from '../repositories/dicts.js';
import type { SysDictItemRow, SysDictTypeRow } from '../rows.js';
import { DictErrorCode } from './codes.js';

/** Channel of `DictChangedEvent`. */
export const DICT_CHANGED_CHANNEL = 'events:dict-changed';

/** Payload of `DictChangedEvent`: the type code that changed, or null for every type. */
export interface DictChangedEvent {
  typeCode: string | null;
  /** The service that raised it, which skips its echo (see `ConfigChangedEvent.origin`). */
  origin?: string;
}

/** What `GET /sys/dict/items/{typeCode}` answers per item. */
export interface DictOption {
  label: string;
  value: string;
  sort: number;
}

export interface DictTypeInput {
  code: string;
  name: string;
  enabled?: boolean | undefined;
  remark?: string | null | undefined;
}

export interface DictItemInput {
  typeId: number;
  label: string;
  value: string;
  sort?: number | undefined;
  enabled?: boolean | undefined;
  remark?: string | null | undefined;
}

export interface DictService {
  /** Enabled items of an enabled type (cached); empty for an unknown type. */
  items(typeCode: string): Promise<DictOption[]>;
  pageTypes(query: DictTypePageQuery): Promise<Page<SysDictTypeRow>>;
  /** @throws BusinessError 43002 when the code exists */
  createType(input: DictTypeInput, actorId: number | null): Promise<number>;
  /** @throws BusinessError 43001 */
  updateType(id: number, patch: DictTypePatch, actorId: number | null): Promise<void>;
  /** Deletes the type and its items. @throws BusinessError 43001 */
  deleteType(id: number, actorId: number | null): Promise<void>;
  /** One live type. @throws BusinessError 43001 */
  getType(id: number): Promise<SysDictTypeRow>;
  /**
   * Deletes several types with their items, all or nothing: any unknown id refuses the whole batch (43001
   * naming the ids). Answers how many were deleted.
   */
  deleteTypes(ids: readonly number[], actorId: number | null): Promise<number>;
  /** Deletes several items, all or nothing (43003 naming the unknown ids). */
  deleteItems(ids: readonly number[], actorId: number | null): Promise<number>;
  pageItems(query: DictItemPageQuery): Promise<Page<SysDictItemRow>>;
  /** @throws BusinessError 43001 for an unknown type */
  createItem(input: DictItemInput, actorId: number | null): Promise<number>;
  /** @throws BusinessError 43003 */
  updateItem(id: number, patch: DictItemPatch, actorId: number | null): Promise<void>;
  /** @throws BusinessError 43003 */
  deleteItem(id: number, actorId: number | null): Promise<void>;
  /** Raises `DictChangedEvent` for one type (or all); answers the entries this instance dropped. */
  invalidate(typeCode?: string): Promise<number>;
  /** Stops listening for change events. */
  close(): Promise<void>;
}

export interface DictServiceDeps {
  repo: DictRepository;
  cache: Pick<Cache, 'publish' | 'subscribe'>;
  /** Lifetime of a cached type without an explicit invalidation. @default 20 minutes */
  ttlMs?: number;
  /** @default () => new Date() */
  now?: () => Date;
}

interface Entry {
  items: Promise<DictOption[]>;
  loadedAt: number;
}

export async function createDictService(deps: DictServiceDeps): Promise<DictService> {
  const { repo, cache } = deps;
  const ttlMs = deps.ttlMs ?? 20 * 60_000;
  const now = deps.now ?? (() => new Date());
  const entries = new Map<string, Entry>();

  const drop = (typeCode: string | null): number => {
    if (typeCode === null) {
      const size = entries.size;
      entries.clear();
      return size;
    }
    return entries.delete(typeCode) ? 1 : 0;
  };

  /** This service's name on the events it raises: it dropped its copy when it raised one, and skips the echo. */
  const origin = randomUUID();
  const unsubscribe: Unsubscribe = await cache.subscribe<DictChangedEvent>(DICT_CHANGED_CHANNEL, (event) => {
    if (event?.origin === origin) return;
    drop(typeof event?.typeCode === 'string' ? event.typeCode : null);
  });

  async function invalidate(typeCode?: string): Promise<number> {
    const dropped = drop(typeCode ?? null);
    await cache.publish<DictChangedEvent>(DICT_CHANGED_CHANNEL, { typeCode: typeCode ?? null, origin });
    return dropped;
  }

  async function mustGetType(id: number): Promise<SysDictTypeRow> {
    const type = await repo.getType(id);
    if (!type) throw new BusinessError(DictErrorCode.DictTypeNotFound, { id });
    return type;
  }

  async function mustGetItem(id: number): Promise<SysDictItemRow> {
    const item = await repo.getItem(id);
    if (!item) throw new BusinessError(DictErrorCode.DictItemNotFound, { id });
    return item;
  }

  const audit = (actorId: number | null) => ({ userId: actorId, now: now() });

  return {
    items(typeCode) {
      const cached = entries.get(typeCode);
      const at = now().getTime();
      if (cached && at - cached.loadedAt < ttlMs) return cached.items;
      const entry: Entry = {
        loadedAt: at,
        items: repo
          .enabledItems(typeCode)
          .then((rows) => rows.map((r) => ({ label: r.label, value: r.value, sort: r.sort }))),
      };
      entries.set(typeCode, entry);
      // A failed load is not kept; an event that arrived meanwhile already removed the entry.
      entry.items.catch(() => {
        if (entries.get(typeCode) === entry) entries.delete(typeCode);
      });
      return entry.items;
    },

    pageTypes: (query) => repo.pageTypes(query),

    async createType(input, actorId) {
      const code = input.code.trim();
      if (await repo.getTypeByCode(code)) throw new BusinessError(DictErrorCode.DictTypeCodeExists, { code });
      // Unique among live types in the database: a create racing this one answers 43002 too.
      const id = await uniqueOr(
        () =>
          repo.createType({
            code,
            name: input.name,
            enabled: input.enabled ?? true,
            remark: input.remark ?? null,
            createTime: now(),
            createUserId: actorId,
          }),
        () => new BusinessError(DictErrorCode.DictTypeCodeExists, { code }),
      );
      await invalidate(code);
      return id;
    },

    async updateType(id, patch, actorId) {
      const type = await mustGetType(id);
      await repo.updateType(id, patch, audit(actorId));
      await invalidate(type.code);
    },

    async deleteType(id, actorId) {
      const type = await mustGetType(id);
      await repo.deleteType(id, audit(actorId));
      await invalidate(type.code);
    },

    getType: (id) => mustGetType(id),

    async deleteTypes(ids, actorId) {
      const unique = [...new Set(ids)];
      const types = await repo.getTypes(unique);
      const missing = unique.filter((id) => !types.some((t) => t.id === id));
      if (missing.length > 0) throw new BusinessError(DictErrorCode.DictTypeNotFound, { ids: missing });
      const deleted = await repo.deleteTypes(unique, audit(actorId));
      for (const type of types) await invalidate(type.code);
      return deleted;
    },

    async deleteItems(ids, actorId) {
      const unique = [...new Set(ids)];
      const items = await repo.getItems(unique);
      const missing = unique.filter((id) => !items.some((i) => i.id === id));
      if (missing.length > 0) throw new BusinessError(DictErrorCode.DictItemNotFound, { ids: missing });
      const deleted = await repo.deleteItems(unique, audit(actorId));
      for (const code of new Set(items.map((i) => i.typeCode))) await invalidate(code);
      return deleted;
    },

    pageItems: (query) => repo.pageItems(query),

    async createItem(input, actorId) {
      const type = await mustGetType(input.typeId);
      const taken = () => new BusinessError(DictErrorCode.DictItemValueExists, { value: input.value });
      if (await repo.itemValueTaken(type.id, input.value)) throw taken();
      // Unique within its type among live items in the database: a create racing this one answers 43007 too.
      const id = await uniqueOr(
        () =>
          repo.createItem({
            typeId: type.id,
            typeCode: type.code,
            label: input.label,
            value: input.value,
            sort: input.sort ?? 0,
            enabled: input.enabled ?? true,
            remark: input.remark ?? null,
            createTime: now(),
            createUserId: actorId,
          }),
        taken,
      );
      await invalidate(type.code);
      return id;
    },

    async updateItem(id, patch, actorId) {
      const item = await mustGetItem(id);
      const taken = () => new BusinessError(DictErrorCode.DictItemValueExists, { value: patch.value });
      // A new value must be free; the stored one saves unchanged (a row kept as a duplicate by the migration stays).
      const changed = patch.value !== undefined && patch.value !== item.value;
      if (changed && (await repo.itemValueTaken(item.typeId, patch.value as string, id))) throw taken();
      await uniqueOr(
        () => repo.updateItem(id, changed ? { ...patch, liveExempt: false } : patch, audit(actorId)),
        taken,
      );
      await invalidate(item.typeCode);
    },

    async deleteItem(id, actorId) {
      const item = await mustGetItem(id);
      await repo.deleteItem(id, audit(actorId));
      await invalidate(item.typeCode);
    },

    invalidate,
    close: unsubscribe,
  };
}

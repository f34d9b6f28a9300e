/**
 * The config centre (contract §5 `/sys/config`): page, detail, create, update (the key never changes), batch
 * update and delete of `sys_config` rows. Values are validated by type before they are stored: a runtime
 * `sys.*` key by its kernel definition (`parseRuntimeValue`: numbers in range, booleans, enum members), any
 * other key by its declared value type, so an operator cannot store a value that breaks login. Every write
 * raises `ConfigChangedEvent` for the keys it touched (`ConfigStore.invalidate`).
 */

import {
  BusinessError,
  ErrorCode,
  formatRuntimeValue,
  parseRuntimeValue,
  type RuntimeKeyDef,
  runtimeKeyDef,
} from '@svc/kernel';
import type { ConfigStore } from '../config-store.js';
import { uniqueOr } from '../errors.js';
import type { Page } from '../paging.js';
import type { ConfigPageQuery, ConfigRepository } from '../repositories/configs.js';
import type { ConfigValueType, SysConfigRow } from '../rows.js';
import { ConfigErrorCode } from './codes.js';

/** Longest value text accepted (the column is unbounded text; this keeps one row from holding megabytes). */
export const CONFIG_VALUE_MAX_CHARS = 4000;

/** Input of a new row. */
export interface ConfigInput {
  key: string;
  value: string;
  name: string;
  /** Ignored for runtime keys (their type is fixed). @default 'string' */
  valueType?: ConfigValueType | undefined;
  remark?: string | null | undefined;
}

/** Input of an update; `key`, when sent, must equal the stored key. */
export interface ConfigUpdate {
  key?: string | undefined;
  value?: string | undefined;
  name?: string | undefined;
  remark?: string | null | undefined;
}

export interface ConfigService {
  page(query: ConfigPageQuery): Promise<Page<SysConfigRow>>;
  /** @throws BusinessError 43004 when there is no such row */
  get(id: number): Promise<SysConfigRow>;
  /** @throws BusinessError 43005 when the key exists, 48000 when the value does not fit the type */
  create(input: ConfigInput, actorId: number | null): Promise<number>;
  /** @throws BusinessError 43004, 48000 (invalid value or a changed key) */
  update(id: number, input: ConfigUpdate, actorId: number | null): Promise<void>;
  /** Validates every entry first; nothing is written unless all are valid. Returns how many rows changed. */
  updateBatch(entries: readonly { key: string; value: string }[], actorId: number | null): Promise<number>;
  /** @throws BusinessError 43004, 43006 for a built-in row (a runtime key the service reads) */
  delete(id: number, actorId?: number | null): Promise<void>;
  /** Raises `ConfigChangedEvent` for `key` (or every key) without a write; answers the entries dropped here. */
  invalidate(key?: string): Promise<number>;
}

export interface ConfigServiceDeps {
  repo: ConfigRepository;
  store: ConfigStore;
  /** @default () => new Date() */
  now?: () => Date;
}

const invalid = (path: string, message: string) =>
  new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path, message }] });

function describe(def: RuntimeKeyDef): string {
  switch (def.valueType) {
    case 'int':
      return `an integer from ${def.min ?? '-∞'} to ${def.max ?? '∞'}, written as digits with an optional sign (no spaces, exponent, decimal point or prefix)`;
    case 'bool':
      return 'true or false';
    case 'enum':
      return `one of ${(def.values ?? []).join(', ')}`;
    default:
      return def.form?.description ?? 'text';
  }
}

/** The text to store for `value` under `key`, or a 48000 naming `path`. */
export function normalizeConfigValue(
  key: string,
  valueType: ConfigValueType,
  value: string,
  path = 'value',
): string {
  if (value.length > CONFIG_VALUE_MAX_CHARS)
    throw invalid(path, `At most ${CONFIG_VALUE_MAX_CHARS} characters.`);
  const def: RuntimeKeyDef = runtimeKeyDef(key) ?? { key, name: key, valueType, fallback: () => value };
  // A non-runtime `enum` row has no member list to check against: it is text.
  if (def.valueType === 'enum' && !def.values) return value;
  const parsed = parseRuntimeValue(def, value);
  if (parsed === undefined) throw invalid(path, `${key} expects ${describe(def)}.`);
  return def.valueType === 'string' ? value : formatRuntimeValue(parsed);
}

export function createConfigService(deps: ConfigServiceDeps): ConfigService {
  const { repo, store } = deps;
  const now = deps.now ?? (() => new Date());

  async function mustGet(id: number): Promise<SysConfigRow> {
    const row = await repo.getById(id);
    if (!row) throw new BusinessError(ConfigErrorCode.ConfigNotFound, { id });
    return row;
  }

  return {
    page: (query) => repo.page(query),
    get: mustGet,

    async create(input, actorId) {
      const key = input.key.trim();
      const def = runtimeKeyDef(key);
      const valueType = def?.valueType ?? input.valueType ?? 'string';
      const value = normalizeConfigValue(key, valueType, input.value);
      if (await repo.getByKey(key)) throw new BusinessError(ConfigErrorCode.ConfigKeyExists, { key });
      const at = now();
      // The key is unique among live rows: a create racing this one answers 43005 too.
      const id = await uniqueOr(
        () =>
          repo.create({
            configKey: key,
            configValue: value,
            valueType,
            name: input.name,
            builtIn: false,
            remark: input.remark ?? null,
            createTime: at,
            createUserId: actorId,
          }),
        () => new BusinessError(ConfigErrorCode.ConfigKeyExists, { key }),
      );
      await store.invalidate(key);
      return id;
    },

    async update(id, input, actorId) {
      const row = await mustGet(id);
      if (input.key !== undefined && input.key !== row.configKey)
        throw invalid('key', 'The key cannot be changed.');
      const patch =
        input.value === undefined
          ? {}
          : { configValue: normalizeConfigValue(row.configKey, row.valueType, input.value) };
      await repo.update(
        id,
        {
          ...patch,
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.remark !== undefined ? { remark: input.remark } : {}),
        },
        { updateUserId: actorId, now: now() },
      );
      await store.invalidate(row.configKey);
    },

    async updateBatch(entries, actorId) {
      const normalized: { key: string; value: string }[] = [];
      for (const [index, entry] of entries.entries()) {
        const row = await repo.getByKey(entry.key);
        if (!row) throw new BusinessError(ConfigErrorCode.ConfigNotFound, { key: entry.key });
        normalized.push({
          key: row.configKey,
          value: normalizeConfigValue(row.configKey, row.valueType, entry.value, `${index}.value`),
        });
      }
      const changed = await repo.updateValues(normalized, { updateUserId: actorId, now: now() });
      for (const { key } of normalized) await store.invalidate(key);
      return changed;
    },

    async delete(id, actorId = null) {
      const row = await mustGet(id);
      if (row.builtIn || runtimeKeyDef(row.configKey)) {
        throw new BusinessError(ConfigErrorCode.ConfigBuiltIn, { key: row.configKey });
      }
      await repo.deleteById(id, { updateUserId: actorId, now: now() });
      await store.invalidate(row.configKey);
    },

    invalidate: (key) => store.invalidate(key),
  };
}

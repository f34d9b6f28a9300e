/**
 * The config cache: one in-process snapshot of `sys_config`, so that reading a runtime key on the request path
 * is a map lookup. The snapshot is rebuilt when it is older than `Cache:PermissionMinutes` or after a
 * `ConfigChangedEvent`, which travels over the cache's pub/sub (with Redis, every instance hears it and
 * rebuilds on its next read).
 */
import { randomUUID } from 'node:crypto';
import type { Cache, Unsubscribe } from './cache/port.js';
import type { ConfigRepository } from './repositories/configs.js';

/** Channel of `ConfigChangedEvent`. */
export const CONFIG_CHANGED_CHANNEL = 'events:config-changed';

/** Payload of `ConfigChangedEvent`: the key that changed, or null for "everything". */
export interface ConfigChangedEvent {
  key: string | null;
  /**
   * The config store that raised it. That store dropped its snapshot when it raised the event, and skips the event
   * when it hears it back: with Redis the echo comes a little later, and would drop a snapshot read since. Absent
   * on events raised elsewhere (a recovery after a Redis outage), which every store obeys.
   */
  origin?: string;
}

export interface ConfigStore {
  /** The stored text of a key, or undefined when no row exists. */
  getRaw(key: string): Promise<string | undefined>;
  /**
   * Identifies the snapshot reads are served from: equal numbers mean equal values. Undefined when there is no
   * current snapshot (the next read loads one). Lets readers memoise what they derive from config.
   */
  version(): number | undefined;
  /**
   * Raises `ConfigChangedEvent` for a key (or all): this and every other instance re-read on next use. Answers
   * how many cached entries this instance dropped (the snapshot's rows; for one key, 1 when it was cached).
   */
  invalidate(key?: string): Promise<number>;
  /** Stops listening for change events. */
  close(): Promise<void>;
}

export interface ConfigStoreOptions {
  repo: Pick<ConfigRepository, 'listAll'>;
  cache: Pick<Cache, 'publish' | 'subscribe'>;
  /** Snapshot lifetime without an explicit invalidation. @default 20 minutes (`Cache:PermissionMinutes`) */
  ttlMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** Called when a change event arrives (e.g. to drop site info built from config). */
  onChanged?: (event: ConfigChangedEvent) => void;
}

export async function createConfigStore(options: ConfigStoreOptions): Promise<ConfigStore> {
  const ttlMs = options.ttlMs ?? 20 * 60_000;
  const now = options.now ?? Date.now;
  let snapshot: { values: Map<string, string>; loadedAt: number } | undefined;
  let loading: Promise<Map<string, string>> | undefined;
  let generation = 0;
  /** This store's name on the events it raises. */
  const origin = randomUUID();

  const drop = (key?: string | null): number => {
    const values = snapshot?.values;
    snapshot = undefined;
    generation++;
    if (!values) return 0;
    return key == null ? values.size : values.has(key) ? 1 : 0;
  };

  async function load(): Promise<Map<string, string>> {
    if (snapshot && now() - snapshot.loadedAt < ttlMs) return snapshot.values;
    if (!loading) {
      const started = generation;
      loading = options.repo
        .listAll()
        .then((rows) => {
          const values = new Map(rows.map((r) => [r.configKey, r.configValue] as const));
          // A change that arrived while loading makes this snapshot stale: use it once, keep none.
          if (started === generation) snapshot = { values, loadedAt: now() };
          return values;
        })
        .finally(() => {
          loading = undefined;
        });
    }
    return loading;
  }

  const unsubscribe: Unsubscribe = await options.cache.subscribe<ConfigChangedEvent>(
    CONFIG_CHANGED_CHANNEL,
    (event) => {
      if (event?.origin === origin) return;
      drop();
      // A payload that is not an event (`null` from another publisher) drops everything and is told as such.
      options.onChanged?.({ key: typeof event?.key === 'string' ? event.key : null });
    },
  );

  return {
    async getRaw(key) {
      return (await load()).get(key);
    },
    version() {
      return snapshot && now() - snapshot.loadedAt < ttlMs ? generation : undefined;
    },
    async invalidate(key) {
      const dropped = drop(key);
      const event: ConfigChangedEvent = { key: key ?? null, origin };
      options.onChanged?.(event);
      await options.cache.publish<ConfigChangedEvent>(CONFIG_CHANGED_CHANNEL, event);
      return dropped;
    },
    close: unsubscribe,
  };
}

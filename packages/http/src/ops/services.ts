/**
 * The operations services of one server, built once from its deps and reached through `opsServicesFor(deps)`
 * by the routes, the operation-log middleware and the host (which drains the op-log queue at shutdown). The
 * memo is keyed by the deps' core services, so every server has its own and nothing is global.
 */
import {
  type ConfigService,
  createConfigService,
  createDictService,
  createSiteInfoService,
  type DictService,
  type NewOpLog,
  type OpLogRepository,
  type SiteInfoService,
} from '@svc/data';
import { resolveContentPath } from '@svc/kernel';
import { createOpLogWriter, type OpLogWriter } from '@svc/logging';
import { PERMISSION_KEY_PREFIX, PORTAL_GENERATION_KEY } from '@svc/security';
import type { HttpDeps } from '../deps.js';
import { type ChunkUploads, createChunkUploads, type Reclaimer } from './chunks.js';
import { createFileStore, type FileStore } from './file-store.js';
import { type ServerSnapshot, sampleServer } from './monitor.js';
import { createFileLinkSigner, type FileLinkSigner } from './signed-url.js';

const MIB = 1024 * 1024;

export interface CacheActions {
  /** Every user's permissions and data scopes are reloaded at next use; answers the entries removed. */
  flushAuth(): Promise<number>;
  flushDict(): Promise<number>;
  /** Every config key and the site info; answers the entries this instance dropped. */
  flushConfig(): Promise<number>;
  /** Answers the new portal generation. */
  rebuildPortal(): Promise<number>;
}

export interface OpsServices {
  opLog: OpLogWriter;
  configs: ConfigService;
  dicts: Promise<DictService>;
  site: Promise<SiteInfoService>;
  files: FileStore;
  /** Chunked uploads, and the reclaimer of abandoned chunks and deleted files. */
  chunks: ChunkUploads;
  links: FileLinkSigner;
  cache: CacheActions;
  monitor(): Promise<ServerSnapshot>;
  /** Stops the change-event subscriptions. */
  close(): Promise<void>;
}

/** File-name prefix of the operation-log spill under `{ContentRoot}/data`. */
export const OP_LOG_SPILL_NAME = 'oplog-spill';

/**
 * How far the span a replay looks within is widened on each side. Every dialect keeps the given millisecond
 * (repository contract test); the margin is for a `create_time` column an operator altered to a coarser type.
 */
const STORED_TIME_SLACK_MS = 1_000;

/** Indexes of the rows whose trace id already has a row (one operation-log row per request). */
export async function storedOpLogRows(
  repo: Pick<OpLogRepository, 'storedTraceIds'>,
  rows: readonly NewOpLog[],
): Promise<ReadonlySet<number>> {
  const ids = rows.flatMap((r) => (r.traceId ? [r.traceId] : []));
  // Looked for among the rows of the same time span only (the time index; trace ids have none).
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    const at = typeof r.createTime === 'number' ? r.createTime : r.createTime.getTime();
    if (at < from) from = at;
    if (at > to) to = at;
  }
  const stored = await repo.storedTraceIds(
    ids,
    Number.isFinite(from) && Number.isFinite(to)
      ? { from: from - STORED_TIME_SLACK_MS, to: to + STORED_TIME_SLACK_MS }
      : undefined,
  );
  const out = new Set<number>();
  rows.forEach((r, i) => {
    if (r.traceId && stored.has(r.traceId)) out.add(i);
  });
  return out;
}

const built = new WeakMap<object, OpsServices>();

type OpsDeps = Pick<HttpDeps, 'core' | 'config' | 'logger' | 'now'>;

function build(deps: OpsDeps): OpsServices {
  const { core, config, now } = deps;
  const service = config.service;
  const ttlMs = service.Cache.PermissionMinutes * 60_000;
  const opLog = createOpLogWriter({
    sink: core.repos.opLogs,
    logger: deps.logger.child('Service.OpLog'),
    sync: service.Logging.OpLog.Sync,
    capacity: service.Logging.OpLog.QueueCapacity,
    flushIntervalMs: service.Logging.OpLog.FlushIntervalMs,
    spill: {
      dir: resolveContentPath(config.environment.contentRoot, 'data'),
      name: OP_LOG_SPILL_NAME,
      maxBytes: service.Logging.OpLog.SpillMaxMb * MIB,
    },
    existing: (rows) => storedOpLogRows(core.repos.opLogs, rows),
  });
  const configs = createConfigService({ repo: core.repos.configs, store: core.configStore, now });
  const dicts = createDictService({ repo: core.repos.dicts, cache: core.cache, ttlMs, now });
  const site = createSiteInfoService({
    store: core.configStore,
    cache: core.cache,
    options: service,
    ttlMs,
    now: () => now().getTime(),
  });
  // Rejections surface where the services are awaited; these keep them from being reported as unhandled.
  dicts.catch(() => {});
  site.catch(() => {});
  const contentRoot = config.environment.contentRoot;
  const uploadRoot = resolveContentPath(contentRoot, service.Upload.RootPath);
  const files = createFileStore({
    root: uploadRoot,
    maxBytes: service.Upload.MaxSizeMb * MIB,
    allowedExtensions: service.Upload.AllowedExtensions,
    now,
  });
  return {
    opLog,
    configs,
    dicts,
    site,
    files,
    chunks: createChunkUploads({
      root: uploadRoot,
      files,
      repo: core.repos.files,
      allowedExtensions: service.Upload.AllowedExtensions,
      retentionHours: service.Upload.ChunkRetentionHours,
      maxOpenPerUser: service.Upload.ChunkMaxOpenPerUser,
      now,
    }),
    links: createFileLinkSigner({
      jwtKey: core.jwtKey.key,
      ttlMinutes: service.Upload.SignedUrlTtlMinutes,
      now,
    }),
    cache: {
      async flushAuth() {
        // The generation bump is what makes every entry stale (also one being loaded right now); the entries
        // are then removed to report and free them. The generation counters themselves are kept.
        await core.permissions.invalidateAll();
        return core.cache.deleteByPrefix(PERMISSION_KEY_PREFIX);
      },
      async flushDict() {
        return (await dicts).invalidate();
      },
      async flushConfig() {
        const siteDropped = (await site).drop();
        return siteDropped + (await configs.invalidate());
      },
      rebuildPortal() {
        return core.cache.increment(PORTAL_GENERATION_KEY);
      },
    },
    monitor: () => {
      const { queued, spilled, replayed, dropped, failing } = opLog.stats();
      return sampleServer(contentRoot, now, { queued, spilled, replayed, dropped, failing });
    },
    async close() {
      await Promise.allSettled([dicts.then((d) => d.close()), site.then((s) => s.close())]);
    },
  };
}

/**
 * The operations services of the server `deps` belongs to.
 * @example await opsServicesFor(deps).configs.invalidate('sys.site.title');
 */
export function opsServicesFor(deps: OpsDeps): OpsServices {
  let services = built.get(deps.core);
  if (!services) {
    services = build(deps);
    built.set(deps.core, services);
  }
  return services;
}

/**
 * The clean-up of abandoned chunk uploads and of files deleted longer ago than `Upload:ChunkRetentionHours`, as
 * a reclaimer the scheduled clean-up job runs: `reclaim(now)` answers how many folders and files went.
 * @example reclaimers.push(uploadReclaimer(deps));
 */
export function uploadReclaimer(deps: OpsDeps): Reclaimer {
  const chunks = opsServicesFor(deps).chunks;
  return { name: 'upload', reclaim: (now) => chunks.reclaim(now) };
}

/**
 * The retention of the operation, login and exception logs (`Logging:RetentionDays`, 0 keeps every row), as a
 * reclaimer the scheduled clean-up job runs: `reclaim(now)` deletes their rows older than the retention, a chunk
 * at a time, and answers how many went.
 * @example reclaimers.push(logRetentionReclaimer(deps));
 */
export function logRetentionReclaimer(deps: Pick<HttpDeps, 'core' | 'config'>): Reclaimer {
  return {
    name: 'logs',
    async reclaim(now) {
      const days = deps.config.service.Logging.RetentionDays;
      if (days <= 0) return 0;
      const cutoff = new Date(now.getTime() - days * 86_400_000);
      const { opLogs, loginLogs, exceptionLogs } = deps.core.repos;
      let deleted = 0;
      for (const log of [opLogs, loginLogs, exceptionLogs]) deleted += await log.deleteOlderThan(cutoff);
      return deleted;
    },
  };
}

/**
 * The operation-log writer of one server, built once by the composition root (it is part of the module core):
 * the op-log stage queues into it, module `Monitor` reports its state, and the host drains it at shutdown. Rows
 * the database refuses go to the spill under `{ContentRoot}/data`, replayed without repeating a stored row.
 */
import type { NewOpLog, OpLogRepository } from '@svc/data';
import { type Configuration, type Logger, resolveContentPath } from '@svc/kernel';
import { createOpLogWriter, type OpLogWriter } from '@svc/logging';

const MIB = 1024 * 1024;

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

/**
 * The operation-log writer with the service's options (`Logging:OpLog`).
 * @example const opLog = createServiceOpLog({ repo: repos.opLogs, config, logger });
 */
export function createServiceOpLog(deps: {
  repo: OpLogRepository;
  config: Configuration;
  logger: Logger;
}): OpLogWriter {
  const { config } = deps;
  const options = config.service.Logging.OpLog;
  return createOpLogWriter({
    sink: deps.repo,
    logger: deps.logger.child('Service.OpLog'),
    sync: options.Sync,
    capacity: options.QueueCapacity,
    flushIntervalMs: options.FlushIntervalMs,
    spill: {
      dir: resolveContentPath(config.environment.contentRoot, 'data'),
      name: OP_LOG_SPILL_NAME,
      maxBytes: options.SpillMaxMb * MIB,
    },
    existing: (rows) => storedOpLogRows(deps.repo, rows),
  });
}

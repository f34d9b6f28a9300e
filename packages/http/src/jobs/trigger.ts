/**
 * Triggers of scheduled jobs: cron with a seconds field (parsed by croner, never by hand), fixed interval
 * (≥ 5 s) and one-shot, bounded by an optional start and end time. All times are UTC.
 */
import type { SysJobRow } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { Cron } from 'croner';

/** Shortest fixed interval (modules.md). */
export const MIN_INTERVAL_SECONDS = 5;

/** A cron expression as stored: six fields (seconds first), single spaces, upper case names. */
export function normaliseCron(expression: string): string {
  const fields = expression.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 6)
    throw cronInvalid(
      `six fields are required (second minute hour day-of-month month day-of-week), got ${fields.length}`,
    );
  const normalised = fields.map((f) => f.toUpperCase()).join(' ');
  try {
    // Validates the pattern; `?` (no specific value) is accepted by croner in both day fields.
    new Cron(normalised, { paused: true, timezone: 'UTC' });
  } catch (error) {
    throw cronInvalid(error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error));
  }
  return normalised;
}

const cronInvalid = (reason: string) => new BusinessError(ErrorCode.JobCronInvalid, { reason });

/** The next `count` fire times of a normalised cron expression strictly after `after`. */
export function cronFireTimes(expression: string, after: Date, count: number): Date[] {
  const cron = new Cron(expression, { paused: true, timezone: 'UTC' });
  return cron.nextRuns(count, after);
}

/** The trigger fields of a job (row or input). */
export type TriggerFields = Pick<
  SysJobRow,
  'triggerKind' | 'cronExpression' | 'intervalSeconds' | 'oneShotTime' | 'startTime' | 'endTime'
>;

/**
 * The first fire strictly after `after` (and not before the start time), or null when the trigger has no more
 * fires (one-shot past, end time passed).
 */
export function nextFireTime(job: TriggerFields, after: Date): Date | null {
  const from =
    job.startTime && job.startTime.getTime() - 1 > after.getTime()
      ? new Date(job.startTime.getTime() - 1)
      : after;
  let next: Date | null = null;
  if (job.triggerKind === 1 && job.cronExpression) {
    next = cronFireTimes(job.cronExpression, from, 1)[0] ?? null;
  } else if (job.triggerKind === 2 && job.intervalSeconds) {
    const step = job.intervalSeconds * 1000;
    // Interval fires are aligned on the start time (or the epoch), so every instance computes the same times.
    const anchor = job.startTime?.getTime() ?? 0;
    const k = Math.floor((from.getTime() - anchor) / step) + 1;
    next = new Date(anchor + k * step);
  } else if (job.triggerKind === 3 && job.oneShotTime) {
    next = job.oneShotTime.getTime() > after.getTime() ? job.oneShotTime : null;
  }
  if (next && job.endTime && next.getTime() > job.endTime.getTime()) return null;
  return next;
}

/** Checks a trigger's fields (47003 for a bad cron, 47004 otherwise) and answers them normalised. */
export function validateTrigger<T extends TriggerFields>(input: T): T {
  const reject = (reason: string) => new BusinessError(ErrorCode.JobTriggerInvalid, { reason });
  if (input.startTime && input.endTime && input.endTime.getTime() <= input.startTime.getTime())
    throw reject('endTime must be after startTime');
  switch (input.triggerKind) {
    case 1:
      if (!input.cronExpression) throw reject('cronExpression is required for a cron trigger');
      return {
        ...input,
        cronExpression: normaliseCron(input.cronExpression),
        intervalSeconds: null,
        oneShotTime: null,
      };
    case 2:
      if (!input.intervalSeconds || input.intervalSeconds < MIN_INTERVAL_SECONDS)
        throw reject(`intervalSeconds must be at least ${MIN_INTERVAL_SECONDS}`);
      return { ...input, cronExpression: null, oneShotTime: null };
    case 3:
      if (!input.oneShotTime) throw reject('oneShotTime is required for a one-shot trigger');
      return { ...input, cronExpression: null, intervalSeconds: null };
    default:
      throw reject('unknown trigger kind');
  }
}

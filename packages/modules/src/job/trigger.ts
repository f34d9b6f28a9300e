/**
 * Triggers of scheduled jobs: Quartz cron (parsed by croner, never by hand), fixed interval (≥ 5 s) and one-shot,
 * bounded by an optional start and end time. All times are UTC.
 */

import type { SysJobRow } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import { Cron, type CronOptions } from 'croner';
import { JobErrorCode } from './codes.js';

/** Shortest fixed interval (modules.md). */
export const MIN_INTERVAL_SECONDS = 5;

/**
 * Quartz as croner reads it (contract §11): six or seven fields (seconds first, optional year), `?`, `L`, `W`, `#`,
 * steps with a numeric start (`0/10`, `sloppyRanges`) and day-of-week numbers counted 1 = Sunday to 7 = Saturday.
 */
const CRON_OPTIONS: CronOptions = {
  paused: true,
  timezone: 'UTC',
  mode: '6-or-7-parts',
  alternativeWeekdays: true,
  sloppyRanges: true,
};

const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

/** How a numbered day of the week is counted: Quartz (1 = Sunday) or the 0/7 = Sunday of expressions stored before. */
type DayNumbering = 'quartz' | 'stored';

/**
 * The day-of-week field with every day written as its name, so that a stored expression means one thing whichever
 * numbering wrote it. Ranges and steps are taken over the numbering's own numbers (for the stored one 0-7 is every
 * day, 7 being Sunday again) and written as one range of names when they are one, as a list otherwise; `L` alone
 * is Quartz's Saturday, `5L` and croner's `5#L` the last Friday. Answers null for a day outside the numbering.
 */
function dayNames(field: string, numbering: DayNumbering): string | null {
  const first = numbering === 'quartz' ? 1 : 0;
  const last = 7;
  const raw = (token: string): number | null => {
    const named = DAY_NAMES.indexOf(token as (typeof DAY_NAMES)[number]);
    if (named >= 0) return named + first;
    if (!/^\d{1,2}$/.test(token)) return null;
    const n = Number(token);
    return n >= first && n <= last ? n : null;
  };
  const name = (n: number) => DAY_NAMES[numbering === 'quartz' ? n - 1 : n % 7] as string;
  const items: string[] = [];
  for (const item of field.split(',')) {
    const [base = '', step, extra] = item.split('/');
    if (extra !== undefined) return null;
    if (base === '*' || base === '?') {
      items.push(item);
      continue;
    }
    if (base === 'L' && step === undefined) {
      items.push('SAT');
      continue;
    }
    const nth = /^(\w+?)(#\d+|#L|L)$/.exec(base);
    if (nth && step === undefined) {
      const d = raw(nth[1] ?? '');
      if (d === null) return null;
      items.push(`${name(d)}${nth[2] === '#L' ? 'L' : nth[2]}`);
      continue;
    }
    const [from = '', to] = base.split('-');
    const a = raw(from);
    const b = to === undefined ? (step === undefined ? a : last) : raw(to);
    if (a === null || b === null) return null;
    const by = step === undefined ? 1 : /^\d{1,2}$/.test(step) && Number(step) > 0 ? Number(step) : null;
    if (by === null) return null;
    const run: number[] = [];
    for (let n = a; n <= (a <= b ? b : last); n++) run.push(n);
    if (a > b) for (let n = first; n <= b; n++) run.push(n);
    const days = [...new Set(run.filter((_, k) => k % by === 0).map(name))];
    const indexes = days.map((d) => DAY_NAMES.indexOf(d as (typeof DAY_NAMES)[number]));
    const oneRange = days.length > 1 && indexes.every((d, k) => k === 0 || d === (indexes[k - 1] ?? 0) + 1);
    items.push(oneRange ? `${days[0]}-${days[days.length - 1]}` : days.join(','));
  }
  return [...new Set(items)].join(',');
}

/**
 * A cron expression as stored: Quartz, six or seven fields, single spaces, upper case, days of the week by name
 * (`0 0 9 ? * 2-6` is stored as `0 0 9 ? * MON-FRI`). 47003 with the reason otherwise.
 */
export function normaliseCron(expression: string): string {
  const fields = expression
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((f) => f.toUpperCase());
  if (fields.length !== 6 && fields.length !== 7)
    throw cronInvalid(
      `six or seven fields are required (second minute hour day-of-month month day-of-week [year]), got ${fields.length}`,
    );
  // Quartz reads one day field at a time: with both set, croner would fire on either (a day of the month OR a
  // weekday), more often than the author meant; `?` elsewhere is no Quartz.
  const free = (field: string | undefined) => field === '*' || field === '?';
  if (!free(fields[3]) && !free(fields[5]))
    throw cronInvalid('day-of-month and day-of-week cannot both be set: write ? in one of them (Quartz)');
  const misplaced = fields.findIndex((f, i) => i !== 3 && i !== 5 && f.includes('?'));
  if (misplaced >= 0)
    throw cronInvalid(`'?' stands only in day-of-month or day-of-week, not in '${fields[misplaced]}'`);
  const days = dayNames(fields[5] ?? '', 'quartz');
  if (days === null)
    throw cronInvalid(`day-of-week '${fields[5]}' is not Quartz (1 = SUN to 7 = SAT, or SUN-SAT)`);
  fields[5] = days;
  const normalised = fields.join(' ');
  try {
    new Cron(normalised, CRON_OPTIONS);
  } catch (error) {
    throw cronInvalid(error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error));
  }
  return normalised;
}

/**
 * A stored expression as it is read: expressions stored before Quartz numbering counted days 0/7 = Sunday; since
 * then every stored day is a name, so a numbered day can only be one of those and keeps its old meaning.
 */
export function storedCron(expression: string): string {
  const fields = expression.split(' ');
  if (fields.length < 6 || !/\d/.test(fields[5] ?? '')) return expression;
  const days = dayNames(fields[5] ?? '', 'stored');
  if (days === null) return expression;
  fields[5] = days;
  return fields.join(' ');
}

const cronInvalid = (reason: string) => new BusinessError(JobErrorCode.JobCronInvalid, { reason });

/** The next `count` fire times of a stored cron expression strictly after `after`. */
export function cronFireTimes(expression: string, after: Date, count: number): Date[] {
  const cron = new Cron(storedCron(expression), CRON_OPTIONS);
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
  const reject = (reason: string) => new BusinessError(JobErrorCode.JobTriggerInvalid, { reason });
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

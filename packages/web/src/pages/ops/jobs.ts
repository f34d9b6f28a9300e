/**
 * Scheduled jobs in the console: the row the API answers, the form state of the add/edit dialog, and the body
 * sent from it (only the trigger fields of the chosen kind, and the trigger's window; times from the browser's
 * local `datetime-local` values to ISO instants). The API answers props with their secrets as `***` and keeps a
 * stored secret where an update sends `***` back, so the props text goes back as the form shows it.
 */
import type { OperationData } from '../../api/envelope.js';
import type { components } from '../../api/schema.js';

export type HandlerKind = 1 | 2 | 3;
export type TriggerKind = 1 | 2 | 3;
export type JobStatus = 1 | 2 | 3 | 4;

export type JobRow = components['schemas']['JobRow'];

/** The handlers a job may name, and whether SQL and private-address HTTP jobs are allowed here. */
export type Handlers = OperationData<'getSysJobHandlers'>;

export interface JobForm {
  code: string;
  name: string;
  handlerKind: HandlerKind;
  handlerName: string | null;
  propsJson: string;
  triggerKind: TriggerKind;
  cronExpression: string;
  intervalSeconds: number | null;
  /** `YYYY-MM-DDTHH:mm`, local time (the `datetime-local` input). */
  oneShotTime: string;
  /** The trigger's window (`datetime-local` values, empty for none): fires only between them. */
  startTime: string;
  endTime: string;
  /** The window as the API answered it: an input left as it was sends this back, seconds included. */
  storedWindow: { startTime: string | null; endTime: string | null };
  misfireStrategy: 'skip' | 'fire-once';
  concurrencyMode: 'serial-skip' | 'parallel';
  timeoutSeconds: number | null;
  retryCount: number | null;
  retryIntervalSeconds: number | null;
  failAlertThreshold: number | null;
  alertByNotice: boolean;
  remark: string;
}

/** What the API shows in place of a stored secret of a job's props (and takes back to keep it). */
export const SECRET_MASK = '***';

/** Whether a props text shows stored secrets (the form then says how to keep or replace them). */
export const showsStoredSecrets = (propsJson: string): boolean => propsJson.includes(SECRET_MASK);

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as the `datetime-local` value of the browser's zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (browser zone) as an ISO instant; null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * A `datetime-local` value as an ISO instant, or `stored` when the input still shows it: the input has minutes
 * only, and saving a form must not move a time set to the second.
 */
function keptInstant(value: string, stored: string | null): string | null {
  return stored !== null && value !== '' && toLocalInput(stored) === value ? stored : fromLocalInput(value);
}

/** The dialog's state: a copy of `job`, or the defaults of a new job. */
export function newJobForm(job?: JobRow): JobForm {
  return {
    code: job?.code ?? '',
    name: job?.name ?? '',
    handlerKind: job?.handlerKind ?? 1,
    handlerName: job?.handlerName || null,
    propsJson: job?.propsJson ?? '',
    triggerKind: job?.triggerKind ?? 1,
    cronExpression: job?.cronExpression ?? '',
    intervalSeconds: job?.intervalSeconds ?? 60,
    oneShotTime: toLocalInput(job?.oneShotTime),
    startTime: toLocalInput(job?.startTime),
    endTime: toLocalInput(job?.endTime),
    storedWindow: { startTime: job?.startTime ?? null, endTime: job?.endTime ?? null },
    misfireStrategy: job?.misfireStrategy ?? 'skip',
    concurrencyMode: job?.concurrencyMode ?? 'serial-skip',
    timeoutSeconds: job?.timeoutSeconds ?? 0,
    retryCount: job?.retryCount ?? 0,
    retryIntervalSeconds: job?.retryIntervalSeconds ?? 0,
    failAlertThreshold: job?.failAlertThreshold ?? 0,
    alertByNotice: job?.alertByNotice ?? false,
    remark: job?.remark ?? '',
  };
}

/** The create body (the update body is the same without `code`). */
export function jobBody(form: JobForm): Record<string, unknown> & { code: string } {
  return {
    code: form.code.trim(),
    name: form.name.trim(),
    handlerKind: form.handlerKind,
    handlerName: form.handlerKind === 1 ? (form.handlerName ?? '') : '',
    propsJson: form.propsJson.trim() === '' ? null : form.propsJson,
    triggerKind: form.triggerKind,
    cronExpression: form.triggerKind === 1 ? form.cronExpression.trim() : null,
    intervalSeconds: form.triggerKind === 2 ? form.intervalSeconds : null,
    oneShotTime: form.triggerKind === 3 ? fromLocalInput(form.oneShotTime) : null,
    // Sent every time: an update without them would clear the window the job has.
    startTime: keptInstant(form.startTime, form.storedWindow.startTime),
    endTime: keptInstant(form.endTime, form.storedWindow.endTime),
    misfireStrategy: form.misfireStrategy,
    concurrencyMode: form.concurrencyMode,
    timeoutSeconds: form.timeoutSeconds ?? 0,
    retryCount: form.retryCount ?? 0,
    retryIntervalSeconds: form.retryIntervalSeconds ?? 0,
    failAlertThreshold: form.failAlertThreshold ?? 0,
    alertByNotice: form.alertByNotice,
    remark: form.remark.trim() === '' ? null : form.remark,
  };
}

/** Pause applies to Ready and Panic jobs, resume to Paused and Panic ones (the service answers 47010 else). */
export const canPause = (status: JobStatus): boolean => status === 1 || status === 4;
export const canResume = (status: JobStatus): boolean => status === 2 || status === 4;

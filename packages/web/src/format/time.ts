/** Instants in the browser's time zone and the console's locale. */

function parse(value: string | number | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * An instant (ISO string, epoch milliseconds or Date) as date and time in the browser's zone ('Dec 2, 2026,
 * 12:21:04 PM' / '2026/12/2 12:21:04'); '—' when missing, the text itself when it is not a time. `timeZone` is
 * for tests and for showing another zone on purpose.
 */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  locale: string,
  timeZone?: string,
): string {
  const date = parse(value);
  if (!date) return value === null || value === undefined || value === '' ? '—' : String(value);
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'medium',
    ...(timeZone ? { timeZone } : {}),
  }).format(date);
}

const RELATIVE: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/**
 * An instant relative to `now` ('5 minutes ago', '5分钟前', 'in 2 days'); '—' when missing.
 *
 * @example formatRelative('2026-12-02T04:16:00Z', 'en-US', Date.parse('2026-12-02T04:21:00Z')) // '5 minutes ago'
 */
export function formatRelative(
  value: string | number | Date | null | undefined,
  locale: string,
  now: number = Date.now(),
): string {
  const date = parse(value);
  if (!date) return '—';
  const seconds = Math.round((date.getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of RELATIVE) {
    if (Math.abs(seconds) >= size || unit === 'second')
      return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** Sizes, fractions, counts and durations in the console's locale. */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/**
 * A byte count as B/KB/MB/GB/TB (base 1024, as operating systems show memory), one decimal from KB up.
 * A missing or negative count is '—'.
 *
 * @example formatBytes(121180160, 'en-US') // '115.6 MB'
 */
export function formatBytes(bytes: number | null | undefined, locale: string): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : 1;
  const text = new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
  return `${text} ${UNITS[unit]}`;
}

/**
 * A percentage given as percent points (`12.5` is 12.5 %), one decimal; '—' when missing.
 *
 * @example formatPercent(0.1, 'en-US') // '0.1%'
 */
export function formatPercent(points: number | null | undefined, locale: string): string {
  if (points === null || points === undefined || !Number.isFinite(points)) return '—';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(points / 100);
}

/** A count with the locale's grouping; '—' when missing. */
export function formatNumber(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return new Intl.NumberFormat(locale).format(value);
}

const STEPS: ReadonlyArray<readonly [Intl.NumberFormatOptions['unit'], number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/**
 * A length of time in seconds as its two largest units ('3 days 4 hr', '3天4小时'); '—' when missing.
 *
 * @example formatDuration(273_600, 'en-US') // '3 days, 4 hr'
 */
export function formatDuration(seconds: number | null | undefined, locale: string): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  let rest = Math.floor(seconds);
  const parts: string[] = [];
  for (const [unit, size] of STEPS) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0 || (unit === 'second' && parts.length === 0)) {
      parts.push(new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(amount));
    }
    if (parts.length === 2) break;
  }
  return new Intl.ListFormat(locale, { style: 'narrow', type: 'unit' }).format(parts);
}

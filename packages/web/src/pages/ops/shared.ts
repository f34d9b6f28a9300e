/** Small render helpers and formats the ops pages share (table buttons, confirmations, sizes, times). */
import { NButton, NPopconfirm } from 'naive-ui';
import { h, type VNode } from 'vue';

/**
 * Text colours of row buttons: Naive UI's theme colours (#18a058, #f0a020, #d03050) are below the 4.5:1
 * contrast WCAG AA asks for small text on white; the palette's shades (theme-palette.ts) pass it in either scheme.
 */
const TEXT_COLOURS = {
  primary: 'var(--svc-primary-text)',
  warning: 'var(--svc-warning-text)',
  error: 'var(--svc-error-text)',
} as const;

/** A text button of a table row; `testid` names it for the E2E. */
export function rowButton(
  label: string,
  onClick: () => void,
  testid: string,
  type: keyof typeof TEXT_COLOURS = 'primary',
): VNode {
  // The same shade in every state: Naive UI lightens a `color` for hover and focus, below AA again.
  const colour = TEXT_COLOURS[type];
  return h(
    NButton,
    {
      size: 'small',
      text: true,
      themeOverrides: { textColorText: colour, textColorTextHover: colour, textColorTextPressed: colour },
      onClick,
      'data-testid': testid,
    },
    () => label,
  );
}

/** A row button that asks first (`question`, with the given OK/Cancel labels). */
export function confirmButton(
  label: string,
  question: string,
  labels: { ok: string; cancel: string },
  onConfirm: () => void,
  testid: string,
): VNode {
  return h(
    NPopconfirm,
    {
      onPositiveClick: onConfirm,
      positiveText: labels.ok,
      negativeText: labels.cancel,
      positiveButtonProps: { 'data-testid': `${testid}-ok` } as Record<string, unknown>,
    },
    { trigger: () => rowButton(label, () => {}, testid, 'error'), default: () => question },
  );
}

/** `1536` → `1.5 KB` (binary units, one decimal from KB up). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** An ISO time in the browser's locale and zone; empty for null. */
export function formatTime(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(locale);
}

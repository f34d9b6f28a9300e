/**
 * The console's own colours beside Naive UI's theme, one set per scheme, published as CSS custom properties on
 * the document (`--svc-…`), so page styles and render helpers name a role, never a hex value that breaks in dark.
 * Every text colour keeps a 4.5:1 contrast (WCAG AA) on its scheme's card and table background.
 */
export const PALETTE = {
  light: {
    '--svc-primary-text': '#0e6b3c',
    '--svc-primary-strong': '#0a6236',
    '--svc-warning-text': '#8a5300',
    '--svc-error-text': '#b3261e',
    '--svc-error-strong': '#a8213c',
    '--svc-link': '#1060c9',
    '--svc-text-1': '#333639',
    '--svc-text-2': '#4a4a4a',
    '--svc-border': '#e0e0e6',
    '--svc-input-border': '#8a8f96',
    '--svc-surface-2': '#fafafc',
    '--svc-unread': '#f3f8f5',
    '--svc-error-bg': '#fdecea',
    '--svc-chart-1': '#0c7a43',
    '--svc-chart-2': '#3b6fb6',
    '--svc-page-bg': '#f0f2f5',
  },
  dark: {
    '--svc-primary-text': '#63e2b7',
    '--svc-primary-strong': '#7fe7c4',
    '--svc-warning-text': '#f2c97d',
    '--svc-error-text': '#ff8f8f',
    '--svc-error-strong': '#ffa8a8',
    '--svc-link': '#8ab8ff',
    '--svc-text-1': 'rgba(255, 255, 255, 0.88)',
    '--svc-text-2': 'rgba(255, 255, 255, 0.74)',
    '--svc-border': 'rgba(255, 255, 255, 0.14)',
    '--svc-input-border': 'rgba(255, 255, 255, 0.45)',
    '--svc-surface-2': 'rgba(255, 255, 255, 0.06)',
    '--svc-unread': 'rgba(99, 226, 183, 0.12)',
    '--svc-error-bg': 'rgba(255, 110, 110, 0.16)',
    '--svc-chart-1': '#63e2b7',
    '--svc-chart-2': '#8ab8ff',
    '--svc-page-bg': '#101014',
  },
} as const;

/** Writes the scheme's custom properties (and `color-scheme`, for scrollbars and form controls) on `root`. */
export function applyPalette(root: HTMLElement, dark: boolean): void {
  for (const [name, value] of Object.entries(dark ? PALETTE.dark : PALETTE.light))
    root.style.setProperty(name, value);
  root.style.colorScheme = dark ? 'dark' : 'light';
  root.dataset.theme = dark ? 'dark' : 'light';
}

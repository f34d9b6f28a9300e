/**
 * The console's small icon set: line drawings on a 24-unit grid, stroked in the text colour (so they follow the
 * theme), drawn for this project. A menu's `icon` names one of them; an unknown name draws nothing. A few hundred
 * bytes instead of an icon library in the first bundle.
 */
import { h, type VNode } from 'vue';

/** Each icon: the `d` of its paths (stroke only, round caps). */
export const ICONS: Readonly<Record<string, readonly string[]>> = {
  settings: [
    'M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6',
    'M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1',
  ],
  density: ['M4 6h16M4 12h16M4 18h16'],
  columns: ['M4 4h16v16H4z', 'M10 4v16M15 4v16'],
  refresh: ['M20 12a8 8 0 1 1-2.3-5.7', 'M20 4v5h-5'],
  search: ['M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14', 'M16 16l4.5 4.5'],
  sun: [
    'M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8',
    'M12 2v2M12 20v2M2 12h2M20 12h2M5 5l1.4 1.4M17.6 17.6L19 19M5 19l1.4-1.4M17.6 6.4L19 5',
  ],
  moon: ['M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z'],
};

/** The icon `name` as an inline SVG (hidden from screen readers: its button or menu entry carries the name). */
export function renderIcon(name: string | null | undefined, size = 18): VNode | null {
  const paths = name ? ICONS[name] : undefined;
  if (!paths) return null;
  return h(
    'svg',
    {
      viewBox: '0 0 24 24',
      width: size,
      height: size,
      fill: 'none',
      stroke: 'currentColor',
      'stroke-width': 2,
      'stroke-linecap': 'round',
      'stroke-linejoin': 'round',
      'aria-hidden': 'true',
      focusable: 'false',
      class: 'svc-icon',
    },
    paths.map((d) => h('path', { d })),
  );
}

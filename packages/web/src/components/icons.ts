/**
 * The console's small icon set: line drawings on a 24-unit grid, stroked in the text colour (so they follow the
 * theme), drawn for this project. A menu's `icon` names one of them; an unknown name draws nothing. A few hundred
 * bytes instead of an icon library in the first bundle.
 */
import { h, type VNode } from 'vue';

/** Each icon: the `d` of its paths (stroke only, round caps). */
const GEAR = [
  'M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6',
  'M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1',
];

export const ICONS: Readonly<Record<string, readonly string[]>> = {
  // The shell's own.
  settings: GEAR,
  density: ['M4 6h16M4 12h16M4 18h16'],
  columns: ['M4 4h16v16H4z', 'M10 4v16M15 4v16'],
  refresh: ['M20 12a8 8 0 1 1-2.3-5.7', 'M20 4v5h-5'],
  search: ['M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14', 'M16 16l4.5 4.5'],
  sun: [
    'M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8',
    'M12 2v2M12 20v2M2 12h2M20 12h2M5 5l1.4 1.4M17.6 17.6L19 19M5 19l1.4-1.4M17.6 6.4L19 5',
  ],
  moon: ['M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z'],
  // Menus: the names the seed gives its menus (packages/data seed/menus.ts) and a fallback per menu type.
  home: ['M3 11l9-7 9 7', 'M5 10v10h14V10', 'M10 20v-6h4v6'],
  page: ['M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6'],
  folder: ['M3 6h6l2 2h10v11H3z'],
  setting: GEAR,
  user: ['M12 4a4 4 0 1 0 0 8a4 4 0 1 0 0-8', 'M4 21c0-4 4-6 8-6s8 2 8 6'],
  team: [
    'M9 5a3 3 0 1 0 0 6a3 3 0 1 0 0-6',
    'M3 20c0-3.5 2.7-5.5 6-5.5s6 2 6 5.5',
    'M16 5.5a3 3 0 0 1 0 5.5',
    'M17.5 14.8c2.2.6 3.5 2.4 3.5 5.2',
  ],
  menu: ['M4 6h16M4 12h16M4 18h10'],
  apartment: ['M9 3h6v5H9z', 'M3 16h6v5H3z', 'M15 16h6v5h-6z', 'M12 8v4M6 16v-4h12v4'],
  idcard: [
    'M3 5h18v14H3z',
    'M8 9a2 2 0 1 0 0 4a2 2 0 1 0 0-4',
    'M5 17c.5-1.6 1.6-2.4 3-2.4s2.5.8 3 2.4',
    'M14 10h4M14 14h4',
  ],
  control: ['M4 6h16M4 12h16M4 18h16', 'M14 4v4M8 10v4M16 16v4'],
  book: ['M5 4h12a2 2 0 0 1 2 2v14H7a2 2 0 0 1-2-2z', 'M5 18a2 2 0 0 1 2-2h12'],
  file: ['M6 3h8l5 5v13H6z', 'M14 3v5h5'],
  link: [
    'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1',
    'M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  ],
  safety: ['M12 3l8 3v6c0 5-3.5 8-8 9c-4.5-1-8-4-8-9V6z', 'M9 12l2 2 4-4'],
  delete: ['M4 7h16', 'M9 7V4h6v3', 'M6 7l1 13h10l1-13', 'M10 11v6M14 11v6'],
  notification: ['M6 16v-5a6 6 0 0 1 12 0v5l2 2H4z', 'M10 20a2 2 0 0 0 4 0'],
  monitor: ['M3 4h18v12H3z', 'M8 20h8M12 16v4'],
  profile: ['M6 3h12v18H6z', 'M9 8h6M9 12h6M9 16h4'],
  login: ['M14 4h5v16h-5', 'M3 12h11', 'M10 8l4 4-4 4'],
  bug: [
    'M9 7a3 3 0 0 1 6 0',
    'M7 9h10v6a5 5 0 0 1-10 0z',
    'M12 11v8',
    'M3 12h4M17 12h4M4 7l3 2M20 7l-3 2M4 19l3-2M20 19l-3-2',
  ],
  dashboard: ['M4 16a8 8 0 1 1 16 0', 'M12 16l4-5', 'M3 20h18'],
  database: [
    'M5 6c0-1.7 3.1-3 7-3s7 1.3 7 3-3.1 3-7 3-7-1.3-7-3',
    'M5 6v12c0 1.7 3.1 3 7 3s7-1.3 7-3V6',
    'M5 12c0 1.7 3.1 3 7 3s7-1.3 7-3',
  ],
  schedule: ['M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18', 'M12 7v5l3 3'],
  appstore: ['M4 4h6v6H4z', 'M14 4h6v6h-6z', 'M4 14h6v6H4z', 'M14 14h6v6h-6z'],
};

/** The icon of a menu node: its own when the set has it, else the fallback of its type (so a collapsed sidebar
 * always shows a drawing, never a letter). */
export function menuIcon(icon: string | null | undefined, type: string): string {
  if (icon && ICONS[icon]) return icon;
  return type === 'catalog' ? 'folder' : 'page';
}

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

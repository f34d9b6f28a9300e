/**
 * What the admin pages share: the page context (typed client, messages, permission check, action buttons and
 * the delete confirmation, from crud/feedback.ts), a named checkbox column, the expansion of tree tables and
 * accessible button colours. The pure tree helpers live in tree.ts (unit-tested).
 */
import { type DataTableColumns, type GlobalThemeOverrides, NCheckbox } from 'naive-ui';
import { h, type Ref, ref } from 'vue';
import DictTag from '../../components/DictTag.vue';
import { type PageFeedback, usePageFeedback } from '../../crud/feedback.js';

export { orNull, parentOptions, type TreeRow, toTree } from './tree.js';

/** The admin pages' helpers: the console's page feedback (see crud/feedback.ts). */
export type AdminPage = PageFeedback;
export const useAdminPage: () => AdminPage = usePageFeedback;

/**
 * A checkbox column for batch actions. Naive UI's own selection column gives its checkboxes no accessible name
 * (axe: aria-toggle-field-name), so each checkbox here is named after its row.
 */
export function checkColumn<Row extends { id: number }>(
  checked: Ref<number[]>,
  title: () => string,
  nameOf: (row: Row) => string,
): DataTableColumns<Row>[number] {
  return {
    key: 'check',
    width: 72,
    title,
    render: (row) =>
      h(NCheckbox, {
        checked: checked.value.includes(row.id),
        'aria-label': nameOf(row),
        'data-testid': `check-${row.id}`,
        onUpdateChecked: (on: boolean) => {
          checked.value = on ? [...checked.value, row.id] : checked.value.filter((id) => id !== row.id);
        },
      }),
  };
}

/** The status column of a table: the row's `enabled` as the `common_status` dictionary's tag. */
export function statusColumn<Row extends { enabled: number | boolean }>(
  title: () => string,
  width?: number,
): DataTableColumns<Row>[number] {
  return {
    key: 'enabled',
    title,
    ...(width === undefined ? {} : { width }),
    render: (row) => h(DictTag, { code: 'common_status', value: row.enabled }),
  };
}

/**
 * The expanded rows of a tree table: every node with children starts expanded (the table's own
 * `default-expand-all` only sees the first, still empty data), and a parent that appears later (a child was
 * added) opens too; what the user collapsed stays collapsed across reloads.
 */
export function useExpansion() {
  const expanded = ref<number[]>([]);
  const seen = new Set<number>();
  function follow(tree: readonly { id: number; children?: readonly unknown[] }[]): void {
    const parents: number[] = [];
    const walk = (nodes: readonly { id: number; children?: readonly unknown[] }[]) => {
      for (const node of nodes) {
        if (!node.children?.length) continue;
        parents.push(node.id);
        walk(node.children as { id: number; children?: readonly unknown[] }[]);
      }
    };
    walk(tree);
    const fresh = parents.filter((id) => !seen.has(id));
    for (const id of fresh) seen.add(id);
    if (fresh.length > 0) expanded.value = [...expanded.value, ...fresh];
  }
  return { expanded, follow };
}

/**
 * Button colours of the admin pages. The console theme's hover colour (#0f8a4c, 4.4:1 on white) is also the
 * focus colour, and Naive UI gives the focus back to the button that opened a dialog: the focused "Edit" would
 * fail WCAG AA contrast. Hover and focus here take the palette's strong colour (theme-palette.ts: darker in light,
 * lighter in dark; a deeper red for deletes).
 */
export const accessibleButtons: GlobalThemeOverrides = {
  Button: {
    textColorHover: 'var(--svc-primary-strong)',
    textColorFocus: 'var(--svc-primary-strong)',
    textColorTextHover: 'var(--svc-primary-strong)',
    textColorTextFocus: 'var(--svc-primary-strong)',
    textColorGhostHover: 'var(--svc-primary-strong)',
    textColorGhostFocus: 'var(--svc-primary-strong)',
    textColorTextHoverPrimary: 'var(--svc-primary-strong)',
    textColorTextFocusPrimary: 'var(--svc-primary-strong)',
    textColorTextHoverError: 'var(--svc-error-strong)',
    textColorTextFocusError: 'var(--svc-error-strong)',
  },
};

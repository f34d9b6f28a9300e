/**
 * Config centre helpers: the tab (group) of a key, the editor a value needs, and the entries a batch save
 * sends. Rows carry no group column, so the group is read from the key: `sys.<group>.…` for the service's
 * runtime keys (`sys.security.password.minLength` → `security`), the first segment for other dotted keys
 * (`shop.orders.limit` → `shop`), `other` for the rest.
 */
import type { components } from '../../api/schema.js';

export type ConfigValueType = 'string' | 'int' | 'bool' | 'enum';

export type ConfigRow = components['schemas']['ConfigRow'];

/** Groups shown first, in this order; others follow alphabetically. */
const FIRST = ['security', 'site', 'externalauth'];

export function configGroupOf(key: string): string {
  const parts = key.split('.').filter((p) => p !== '');
  if (parts[0] === 'sys' && parts.length > 2) return parts[1] as string;
  if (parts.length > 1) return parts[0] as string;
  return 'other';
}

/** Rows by group, groups in display order, rows by key. */
export function groupConfigs(rows: readonly ConfigRow[]): Array<{ group: string; rows: ConfigRow[] }> {
  const byGroup = new Map<string, ConfigRow[]>();
  for (const row of rows) {
    const group = configGroupOf(row.key);
    byGroup.set(group, [...(byGroup.get(group) ?? []), row]);
  }
  const rank = (g: string) => (FIRST.includes(g) ? FIRST.indexOf(g) : FIRST.length);
  return [...byGroup.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([group, list]) => ({ group, rows: [...list].sort((x, y) => x.key.localeCompare(y.key)) }));
}

/** The message key of a runtime key's localized name (dots would nest in flat messages). */
export const knobMessageKey = (key: string): string => `config.knob.${key.replace(/[^A-Za-z0-9]/g, '_')}`;

/** The `[{key, value}]` of the drafts that differ from the stored values. */
export function changedEntries(
  rows: readonly ConfigRow[],
  drafts: Readonly<Record<string, string>>,
): Array<{ key: string; value: string }> {
  return rows.flatMap((row) => {
    const draft = drafts[row.key];
    return draft !== undefined && draft !== row.value ? [{ key: row.key, value: draft }] : [];
  });
}

/** The admin pages' tree helpers: flat rows as a sorted tree, parent options without the edited subtree. */
import { describe, expect, it } from 'vitest';
import { orNull, parentOptions, toTree } from './tree.js';

const rows = [
  { id: 3, parentId: 1, sort: 2, name: 'Sales' },
  { id: 1, parentId: 0, sort: 1, name: 'HQ' },
  { id: 2, parentId: 1, sort: 1, name: 'Tech' },
  { id: 4, parentId: 2, sort: 1, name: 'Web' },
  { id: 5, parentId: 99, sort: 0, name: 'Orphan' },
];

describe('admin tree helpers', () => {
  it('builds the tree by parent, siblings by sort, a row whose parent is absent at the top', () => {
    const tree = toTree(rows);
    expect(tree.map((n) => n.name)).toEqual(['Orphan', 'HQ']);
    const hq = tree[1];
    expect(hq?.children?.map((n) => n.name)).toEqual(['Tech', 'Sales']);
    expect(hq?.children?.[0]?.children?.map((n) => n.name)).toEqual(['Web']);
    // Leaves carry no children array (a tree table would show an expander otherwise).
    expect(hq?.children?.[1]).not.toHaveProperty('children');
  });

  it('lists parent options indented by depth, without the edited node and its subtree', () => {
    const tree = toTree(rows);
    const all = parentOptions(tree, (n) => n.name, 'Top');
    expect(all.map((o) => o.value)).toEqual([0, 5, 1, 2, 4, 3]);
    expect(all.find((o) => o.value === 4)?.label).toBe('\u3000\u3000\u3000Web');
    const editingTech = parentOptions(tree, (n) => n.name, 'Top', 2);
    expect(editingTech.map((o) => o.value)).toEqual([0, 5, 1, 3]);
    const notOrphans = parentOptions(
      tree,
      (n) => n.name,
      'Top',
      undefined,
      (n) => n.id !== 5,
    );
    expect(notOrphans.map((o) => o.value)).toEqual([0, 1, 2, 4, 3]);
  });

  it('sends an empty optional text as null', () => {
    expect(orNull('  ')).toBeNull();
    expect(orNull(' Ada ')).toBe('Ada');
  });
});

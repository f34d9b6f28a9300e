/** Pure helpers of the admin pages: flat rows as a tree, a tree as parent options, optional texts. */

/** A row with its children (absent on a leaf, so tables show no expander there). */
export type TreeRow<Row> = Row & { children?: TreeRow<Row>[] };

/** Rows with `id`/`parentId` as a tree (`children` only where there are some), siblings by sort then id. */
export function toTree<Row extends { id: number; parentId: number; sort: number }>(
  rows: readonly Row[],
): TreeRow<Row>[] {
  type Node = TreeRow<Row>;
  const byId = new Map<number, Node>(rows.map((r) => [r.id, { ...r }]));
  const roots: Node[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    if (!parent) roots.push(node);
    else if (parent.children) parent.children.push(node);
    else parent.children = [node];
  }
  const order = (nodes: Node[]) => {
    nodes.sort((a, b) => a.sort - b.sort || a.id - b.id);
    for (const n of nodes) if (n.children) order(n.children);
  };
  order(roots);
  return roots;
}

/**
 * Select options of a tree, depth shown by indentation (a flat select keeps the inner input labelled, which the
 * tree select does not); `top` is the "top level" option (value 0); `skip` leaves out a node and its subtree
 * (the node being edited cannot move under itself); `keep` leaves out nodes that cannot be parents.
 */
export function parentOptions<Row extends { id: number; children?: Row[] }>(
  tree: readonly Row[],
  labelOf: (row: Row) => string,
  top: string,
  skip?: number,
  keep: (row: Row) => boolean = () => true,
): Array<{ label: string; value: number }> {
  const out = [{ label: top, value: 0 }];
  const walk = (nodes: readonly Row[], depth: number) => {
    for (const node of nodes) {
      if (node.id === skip || !keep(node)) continue;
      out.push({ label: `${'\u3000'.repeat(depth)}${labelOf(node)}`, value: node.id });
      if (node.children) walk(node.children, depth + 1);
    }
  };
  walk(tree, 1);
  return out;
}

/** An empty text as `null` (the API's optional text fields). */
export const orNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());

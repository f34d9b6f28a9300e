/**
 * Trees of rows linked by `parentId` (menus, organisations): building nested nodes and refusing a move that
 * would put a node under itself or one of its descendants.
 */

/** A row of a parent-linked tree. */
export interface TreeRow {
  id: number;
  parentId: number;
}

/** A row with its children. */
export type TreeNode<T> = T & { children: TreeNode<T>[] };

/**
 * Nests rows under their parents, keeping the input order among siblings. Rows whose parent is absent
 * (0, deleted, or filtered out) become roots.
 */
export function buildTree<T extends TreeRow>(rows: readonly T[]): TreeNode<T>[] {
  const nodes = new Map<number, TreeNode<T>>();
  for (const row of rows) nodes.set(row.id, { ...row, children: [] });
  const roots: TreeNode<T>[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id) as TreeNode<T>;
    const parent = row.parentId !== row.id ? nodes.get(row.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** True when making `parentId` the parent of `id` would create a cycle (itself or one of its descendants). */
export function wouldCreateCycle(rows: readonly TreeRow[], id: number, parentId: number): boolean {
  if (parentId === id) return true;
  const parentOf = new Map(rows.map((r) => [r.id, r.parentId] as const));
  const seen = new Set<number>();
  for (let at: number | undefined = parentId; at !== undefined && at !== 0; at = parentOf.get(at)) {
    if (at === id) return true;
    if (seen.has(at)) return true; // an existing cycle: refuse rather than loop
    seen.add(at);
  }
  return false;
}

/**
 * The rows of `wanted` plus all their ancestors present in `rows` (so a granted menu shows under its
 * catalog), in the order of `rows`.
 */
export function withAncestors<T extends TreeRow>(rows: readonly T[], wanted: ReadonlySet<number>): T[] {
  const byId = new Map(rows.map((r) => [r.id, r] as const));
  const keep = new Set<number>();
  for (const id of wanted) {
    for (let at = byId.get(id); at && !keep.has(at.id); at = byId.get(at.parentId)) keep.add(at.id);
  }
  return rows.filter((r) => keep.has(r.id));
}

/**
 * A router for route tables made of static segments, `:name` parameters and a trailing `*`: what the app's
 * router (fused-router.ts, step 3 of the request path in middleware/pipeline.ts) matches with instead of Hono's
 * TrieRouter. On the reference host's 487 entries the trie costs 1.6–2.6 µs a match of a path with a parameter,
 * this router a third of that (bench/router.mjs): the trie copies a parameter object per pattern child it
 * passes, keeps a list of candidate nodes per segment and sorts its answers. This router answers what the
 * TrieRouter answers for such a table (segment-router.test.ts compares both on the reference host's table and
 * on random ones): every registration whose path matches, in registration order, each with its own parameters.
 * One deliberate difference: the trie keys a parameter's node by its label, so a request segment that spells a
 * registered label (`/users/:id` asked literally) reaches that node twice and the trie answers its
 * registrations twice (a middleware would run twice); this router answers them once.
 *
 * Paths outside that form (regular-expression parameters, optional parameters, wildcards inside a path or a
 * segment, a parameter name used twice) are refused by {@link SegmentRouter.supports}; the caller then keeps
 * the TrieRouter for the whole table, as SmartRouter does.
 */
import type { Result, Router } from 'hono/router';

/** One registration: what `add` was given and its place among all registrations. */
interface Registration<T> {
  readonly method: string;
  readonly handler: T;
  readonly order: number;
}

/** Hono's splitPath: the segments after the leading slash (`/` is one empty segment). */
function segmentsOf(path: string): string[] {
  const parts = path.split('/');
  if (parts[0] === '') parts.shift();
  return parts;
}

/** A parameter segment this router takes: `:name`, the name without braces, `?` or `*`. */
const PARAMETER = /^:[^{}?*]+$/;

class SegmentNode<T> {
  /** Children by their static segment. */
  readonly statics = new Map<string, SegmentNode<T>>();
  /** Children for `:name` segments, by name (two names at one place are two nodes, as in the trie). */
  readonly parameters: SegmentNode<T>[] = [];
  /** The child for a trailing `*`. */
  star: SegmentNode<T> | undefined;
  /** This node's parameter name (parameter nodes only). */
  readonly name: string | undefined;
  /** The parameter names from the root to here, in order, and the segment index each one takes. */
  readonly names: readonly string[];
  readonly depths: readonly number[];
  readonly registrations: Registration<T>[] = [];
  /** The registrations a method matches here (its own and `ALL`), in order, by method: made on first use. */
  readonly byMethod = new Map<string, readonly Registration<T>[]>();

  constructor(name: string | undefined, names: readonly string[], depths: readonly number[]) {
    this.name = name;
    this.names = names;
    this.depths = depths;
  }

  forMethod(method: string): readonly Registration<T>[] {
    let list = this.byMethod.get(method);
    if (list === undefined) {
      list = this.registrations.filter((r) => r.method === method || r.method === 'ALL');
      this.byMethod.set(method, list);
    }
    return list;
  }
}

/**
 * A match's parameters: an object with nothing inherited (`c.req.param('toString')` is undefined, as with the
 * trie's `Object.create(null)`), made by a constructor so that it starts as a fast object: an
 * `Object.create(null)` starts as a dictionary, and making one was a third of a match.
 */
const Parameters = function Parameters() {} as unknown as new () => Record<string, string>;
Parameters.prototype = Object.create(null);

/** The parameters of a node without any: one shared object (nothing writes to a match's parameters). */
const NO_PARAMETERS: Record<string, string> = Object.freeze(new Parameters());

export class SegmentRouter<T> implements Router<T> {
  readonly name = 'SegmentRouter';
  readonly #root = new SegmentNode<T>(undefined, [], []);
  #order = 0;

  /** Whether `path` is of the form this router matches (else keep a general router for the table). */
  static supports(path: string): boolean {
    const parts = segmentsOf(path);
    const names = new Set<string>();
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      if (part === '*') {
        if (i !== parts.length - 1) return false;
      } else if (part.startsWith(':')) {
        if (!PARAMETER.test(part) || names.has(part)) return false;
        names.add(part);
      } else if (/[*{}?]/.test(part)) {
        return false;
      }
    }
    return true;
  }

  add(method: string, path: string, handler: T): void {
    if (!SegmentRouter.supports(path)) throw new Error(`SegmentRouter cannot match ${path}`);
    const parts = segmentsOf(path);
    let node = this.#root;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      if (part === '*') {
        node.star ??= new SegmentNode<T>(undefined, node.names, node.depths);
        node = node.star;
      } else if (part.startsWith(':')) {
        const name = part.slice(1);
        let child = node.parameters.find((p) => p.name === name);
        if (!child) {
          child = new SegmentNode<T>(name, [...node.names, name], [...node.depths, i]);
          node.parameters.push(child);
        }
        node = child;
      } else {
        let child = node.statics.get(part);
        if (!child) {
          child = new SegmentNode<T>(undefined, node.names, node.depths);
          node.statics.set(part, child);
        }
        node = child;
      }
    }
    node.registrations.push({ method, handler, order: ++this.#order });
    node.byMethod.clear();
  }

  match(method: string, path: string): Result<T> {
    const parts = segmentsOf(path);
    // No segment at all (an empty path, which Hono never asks for): nothing matches, as in the trie.
    if (parts.length === 0) return [[]] as Result<T>;
    const hits: SegmentNode<T>[] = [];
    this.#collect(this.#root, parts, 0, method, hits);
    return [entriesOf(hits, parts, method)] as Result<T>;
  }

  /** The nodes whose paths match `parts` from `index` on, below `node` (depth first). */
  #collect(
    node: SegmentNode<T>,
    parts: string[],
    index: number,
    method: string,
    hits: SegmentNode<T>[],
  ): void {
    if (index === parts.length) {
      hit(node, method, hits);
      // `/api/*` matches `/api` too.
      if (node.star) hit(node.star, method, hits);
      return;
    }
    // A trailing `*` takes what is left, one segment or more (an empty one too).
    if (node.star) hit(node.star, method, hits);
    const part = parts[index] as string;
    const next = index + 1;
    const child = node.statics.get(part);
    if (child) this.#collect(child, parts, next, method, hits);
    // The trie keeps `*` among its children by that name: a request segment `*` also walks into it (and so the
    // star's registrations come twice for `/api/*` itself, as the trie answers).
    else if (part === '*' && node.star) this.#collect(node.star, parts, next, method, hits);
    if (part !== '')
      for (const parameter of node.parameters) this.#collect(parameter, parts, next, method, hits);
  }
}

function hit<T>(node: SegmentNode<T>, method: string, hits: SegmentNode<T>[]): void {
  if (node.forMethod(method).length > 0) hits.push(node);
}

/** The parameters a node's registrations get: its names, taken from the segments at their depths. */
function parametersOf<T>(node: SegmentNode<T>, parts: string[]): Record<string, string> {
  if (node.names.length === 0) return NO_PARAMETERS;
  const params = new Parameters();
  for (let i = 0; i < node.names.length; i++)
    params[node.names[i] as string] = parts[node.depths[i] as number] as string;
  return params;
}

/** The hits' registrations in registration order, each with its node's parameters. */
function entriesOf<T>(
  hits: SegmentNode<T>[],
  parts: string[],
  method: string,
): [T, Record<string, string>][] {
  const entries: [T, Record<string, string>][] = [];
  if (hits.length === 1) {
    const node = hits[0] as SegmentNode<T>;
    const params = parametersOf(node, parts);
    for (const r of node.forMethod(method)) entries.push([r.handler, params]);
    return entries;
  }
  if (hits.length === 2) {
    // The usual case: the app-wide `*` and the route. Both lists are in order already: merge them.
    const [a, b] = hits as [SegmentNode<T>, SegmentNode<T>];
    const first = a.forMethod(method);
    const second = b.forMethod(method);
    const firstParams = parametersOf(a, parts);
    const secondParams = parametersOf(b, parts);
    let i = 0;
    let j = 0;
    while (i < first.length || j < second.length) {
      const x = first[i];
      const y = second[j];
      if (y === undefined || (x !== undefined && x.order < y.order)) {
        entries.push([(x as Registration<T>).handler, firstParams]);
        i++;
      } else {
        entries.push([y.handler, secondParams]);
        j++;
      }
    }
    return entries;
  }
  // More: every registration with its node's parameters, sorted by order.
  const all: [Registration<T>, Record<string, string>][] = [];
  for (const node of hits) {
    const params = parametersOf(node, parts);
    for (const r of node.forMethod(method)) all.push([r, params]);
  }
  all.sort((x, y) => x[0].order - y[0].order);
  for (const [r, params] of all) entries.push([r.handler, params]);
  return entries;
}

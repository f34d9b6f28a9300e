/**
 * The app's router: step 3 of the request path (middleware/pipeline.ts, "The request path"). Hono's default
 * SmartRouter falls back to its TrieRouter for our table (RegExpRouter refuses `/sys/user/page` beside
 * `/sys/user/:id`), so this one matches with a {@link SegmentRouter} while every path registered is of its form
 * and with Hono's TrieRouter from the first path that is not, and adds two things on top:
 * - the match of a path registered without parameters is kept (one Map lookup per request afterwards; the set
 *   of such paths is the route table, so the memo cannot grow with what clients send);
 * - a match is cut to a fused route's own entries ({@link FUSED}, set by openapi/register.ts) when only the
 *   global pipeline middleware ({@link PIPELINE}) comes before it; a consumer's middleware before it keeps the
 *   match whole.
 */
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { FUSED, PIPELINE } from './pipeline.js';
import { SegmentRouter } from './segment-router.js';

type Entry<T> = [T, Record<string, string>];

/** The Hono handler of a router entry (Hono stores `[handler, routerRoute]`). */
export function handlerOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function isStaticPath(path: string): boolean {
  return !path.includes(':') && !path.includes('*');
}

export class FusedRouter<T> implements Router<T> {
  readonly name = 'FusedRouter';
  /** The router that matches: the segment router until a path it cannot match is added, then a trie. */
  #inner: Router<T> = new SegmentRouter<T>();
  /** Everything added so far, to fill the trie when the segment router is given up. */
  readonly #added: [method: string, path: string, handler: T][] = [];
  /** Paths registered without parameters or wildcards: their matches are memoised. */
  readonly #staticPaths = new Set<string>();
  readonly #memo = new Map<string, Map<string, Result<T>>>();
  #version = 0;

  /** Grows with every route added: a verdict drawn from a match holds while it is unchanged. */
  get version(): number {
    return this.#version;
  }

  /** How many matches are memoised (bounded by the static routes times the methods asked for). */
  get memoised(): number {
    let n = 0;
    for (const byPath of this.#memo.values()) n += byPath.size;
    return n;
  }

  /** The name of the router that matches (`SegmentRouter` or `TrieRouter`). */
  get matcher(): string {
    return this.#inner.name;
  }

  add(method: string, path: string, handler: T): void {
    if (this.#inner instanceof SegmentRouter && !SegmentRouter.supports(path)) {
      const trie = new TrieRouter<T>();
      for (const [m, p, h] of this.#added) trie.add(m, p, h);
      this.#inner = trie;
      this.#added.length = 0;
    }
    if (this.#inner instanceof SegmentRouter) this.#added.push([method, path, handler]);
    this.#inner.add(method, path, handler);
    if (isStaticPath(path)) this.#staticPaths.add(path);
    this.#memo.clear();
    this.#version++;
  }

  match(method: string, path: string): Result<T> {
    const byPath = this.#memo.get(method);
    const known = byPath?.get(path);
    if (known) return known;
    const result = fuse(this.#inner.match(method, path) as [Entry<T>[]]);
    if (this.#staticPaths.has(path)) {
      if (byPath) byPath.set(path, result);
      else this.#memo.set(method, new Map([[path, result]]));
    }
    return result;
  }
}

/** A match with a fused route reduced to the route's own entries (see the module comment). */
function fuse<T>(result: [Entry<T>[]]): Result<T> {
  const entries = result[0];
  for (let i = 0; i < entries.length; i++) {
    const handler = handlerOf((entries[i] as Entry<T>)[0]) as { [FUSED]?: number; [PIPELINE]?: boolean };
    const own = handler[FUSED];
    if (own !== undefined) return [entries.slice(i, i + own)] as Result<T>;
    // A consumer's middleware before the route: the global pipeline must run before it, as it always did.
    if (handler[PIPELINE] !== true) return result as Result<T>;
  }
  return result as Result<T>;
}

/**
 * A route's request policy, declared in its own options (`registerRoute(ctx, route, { opLog, bodyLimit })`) and
 * read by the pipeline stages that act on it: the operation log (which reads it logs, which bodies only as a
 * summary) and the body limit (which routes take larger bodies). Each app's route table keeps its own
 * policies, so a module's routes bring theirs with them, consumer routes registered through `configure` too, and
 * nothing is filled when a module is imported.
 *
 * A stage asks by the request's method and path alone (the pipeline's contract for `Stage.applies`, which the
 * direct path also asks with a probe): the answer is the policy of the registered route the app's router
 * matches first for them, so `/sys/user/export` is the export route, not `/sys/user/{id}`. A path no route with
 * a policy could match is answered at once; the match of a path registered without parameters is kept while
 * the router is unchanged (bounded by the route table).
 */

/** What the operation log records of a route beyond its default (authenticated writes, with their body). */
export interface OpLogPolicy {
  /**
   * A `GET` recorded as a write is: the exports, which take data out of the system. @default false
   */
  read?: boolean;
  /**
   * The JSON body is recorded only as what this answers of it, whatever happens to the request (a guard's
   * refusal or a validation error included): the import routes carry thousands of rows of personal data. A
   * body that is not JSON is not recorded; one that does not parse is `<unserializable>`. @default none
   */
  summary?: (body: unknown) => Record<string, unknown>;
}

/**
 * The largest request body a route takes, instead of `Service:Api:MaxBodyBytes`:
 * - a number of bytes, refused with 413 and 48002 (the import routes: `Service:Import:MaxFileSizeMb`);
 * - `{ upload: maxFileBytes }`: a streamed multipart upload of a file up to that many bytes, plus the multipart
 *   framing, refused with 413 and 44002 `FileTooLarge`; its body is neither checked as JSON nor counted here
 *   without a length (the route counts while streaming).
 * A module gives the value its options say when its routes register (`register(ctx, services)`).
 */
export type BodyLimit = number | { readonly upload: number };

/** The policy part of a route's options. */
export interface RoutePolicy {
  opLog?: OpLogPolicy;
  bodyLimit?: BodyLimit;
}

/** What the policies ask of the app's router: Hono's `Router.match`, and FusedRouter's change counter. */
export interface PolicyRouter {
  match(method: string, path: string): unknown;
  readonly version?: number;
}

/** A router's match: `[[handler, {method, path}], params]` entries first (Hono's `Result`). */
type MatchEntries = [[[unknown, { method: string; path: string }], unknown][], ...unknown[]];

/** The router path of an OpenAPI template (`{id}` → `:id`, as zod-openapi registers it). */
export function routerPathOf(template: string): string {
  return template.replaceAll(/\/{(.+?)}/g, '/:$1');
}

export class RoutePolicies {
  /** Every registered route by `METHOD /router/:path`: its policy, or null for none. */
  readonly #routes = new Map<string, RoutePolicy | null>();
  /** Paths without parameters of the routes that carry a policy. */
  readonly #staticPaths = new Set<string>();
  /** How many routes with a policy have a path with parameters or a wildcard. */
  #templated = 0;
  #router: PolicyRouter | undefined;
  /** Kept answers for static paths, by method; valid while the router's version is `#version`. */
  readonly #memo = new Map<string, Map<string, RoutePolicy | null>>();
  #version: number | undefined;

  /** Records a route registered on `router` (a path in router form), with its policy if it has one. */
  add(router: PolicyRouter, method: string, path: string, policy: RoutePolicy | undefined): void {
    this.#router = router;
    const key = `${method.toUpperCase()} ${path}`;
    if (!this.#routes.has(key)) this.#routes.set(key, policy ?? null);
    if (policy !== undefined) {
      if (path.includes(':') || path.includes('*')) this.#templated++;
      else this.#staticPaths.add(path);
    }
    this.#memo.clear();
  }

  /** The policy of the registered route that answers `method path`, if it has one. */
  of(method: string, path: string): RoutePolicy | undefined {
    // Only a static path of a route with a policy, or a route with parameters, can answer with a policy.
    if (!this.#staticPaths.has(path) && this.#templated === 0) return undefined;
    const router = this.#router;
    if (router === undefined) return undefined;
    if (router.version !== this.#version) {
      this.#memo.clear();
      this.#version = router.version;
    }
    const kept = this.#memo.get(method)?.get(path);
    if (kept !== undefined) return kept ?? undefined;
    const found = this.#matched(router, method, path);
    if (this.#staticPaths.has(path)) {
      const byPath = this.#memo.get(method);
      if (byPath) byPath.set(path, found);
      else this.#memo.set(method, new Map([[path, found]]));
    }
    return found ?? undefined;
  }

  /** The policy of the first registered route in the router's match (Hono runs them in that order). */
  #matched(router: PolicyRouter, method: string, path: string): RoutePolicy | null {
    const [entries] = router.match(method, path) as MatchEntries;
    for (const entry of entries) {
      const route = entry[0]?.[1];
      if (route === undefined) continue;
      const policy = this.#routes.get(`${route.method} ${route.path}`);
      if (policy !== undefined) return policy;
    }
    return null;
  }
}

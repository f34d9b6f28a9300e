/**
 * V8 settings for a long-running server (`@svc/server/v8`, which loads nothing else), for a host to apply in its
 * first import, before the rest of the service loads: the reference host's `serving.ts` calls
 * {@link applyServingV8Flags} and is the first import of its main.ts. Importing this module changes nothing.
 *
 * `--no-allocation-site-pretenuring`: V8 allocates the objects of an allocation site (an object or array
 * literal) straight in the old generation once most of those it sampled were alive at a young-generation
 * collection. In a request server the objects alive at such a collection are those of the requests in flight,
 * so sites on the request path get pretenured although their objects die with the request. A dead old object is
 * only reclaimed by a full collection, and until then every young-generation collection treats what it points to
 * as alive: the request's context, parsed headers, body and SQL are copied and promoted in turn, and promote the
 * next requests' objects they point to. Measured on the reference host (bench/promotion.mjs, the update of
 * bench/oplog.mjs): 6.2 KB promoted per request with pretenuring, 0.4 KB without, and a fifth of the
 * young-generation collection time.
 */
import { setFlagsFromString } from 'node:v8';

/** The flags {@link applyServingV8Flags} sets. */
export const SERVING_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/**
 * An argument's flag name as written and without `no`/`no-`, with `_` read as `-`, after one dash or two (Node
 * hands V8 all of these spellings).
 */
function flagNames(arg: string): string[] {
  const name = /^--?([\w-]+)/.exec(arg.replaceAll('_', '-'))?.[1];
  return name === undefined ? [] : [name, name.replace(/^no-?/, '')];
}

/**
 * Sets {@link SERVING_V8_FLAGS}, except a flag the process was started with either way (`node
 * --allocation-site-pretenuring main.js` keeps V8's default): answers the flags it set. Call it before the
 * service's modules load; a flag set later applies from then on.
 * @example applyServingV8Flags(); // first statement of the host's first import
 */
export function applyServingV8Flags(
  execArgv: readonly string[] = process.execArgv,
  set: (flag: string) => void = setFlagsFromString,
): string[] {
  const chosen = new Set(execArgv.flatMap(flagNames));
  const applied: string[] = [];
  for (const flag of SERVING_V8_FLAGS) {
    // The flag's own name, without its `no-`.
    if (chosen.has(flagNames(flag)[1] ?? flag)) continue;
    set(flag);
    applied.push(flag);
  }
  return applied;
}

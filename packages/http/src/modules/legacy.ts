/**
 * Transitional: the areas not yet moved into the module shape register through their old functions, which take
 * the whole `HttpDeps`. The composition root hands it to them under a symbol that is not exported from the
 * package; each area that moves drops its use of this file, and the file goes with the last one.
 */
import type { HttpDeps } from '../deps.js';
import type { ModuleCore } from '../module/core.js';
import type { ModuleRoute } from '../module/define.js';
import type { RegisterContext } from '../openapi/register.js';

export const HTTP_DEPS: unique symbol = Symbol('svc.httpDeps');

/** The whole deps of the server a module core belongs to (legacy areas only). */
export function httpDepsOf(core: ModuleCore): HttpDeps {
  const deps = (core as ModuleCore & { [HTTP_DEPS]?: HttpDeps })[HTTP_DEPS];
  if (!deps) throw new TypeError('This module core carries no HttpDeps.');
  return deps;
}

/** The routes of a legacy area as one entry (its paths are not known before it registers). */
export function legacyRoutes<S>(
  area: string,
  register: (ctx: RegisterContext, services: S) => void,
): ModuleRoute<S> {
  return { route: { method: 'get', path: `(legacy ${area})` }, register };
}

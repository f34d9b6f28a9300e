/** What every operations route file receives: the server's deps and its operations services. */
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import type { HttpDeps } from '../../deps.js';
import type { OpsServices } from '../../ops/services.js';

export interface OpsRouteDeps {
  http: HttpDeps;
  ops: OpsServices;
  /** `Service:Api:MaxPageSize`. */
  maxPageSize: number;
}

/** The acting user id of the request (audit columns), null for an unbound API key. */
export const actorOf = (c: Context<AppEnv>): number | null => c.get('principal')?.userId ?? null;

/**
 * `GET /hub/realtime`: the hub's upgrade route. Not part of the API contract (no OpenAPI operation): it is added
 * straight on the app, where it runs the pipeline as every request does, and declared here so that another module
 * claiming the path fails start-up. The socket itself is opened by the listener's upgrade hook of the module.
 */
import type { RegisterContext } from '../../../openapi/register.js';
import { HUB_PATH } from '../hub.js';
import type { RealtimeServices } from '../services.js';

export const route = { method: 'get', path: HUB_PATH } as const;

export function register(ctx: RegisterContext, d: Pick<RealtimeServices, 'hub'>): void {
  d.hub.mount(ctx.app);
}

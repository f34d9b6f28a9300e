/** What the portal services are built from (passed in, so tests pin the clock and consumers replace parts). */
import type { Repositories } from '@svc/data';
import type { Cache } from '@svc/data/cache';

export interface PortalDeps {
  repos: Pick<Repositories, 'modules' | 'menus' | 'users'>;
  /** The shared cache: portal answers and the generation counters live there. */
  cache: Cache;
  /** Bumps the portal generation (every instance stops reading older portal entries). */
  bumpGeneration(): Promise<number>;
  /** Lifetime of a cached portal answer (`Service:Cache:PermissionMinutes`). */
  ttlMs: number;
  now: () => Date;
}

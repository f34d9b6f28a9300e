/**
 * What the `RecycleBin` module builds: the bin's registry (each enabled module's `recycleTypes` registered into
 * it at start-up, a consumer's further types through `deps.modules.servicesOf(recycleBinModule).recycleBin`),
 * the administration actor factory and the re-authentication window a type's restore may ask.
 */
import type { AdminServices, RecycleBinRegistry } from '@svc/security';
import type { ReauthCheck } from '../../security/guards.js';

export interface RecycleBinServices {
  recycleBin: RecycleBinRegistry;
  /** The caller as an administration actor (its codes and data scope). */
  actorOf: AdminServices['actorOf'];
  /** The re-authentication window, for the restore of a type whose own writes are high-sensitivity. */
  reauth: ReauthCheck;
}

/** What the recycle-bin route files pick from: the module's services. */
export type RecycleBinRouteDeps = RecycleBinServices;

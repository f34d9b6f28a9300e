/**
 * The optional libraries of the modules (each module's `libraries`): for the built-in ones optional peers of
 * @svc/modules (whose engines import them) as the database drivers are of @svc/data: bullmq and ioredis (module
 * `Job` on the BullMQ engine), exceljs (module `Import`), openid-client (module `ExternalAuth` with a
 * provider) and @simplewebauthn/server (module `Passkey`). Each is loaded on first use; start-up checks the ones the enabled modules need with the drivers' check (@svc/data drivers.ts: the package.json read,
 * never imported, its version and `engines.node` judged), so a missing one or one outside the supported major
 * stops start-up with the package to install. A module listed in `Service:Api:DisabledModules`, or one not using
 * its library, needs nothing.
 */
import { type DriverProbe, requirePeers } from '@svc/data';
import { EXCEL_LIBRARY, JOB_LIBRARIES, OPENID_LIBRARY, WEBAUTHN_LIBRARY } from '@svc/modules';
import type { ModuleLibrary } from '../module/define.js';

/** Every library of the built-in modules and the versions supported (the peer ranges of package.json). */
export const MODULE_LIBRARIES = [
  JOB_LIBRARIES.bullmq,
  JOB_LIBRARIES.ioredis,
  EXCEL_LIBRARY,
  OPENID_LIBRARY,
  WEBAUTHN_LIBRARY,
] as const;

/**
 * Refuses a start whose enabled modules need a library that is missing or unsupported (nothing is imported when
 * each is found). Tests resolve from a fake install (`probe.from`) and stand in for the import (`load`).
 * @throws DriverMissingError | DriverVersionError
 */
export async function checkModuleLibraries<L extends ModuleLibrary>(
  libraries: readonly L[],
  probe?: DriverProbe,
  load: (library: L) => Promise<unknown> = (library) => library.load(),
): Promise<void> {
  for (const library of libraries)
    await requirePeers([...library.needs], () => load(library), probe ?? { from: library.from });
}

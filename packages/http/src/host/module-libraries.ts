/**
 * The optional libraries of the built-in modules, optional peers of @svc/modules (whose engines import them) as
 * the database drivers are of @svc/data: bullmq and ioredis (module `Job` on the BullMQ engine), exceljs (module
 * `Import`) and openid-client (module `ExternalAuth` with a provider). Each is loaded on first use; start-up
 * checks the ones the enabled modules need with the drivers' check (@svc/data drivers.ts: the package.json read,
 * never imported, its version and `engines.node` judged), so a missing one or one outside the supported major
 * stops start-up with the package to install. A module listed in `Service:Api:DisabledModules`, or one not using
 * its library, needs nothing.
 */
import { type DriverProbe, type PeerNeed, requirePeers } from '@svc/data';
import type { Configuration } from '@svc/kernel';
import {
  bullMqSelection,
  EXCEL_LIBRARY,
  excelLibraryNeeds,
  externalAuthLibraryNeeds,
  importExcel,
  importOpenidClient,
  JOB_LIBRARIES,
  jobLibraryNeeds,
  loadJobLibraries,
  MODULE_PEERS_FROM,
  OPENID_LIBRARY,
} from '@svc/modules';

/** Every module library and the versions supported (the peer ranges of package.json). */
export const MODULE_LIBRARIES = [
  JOB_LIBRARIES.bullmq,
  JOB_LIBRARIES.ioredis,
  EXCEL_LIBRARY,
  OPENID_LIBRARY,
] as const;

/** The libraries one enabled module needs with this configuration, and how they are imported. */
export interface ModuleLibraryUse {
  module: string;
  needs: PeerNeed[];
  load: () => Promise<unknown>;
  /** Where the library resolves from: the package whose code imports it. */
  from: string;
}

/** What the modules `enabled` answers true for need, with this configuration. */
export function moduleLibraryUses(
  config: Pick<Configuration, 'service'>,
  enabled: (module: string) => boolean,
): ModuleLibraryUse[] {
  const uses: ModuleLibraryUse[] = [];
  const bull = enabled('Job') ? bullMqSelection(config.service) : null;
  if (bull)
    uses.push({
      module: 'Job',
      needs: jobLibraryNeeds(bull),
      load: loadJobLibraries,
      from: MODULE_PEERS_FROM,
    });
  if (enabled('Import'))
    uses.push({ module: 'Import', needs: excelLibraryNeeds(), load: importExcel, from: MODULE_PEERS_FROM });
  const oidc = enabled('ExternalAuth') ? externalAuthLibraryNeeds(config.service) : [];
  if (oidc.length > 0)
    uses.push({ module: 'ExternalAuth', needs: oidc, load: importOpenidClient, from: MODULE_PEERS_FROM });
  return uses;
}

/**
 * Refuses a start whose enabled modules need a library that is missing or unsupported (nothing is imported when
 * each is found). Tests resolve from a fake install (`probe.from`) and stand in for the import (`load`).
 * @throws DriverMissingError | DriverVersionError
 */
export async function checkModuleLibraries(
  config: Pick<Configuration, 'service'>,
  enabled: (module: string) => boolean,
  probe?: DriverProbe,
  load: (use: ModuleLibraryUse) => Promise<unknown> = (use) => use.load(),
): Promise<void> {
  for (const use of moduleLibraryUses(config, enabled))
    await requirePeers(use.needs, () => load(use), probe ?? { from: use.from });
}

/**
 * The Excel library, loaded on the first import or export rather than at start: exceljs and its zip, XML and
 * stream dependencies are a large share of the host's idle memory, and most processes never read a workbook.
 * exceljs is an optional peer of @svc/modules needed by module `Import` alone: start-up checks it is installed in a
 * supported version while the module is on (host/module-libraries.ts), and a host with `Import` in
 * `Service:Api:DisabledModules` needs it not at all. Should it still fail to load later (removed from a running
 * deployment), those routes answer 46001 ExcelProviderMissing.
 */
import type { PeerNeed } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import { ImportErrorCode } from './codes.js';

/** The version supported: the peer range of @svc/modules' package.json (packaging.test.ts keeps them equal). */
export const EXCEL_LIBRARY = { package: 'exceljs', range: '^4.4.0' } as const;

/** What module `Import` loads while it is on. */
export const excelLibraryNeeds = (): PeerNeed[] => [
  {
    ...EXCEL_LIBRARY,
    selectedBy: 'Module Import is on (Service:Api:DisabledModules does not list it)',
    owner: '@svc/modules',
  },
];

/** Imports exceljs (the routes call {@link loadExcel}; start-up's check calls this only in an odd layout). */
export const importExcel = (): Promise<{ default: ExcelModule }> => import('exceljs');

export type ExcelModule = typeof import('exceljs');

let loading: Promise<ExcelModule> | undefined;

/** Resolves exceljs once (its default export); 46001 when the package cannot be loaded. */
export function loadExcel(load: () => Promise<{ default: ExcelModule }> = importExcel) {
  loading ??= load().then(
    (m) => m.default,
    (error: unknown) => {
      loading = undefined;
      throw new BusinessError(ImportErrorCode.ExcelProviderMissing, {
        package: 'exceljs',
        reason: error instanceof Error ? error.message : String(error),
      });
    },
  );
  return loading;
}

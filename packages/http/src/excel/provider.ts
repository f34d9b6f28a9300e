/**
 * The Excel library, loaded on the first import or export rather than at start: exceljs and its zip, XML and
 * stream dependencies are a large share of the host's idle memory, and most processes never read a workbook.
 * A host installed without it (a slimmed deployment) answers 46001 ExcelProviderMissing on those routes
 * instead of failing at start.
 */
import { BusinessError, ErrorCode } from '@svc/kernel';

export type ExcelModule = typeof import('exceljs');

let loading: Promise<ExcelModule> | undefined;

/** Resolves exceljs once (its default export); 46001 when the package cannot be loaded. */
export function loadExcel(load: () => Promise<{ default: ExcelModule }> = () => import('exceljs')) {
  loading ??= load().then(
    (m) => m.default,
    (error: unknown) => {
      loading = undefined;
      throw new BusinessError(ErrorCode.ExcelProviderMissing, {
        package: 'exceljs',
        reason: error instanceof Error ? error.message : String(error),
      });
    },
  );
  return loading;
}

/**
 * The error codes of module `Import` (46xxx). Numbers are part of the public contract: never renumber a
 * member. The set keeps the kernel catalogue's source name (`ErrorCode`), so `GET /api/v1/meta/error-codes` lists
 * them as before; the module registers them while it is on.
 */
import { defineErrorCodes, type ErrorCodeSpec } from '@svc/kernel';

const excel = (name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.excel.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

export const ImportErrorCode = defineErrorCodes('ErrorCode', {
  ExcelProviderMissing: excel('ExcelProviderMissing', 46001),
  ImportFileEmpty: excel('ImportFileEmpty', 46002),
  /** More data rows than `Service:Import:MaxRows`; `args {rows, max}`. */
  ImportRowLimitExceeded: excel('ImportRowLimitExceeded', 46003),
  /** A required column has no header in the sheet (after mapping); `args.columns`. */
  ImportColumnMissing: excel('ImportColumnMissing', 46004),
  ImportCellRequired: excel('ImportCellRequired', 46005),
  ImportCellDictInvalid: excel('ImportCellDictInvalid', 46006),
  ImportCellRefNotFound: excel('ImportCellRefNotFound', 46007),
  ImportCellFormatInvalid: excel('ImportCellFormatInvalid', 46008),
  ImportDuplicateInFile: excel('ImportDuplicateInFile', 46009),
  ImportDuplicateInDb: excel('ImportDuplicateInDb', 46010),
  ImportOrgOutOfScope: excel('ImportOrgOutOfScope', 46011),
  /** More rows match than `Service:Import:ExportMaxRows`; `args {rows, max}`. */
  ExportRowLimitExceeded: excel('ExportRowLimitExceeded', 46012),
  /** `columns` names a column the export does not have; `args.columns`. */
  ExportColumnInvalid: excel('ExportColumnInvalid', 46013),
  /** An import commit would create users while `Service:Security:DefaultInitialPassword` is unset (contract §10). */
  ImportInitialPasswordUnset: excel('ImportInitialPasswordUnset', 46014),
});

/**
 * The options of module `Import` (Excel import and export): `Service:Import:…` in the configuration files,
 * `Service__Import__…` in the environment. Declared with the configuration's own leaves, so they take the
 * same forms as every other key and appear in the configuration reference (docs/configuration.md).
 */
import { type Infer, int, section } from '@svc/kernel';

export const importOptions = section({
  MaxFileSizeMb: int(
    32,
    'Body limit of the import routes (the .xlsx upload and the JSON rows of validate, error report and commit).',
    { min: 1, max: 1024 },
  ),
  MaxRows: int(10_000, 'Most data rows one import may carry (46003 beyond).', { min: 1, max: 1_000_000 }),
  MaxUnpackedMb: int(
    32,
    'Most bytes an uploaded .xlsx may inflate to, all its entries together, counted while inflating (48000 beyond): a small deflated file can unpack to gigabytes. 10,000 rows of the import inflate to a few MiB.',
    { min: 1, max: 4096 },
  ),
  ExportMaxRows: int(100_000, 'Most rows one export may write (46012 beyond).', {
    min: 1,
    max: 10_000_000,
  }),
  CommandTimeoutSeconds: int(
    120,
    'Statement timeout inside an import commit (the other routes keep `Service:Database:CommandTimeoutSeconds`).',
    { min: 1, max: 3600 },
  ),
});

export type ImportOptions = Infer<typeof importOptions>;

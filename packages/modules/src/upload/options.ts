/**
 * The options of module `Upload` (files and chunked upload): `Service:Upload:…` in the configuration files,
 * `Service__Upload__…` in the environment. Declared with the configuration's own leaves, so they take the
 * same forms as every other key and appear in the configuration reference (docs/configuration.md).
 */
import { type Infer, int, section, str, strings } from '@svc/kernel';

export const uploadOptions = section({
  RootPath: str('./wwwroot/upload', 'Where uploaded files are stored (relative to the content root).'),
  SignedUrlTtlMinutes: int(0, 'Lifetime of signed view links (0 = never expire).', { min: 0 }),
  MaxSizeMb: int(50, 'Largest accepted upload.', { min: 1, max: 10_240 }),
  AllowedExtensions: strings(
    [
      'jpg',
      'jpeg',
      'png',
      'gif',
      'webp',
      'bmp',
      'pdf',
      'txt',
      'csv',
      'zip',
      'doc',
      'docx',
      'xls',
      'xlsx',
      'ppt',
      'pptx',
    ],
    'File extensions (without dot, any case) an upload may have; anything else answers 44003.',
  ),
  ChunkRetentionHours: int(
    24,
    'Chunks of an upload not completed within this time, and files deleted longer ago, are reclaimed.',
    { min: 1, max: 24 * 366 },
  ),
  ChunkMaxOpenPerUser: int(
    16,
    'Most chunked uploads one user may have open (started, not completed) at once; the init of another answers 44008. Resuming an open upload and instant uploads are not counted, nor is an upload untouched for ChunkRetentionHours (expired: it takes no more chunks).',
    { min: 1, max: 1000 },
  ),
});

export type UploadOptions = Infer<typeof uploadOptions>;

/** What the file routes receive (module `Upload`), built once by the module. */
import type { Repositories } from '@svc/data';
import { type HostEnvironment, resolveContentPath } from '@svc/kernel';
import type { ChunkUploads, FileLinkSigner, FileStore, UploadOptions } from '@svc/modules';
import type { DataScopeResolver } from '@svc/security';

export interface UploadRouteDeps {
  /** The bytes under the upload root. */
  files: FileStore;
  /** Chunked uploads, and the reclaimer of abandoned chunks and deleted files. */
  chunks: ChunkUploads;
  /** Signed view links. */
  links: FileLinkSigner;
  /** The file rows. */
  fileRows: Repositories['files'];
  /** The Admin module's data scopes: files follow their uploader's (contract §10). */
  scopes: Pick<DataScopeResolver, 'forPrincipal'>;
  /** The service clock (audit columns). */
  now: () => Date;
  /** The largest file an upload takes (`Upload:MaxSizeMb`): the upload routes' body limit. */
  maxFileBytes: number;
}

/** The absolute upload root: `Upload:RootPath` under the content root. */
export const uploadRootOf = (
  options: Pick<UploadOptions, 'RootPath'>,
  environment: Pick<HostEnvironment, 'contentRoot'>,
): string => resolveContentPath(environment.contentRoot, options.RootPath);

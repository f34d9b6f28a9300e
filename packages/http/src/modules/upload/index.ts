/**
 * Module `Upload`: files (`/sys/file`): single and chunked, resumable uploads streamed to disk, the file page,
 * downloads within the caller's data scope and signed view links. The storage, chunk and link services of
 * @svc/modules are built once here (`createUploadServices`); the data scopes are the Admin module's. Its routes
 * have their own body limit (`Upload:MaxSizeMb`, app.ts); the scheduled clean-up reclaims abandoned chunks and
 * deleted files through the reclaimer this module declares.
 */
import { createUploadServices, UploadErrorCode, uploadReclaimer } from '@svc/modules';
import { defineModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';
import { fileRecycleTypes } from './recycle-types.js';
import * as fileBatchDelete from './routes/batch-delete.js';
import * as chunkUpload from './routes/chunk.js';
import * as chunkComplete from './routes/chunk-complete.js';
import * as chunkInit from './routes/chunk-init.js';
import * as fileDelete from './routes/delete.js';
import * as fileDownload from './routes/download.js';
import * as filePage from './routes/page.js';
import * as fileUpload from './routes/upload.js';
import * as fileView from './routes/view.js';
import { type UploadRouteDeps, uploadRootOf } from './services.js';

export type { UploadRouteDeps } from './services.js';

export const uploadModule = defineModule({
  name: 'Upload',
  errorCodes: [UploadErrorCode],
  dependsOn: [adminModule],
  services: ({ core, use }): UploadRouteDeps => ({
    ...createUploadServices({
      root: uploadRootOf(core.config),
      options: core.config.service.Upload,
      repo: core.repos.files,
      jwtKey: core.jwtKey.key,
      now: core.now,
    }),
    fileRows: core.repos.files,
    scopes: use(adminModule).admin.scopes,
    now: core.now,
  }),
  // Fixed paths before `/sys/file/{id}`, which would take them.
  routes: [
    fileUpload,
    chunkInit,
    chunkUpload,
    chunkComplete,
    filePage,
    fileBatchDelete,
    fileDownload,
    fileView,
    fileDelete,
  ],
  reclaimers: ({ chunks }) => [uploadReclaimer(chunks)],
  recycleTypes: ({ files }, { core }) =>
    fileRecycleTypes({ repos: core.repos, now: core.now, files: () => files }),
});

/**
 * Module `Upload`: files (`/sys/file`): single and chunked, resumable uploads streamed to disk, the file page,
 * downloads within the caller's data scope and signed view links. The storage, chunk and link services of
 * @svc/modules are built once here (`createUploadServices`); the data scopes are the Admin module's. Its routes
 * have their own body limit (`bodyLimit: { upload: maxFileBytes }`, `Upload:MaxSizeMb`); the scheduled clean-up reclaims abandoned chunks and
 * deleted files through the reclaimer this module declares.
 */
import { type Configuration, parseSection, resolveContentPath } from '@svc/kernel';
import { createUploadServices, UploadErrorCode, uploadOptions, uploadReclaimer } from '@svc/modules';
import { defineModule, moduleOptions } from '../../module/define.js';
import { uploadRootExposure } from '../../static/web-root.js';
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

/**
 * Spec "Upload exposure rule": the upload root must not lie inside a web root served anonymously. Checked by
 * start-up whether module `Upload` is on or not (files stay on disk when it is switched off), before anything
 * connects; the section is read for it even when the module is off.
 */
export function uploadExposureOf(config: Configuration): string | undefined {
  const { service, environment } = config;
  if (!service.Web.Enabled) return undefined;
  const options = parseSection(uploadOptions, config.section('Upload'), 'Service:Upload').value;
  return uploadRootExposure({
    webEnabled: true,
    webRoot: resolveContentPath(environment.contentRoot, service.Web.RootPath),
    uploadRoot: uploadRootOf(options, environment),
  });
}

export const uploadModule = defineModule({
  name: 'Upload',
  options: moduleOptions('Upload', uploadOptions),
  errorCodes: [UploadErrorCode],
  dependsOn: [adminModule],
  services: ({ core, options, use }): UploadRouteDeps => {
    const upload = createUploadServices({
      root: uploadRootOf(options, core.config.environment),
      options,
      repo: core.repos.files,
      jwtKey: core.jwtKey.key,
      now: core.now,
    });
    return {
      ...upload,
      fileRows: core.repos.files,
      scopes: use(adminModule).admin.scopes,
      now: core.now,
      // The store's own limit: the 413 before the body and the store's check while streaming cannot differ.
      maxFileBytes: upload.files.maxBytes,
    };
  },
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

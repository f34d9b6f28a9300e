/** Files and chunked upload (module `Upload`): storage under the upload root, resumable uploads, signed links. */

export { type ChunkInit, type ChunkUploads, createChunkUploads, type Reclaimer } from './chunks.js';
export { UploadErrorCode } from './codes.js';
export {
  contentDisposition,
  createFileStore,
  type FileStore,
  type FileStoreOptions,
  INLINE_CONTENT_TYPES,
  type StoredUpload,
  type UploadSink,
} from './file-store.js';
export { uploadOptions } from './options.js';
export {
  createUploadServices,
  type UploadOptions,
  type UploadServices,
  type UploadServicesDeps,
  uploadReclaimer,
} from './services.js';
export { createFileLinkSigner, type FileLinkSigner, type FileLinkSignerOptions } from './signed-url.js';

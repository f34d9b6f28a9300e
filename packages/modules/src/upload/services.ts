/**
 * The services of module `Upload`, built once per server from its options (`Service:Upload`): the file store,
 * the chunked uploads (which hold the in-flight completes, so one instance serves every route) and the signer of
 * view links; and the reclaimer the scheduled clean-up runs for them.
 */
import type { FileRepository } from '@svc/data';
import { type ChunkUploads, createChunkUploads, type Reclaimer } from './chunks.js';
import { createFileStore, type FileStore } from './file-store.js';
import type { UploadOptions } from './options.js';
import { createFileLinkSigner, type FileLinkSigner } from './signed-url.js';

const MIB = 1024 * 1024;

export type { UploadOptions } from './options.js';

export interface UploadServices {
  files: FileStore;
  /** Chunked uploads, and the reclaimer of abandoned chunks and deleted files. */
  chunks: ChunkUploads;
  links: FileLinkSigner;
}

export interface UploadServicesDeps {
  /** The absolute upload root (`Upload:RootPath` under the content root). */
  root: string;
  options: UploadOptions;
  repo: FileRepository;
  /** The JWT signing key the view-link key is derived from. */
  jwtKey: Uint8Array;
  now: () => Date;
}

/** The file store under the upload root. It keeps no state of its own: every rule holds between instances on one root. */
function uploadFileStore(deps: Pick<UploadServicesDeps, 'root' | 'options' | 'now'>): FileStore {
  return createFileStore({
    root: deps.root,
    maxBytes: deps.options.MaxSizeMb * MIB,
    allowedExtensions: deps.options.AllowedExtensions,
    now: deps.now,
  });
}

/**
 * The upload services of one server.
 * @example const upload = createUploadServices({ root, options, repo: repos.files, jwtKey, now });
 */
export function createUploadServices(deps: UploadServicesDeps): UploadServices {
  const { root, options, now } = deps;
  const files = uploadFileStore(deps);
  return {
    files,
    chunks: createChunkUploads({
      root,
      files,
      repo: deps.repo,
      allowedExtensions: options.AllowedExtensions,
      retentionHours: options.ChunkRetentionHours,
      maxOpenPerUser: options.ChunkMaxOpenPerUser,
      now,
    }),
    links: createFileLinkSigner({ jwtKey: deps.jwtKey, ttlMinutes: options.SignedUrlTtlMinutes, now }),
  };
}

/**
 * The clean-up of abandoned chunk uploads and of files deleted longer ago than `Upload:ChunkRetentionHours`, as
 * a reclaimer the scheduled clean-up job runs: `reclaim(now)` answers how many folders and files went.
 * @example reclaimers.push(uploadReclaimer(upload.chunks));
 */
export function uploadReclaimer(chunks: Pick<ChunkUploads, 'reclaim'>): Reclaimer {
  return { name: 'upload', reclaim: (now) => chunks.reclaim(now) };
}

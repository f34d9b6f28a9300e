/**
 * The error codes of module `Upload` (44xxx). Numbers are part of the public contract: never renumber a member.
 * The set keeps the kernel catalogue's source name (`ErrorCode`), so `GET /api/v1/meta/error-codes` lists them as
 * before; the module registers them while it is on.
 */
import { defineErrorCodes, type ErrorCodeSpec } from '@svc/kernel';

const file = (name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.file.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

export const UploadErrorCode = defineErrorCodes('ErrorCode', {
  FileEmpty: file('FileEmpty', 44001),
  FileTooLarge: file('FileTooLarge', 44002),
  FileExtNotAllowed: file('FileExtNotAllowed', 44003),
  FileNotFound: file('FileNotFound', 44004),
  /** A chunked upload's complete misses a chunk; `args.index` names the first missing one. */
  ChunkMissing: file('ChunkMissing', 44005),
  /** The assembled chunks do not hash to the declared `fileHash`. */
  ChunkHashMismatch: file('ChunkHashMismatch', 44006),
  FileSignatureInvalid: file('FileSignatureInvalid', 44007),
  /** A chunked upload's init would open more uploads than `Service:Upload:ChunkMaxOpenPerUser`; `args.maxOpen`. */
  ChunkOpenLimitExceeded: file('ChunkOpenLimitExceeded', 44008),
});

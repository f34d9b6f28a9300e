/**
 * The error codes of modules `Config` and `Dict` (43xxx, beside the config and dictionary services they share the
 * segment of). Numbers are part of the public contract: never renumber a member.
 * The set keeps the kernel catalogue's source name (`ErrorCode`), so `GET /api/v1/meta/error-codes` lists them as
 * before; the module registers them while it is on.
 */
import { defineErrorCodes, type ErrorCodeSpec } from '@svc/kernel';

const config = (name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.config.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

/** Module `Config`. */
export const ConfigErrorCode = defineErrorCodes('ErrorCode', {
  ConfigNotFound: config('ConfigNotFound', 43004),
  ConfigKeyExists: config('ConfigKeyExists', 43005),
  ConfigBuiltIn: config('ConfigBuiltIn', 43006),
});

/** Module `Dict`. */
export const DictErrorCode = defineErrorCodes('ErrorCode', {
  DictTypeNotFound: config('DictTypeNotFound', 43001),
  DictTypeCodeExists: config('DictTypeCodeExists', 43002),
  DictItemNotFound: config('DictItemNotFound', 43003),
  /** A live item of the dictionary type already holds the value. */
  DictItemValueExists: config('DictItemValueExists', 43007),
});

/**
 * The one place that maps envelope codes to HTTP statuses (contract §3): business errors are HTTP 200 except
 * the codes below, which keep their own status.
 */
import { ErrorCode } from '@svc/kernel';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

const STATUS_BY_CODE = new Map<number, ContentfulStatusCode>([
  [ErrorCode.TokenInvalid.code, 401],
  [ErrorCode.ApiKeyInvalid.code, 401],
  [ErrorCode.NoPermission.code, 403],
  [ErrorCode.DemoModeReadOnly.code, 403],
  [ErrorCode.ReauthRequired.code, 403],
  [ErrorCode.CsrfInvalid.code, 403],
  [ErrorCode.NotFound.code, 404],
  [ErrorCode.PayloadTooLarge.code, 413],
  [ErrorCode.SystemError.code, 500],
  [ErrorCode.ServiceUnavailable.code, 503],
  [ErrorCode.DatabaseUnavailable.code, 503],
  [ErrorCode.CacheUnavailable.code, 503],
]);

/** HTTP status for an envelope code. Rate limiting answers 429 itself (the same code 40008 is a 200 elsewhere). */
export function httpStatusOf(code: number): ContentfulStatusCode {
  return STATUS_BY_CODE.get(code) ?? 200;
}

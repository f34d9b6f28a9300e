import { ErrorCode } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { httpStatusOf } from './status.js';

describe('status mapping', () => {
  it('keeps 401/403 for the codes the contract names and 200 for business errors', () => {
    expect(httpStatusOf(ErrorCode.TokenInvalid.code)).toBe(401);
    expect(httpStatusOf(ErrorCode.ApiKeyInvalid.code)).toBe(401);
    expect(httpStatusOf(ErrorCode.NoPermission.code)).toBe(403);
    expect(httpStatusOf(ErrorCode.DemoModeReadOnly.code)).toBe(403);
    expect(httpStatusOf(ErrorCode.ReauthRequired.code)).toBe(403);
    expect(httpStatusOf(ErrorCode.PasswordWrong.code)).toBe(200);
    expect(httpStatusOf(ErrorCode.ParamInvalid.code)).toBe(200);
    expect(httpStatusOf(60001)).toBe(200);
    expect(httpStatusOf(ErrorCode.SystemError.code)).toBe(500);
  });
});

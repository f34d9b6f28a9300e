import { describe, expect, it } from 'vitest';
import { BusinessError } from './business-error.js';
import { ErrorCode } from './codes.js';
import { defineErrorCodes } from './define.js';
import { ErrorCodeRegistry } from './registry.js';

const SampleErrorCode = defineErrorCodes('SampleErrorCode', {
  SampleFailure: { code: 60001, msgKey: 'sample.failure' },
});

describe('error-code registry', () => {
  it('holds the kernel catalog with the contract numbers and msgKeys', () => {
    const registry = new ErrorCodeRegistry();
    expect(registry.lookup(40001)).toMatchObject({
      name: 'PasswordWrong',
      msgKey: 'error.auth.passwordWrong',
      source: 'ErrorCode',
    });
    expect(registry.lookup(41002)?.name).toBe('DemoModeReadOnly');
    expect(registry.lookup(50001)?.name).toBe('ServiceUnavailable');
    // A module's codes are the module's: administration (42xxx) is registered by module Admin, not the kernel.
    expect(registry.lookup(42025)).toBeUndefined();
    expect(registry.lookup(48000)?.msgKey).toBe('error.param.paramInvalid');
    expect(registry.msgKeyOf(0)).toBe('common.success');
    const numbers = registry.catalog().map((e) => e.code);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('adds consumer sets and reports their source', () => {
    const registry = new ErrorCodeRegistry([SampleErrorCode]);
    expect(registry.lookup(60001)).toMatchObject({
      name: 'SampleFailure',
      msgKey: 'sample.failure',
      source: 'SampleErrorCode',
    });
    expect(registry.isRegistered(SampleErrorCode.SampleFailure)).toBe(true);
  });

  it('falls back to error.code.<code> for unregistered numbers', () => {
    expect(new ErrorCodeRegistry().msgKeyOf(61234)).toBe('error.code.61234');
  });

  it('refuses two sets claiming one number, naming both, and adds nothing of the second', () => {
    const Other = defineErrorCodes('OtherErrorCode', {
      Fine: { code: 60100, msgKey: 'other.fine' },
      Clash: { code: 60001, msgKey: 'other.clash' },
    });
    const registry = new ErrorCodeRegistry([SampleErrorCode]);
    expect(() => registry.register(Other)).toThrowError(
      /60001.*SampleErrorCode\.SampleFailure.*OtherErrorCode\.Clash/,
    );
    expect(registry.lookup(60100)).toBeUndefined();
  });

  it('refuses a consumer set that reuses a kernel number', () => {
    const Bad = defineErrorCodes('BadCodes', { Mine: { code: 40001, msgKey: 'bad.mine' } });
    expect(() => new ErrorCodeRegistry([Bad])).toThrowError(/ErrorCode\.PasswordWrong.*BadCodes\.Mine/);
  });

  it('accepts registering the same set twice', () => {
    const registry = new ErrorCodeRegistry([SampleErrorCode]);
    expect(() => registry.register(SampleErrorCode)).not.toThrow();
  });

  it('refuses a set that declares one number twice', () => {
    expect(() =>
      defineErrorCodes('Twice', { A: { code: 60001, msgKey: 'a' }, B: { code: 60001, msgKey: 'b' } }),
    ).toThrowError(/declared twice in Twice: A and B/);
  });

  it('business errors carry the member and drop empty args', () => {
    const error = new BusinessError(ErrorCode.PageSizeExceeded, { max: 200 });
    expect(error.code).toBe(48001);
    expect(error.args).toEqual({ max: 200 });
    expect(new BusinessError(ErrorCode.NotFound, {}).args).toBeUndefined();
    expect(error.name).toBe('BusinessError');
  });
});

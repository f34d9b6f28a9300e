/**
 * The one business-failure type. It carries a declared code-set member (never a bare number) and optional args;
 * the HTTP layer renders it as HTTP 200 with the envelope, except the few codes that keep their own status.
 */
import type { ErrorCodeMember } from './define.js';

/** Arguments shown to the frontend beside the code (`attemptsLeft`, policy requirements, …). */
export type ErrorArgs = Record<string, unknown>;

export class BusinessError extends Error {
  override readonly name = 'BusinessError';
  readonly code: number;
  readonly member: ErrorCodeMember;
  readonly args: ErrorArgs | undefined;

  constructor(member: ErrorCodeMember, args?: ErrorArgs, options?: { cause?: unknown }) {
    super(`${member.source}.${member.name} (${member.code})`, options);
    this.member = member;
    this.code = member.code;
    this.args = args && Object.keys(args).length > 0 ? args : undefined;
  }
}

/** Narrowing helper that also works across duplicated module instances. */
export function isBusinessError(error: unknown): error is BusinessError {
  return (
    error instanceof BusinessError ||
    (error instanceof Error && error.name === 'BusinessError' && 'member' in error)
  );
}

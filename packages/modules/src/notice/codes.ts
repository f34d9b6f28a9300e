/**
 * The error codes of module `Notice` (45xxx). Numbers are part of the public contract: never renumber a member.
 * The set keeps the kernel catalogue's source name (`ErrorCode`), so `GET /api/v1/meta/error-codes` lists them as
 * before; the module registers them while it is on.
 */
import { defineErrorCodes, type ErrorCodeSpec } from '@svc/kernel';

const notice = (name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.notice.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

export const NoticeErrorCode = defineErrorCodes('ErrorCode', {
  NoticeNotFound: notice('NoticeNotFound', 45001),
  /** A Role or User notice without receiver ids. */
  NoticeReceiverRequired: notice('NoticeReceiverRequired', 45002),
  /** A receiver id that is not a live role or user (`args.ids`). */
  NoticeReceiverNotFound: notice('NoticeReceiverNotFound', 45003),
  /** An action whose URL is not same-origin or whose fields are invalid (`args.index`). */
  NoticeActionInvalid: notice('NoticeActionInvalid', 45004),
});

/**
 * The response envelope every JSON answer uses: `{code, msgKey, data, args?}` (`args` omitted when empty).
 */
import type { ErrorArgs } from './errors/business-error.js';

export interface Envelope<T = unknown> {
  code: number;
  msgKey: string;
  data: T | null;
  args?: ErrorArgs;
}

/** The envelope of a success: `data` is always present. */
export interface SuccessEnvelope<T> extends Envelope<T> {
  data: T;
}

/** The success envelope. */
export function ok<T>(data: T): SuccessEnvelope<T> {
  return { code: 0, msgKey: 'common.success', data };
}

/** A failure envelope; `args` is dropped when empty. */
export function fail(code: number, msgKey: string, args?: ErrorArgs): Envelope<null> {
  const envelope: Envelope<null> = { code, msgKey, data: null };
  if (args && Object.keys(args).length > 0) envelope.args = args;
  return envelope;
}

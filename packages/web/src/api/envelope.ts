/**
 * The service's response envelope `{code, msgKey, data, args?}` as the console sees it, and the one error type
 * the console throws for a failed call (a business code, an HTTP failure without an envelope, or a timeout).
 */
import type { components, operations } from './schema.js';

export interface Envelope<T = unknown> {
  code: number;
  msgKey: string;
  data: T;
  args?: Record<string, unknown>;
}

/** Codes the client itself uses when no envelope arrived. */
export const CLIENT_ERROR = {
  /** The 30 s budget ran out. */
  Timeout: -1,
  /** The network failed or the answer was not an envelope. */
  Network: -2,
} as const;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: number,
    readonly msgKey: string,
    readonly args: Record<string, unknown> = {},
    readonly status = 0,
    options?: { cause?: unknown },
  ) {
    super(`${msgKey} (${code})`, options);
  }
}

/** True for an object shaped like an envelope. */
export function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Envelope).code === 'number' &&
    typeof (value as Envelope).msgKey === 'string'
  );
}

/** Reads the envelope of a response without consuming it (undefined when the body is not one). */
export async function peekEnvelope(response: Response): Promise<Envelope | undefined> {
  try {
    const body: unknown = await response.clone().json();
    return isEnvelope(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The `data` of the envelopes in a body type that carry one (openapi-fetch drops the failure envelope's `data: null`). */
type EnvelopeData<Body> = Body extends { code: unknown; msgKey: string; data: infer D } ? D : never;

/** The success `data` of a body type; `null` for an operation whose success carries none. */
type SuccessData<Body> = [EnvelopeData<Body>] extends [never] ? null : EnvelopeData<Body>;

/**
 * The success `data` of an operation of the contract by its operation id, for state typed before any call
 * (`ref<OperationData<'getSysJobHandlers'>>()`); the same type `unwrap` answers for a call of that operation.
 */
export type OperationData<Id extends keyof operations> = operations[Id]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? SuccessData<Exclude<Body, components['schemas']['ErrorEnvelope']>>
  : never;

/**
 * What `unwrap` answers for a call's result: the `data` of the operation's success envelope, read from the generated
 * `paths` through openapi-fetch's typed result (`unknown` only for a result typed `unknown`).
 */
export type DataOf<Result> = [Result] extends [{ data?: infer Body }]
  ? unknown extends Body
    ? unknown
    : SuccessData<NonNullable<Body>>
  : never;

/**
 * A call's result whose success carries `T`, for a call handed around as a function (an import's endpoints): what
 * openapi-fetch answers for such an operation is assignable to it, and `unwrap` of it is `T`.
 */
export interface Answer<T> {
  data?: { code: number; msgKey: string; data: T } | { code: number; msgKey: string };
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful envelope; anything else throws an `ApiError` carrying the code, msgKey and args,
 * so pages show the catalog message (see `messageOf`). Typed by the call: `unwrap(await api.GET('/api/v1/…'))` is
 * the operation's `data` as the contract declares it.
 */
export function unwrap<Result extends { data?: unknown; error?: unknown; response: Response }>(
  result: Result,
): DataOf<Result> {
  const body = (result.data ?? result.error) as unknown;
  if (isEnvelope(body)) {
    if (body.code === 0) return body.data as DataOf<Result>;
    throw new ApiError(body.code, body.msgKey, body.args ?? {}, result.response.status);
  }
  throw new ApiError(CLIENT_ERROR.Network, 'error.client.network', {}, result.response.status);
}

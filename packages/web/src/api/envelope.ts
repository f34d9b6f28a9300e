/**
 * The service's response envelope `{code, msgKey, data, args?}` as the console sees it, and the one error type
 * the console throws for a failed call (a business code, an HTTP failure without an envelope, or a timeout).
 */
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

/**
 * The data of a successful envelope; anything else throws an `ApiError` carrying the code, msgKey and args,
 * so pages show the catalog message (see `messageOf`).
 */
export function unwrap<T = unknown>(result: { data?: unknown; error?: unknown; response: Response }): T {
  const body = (result.data ?? result.error) as unknown;
  if (isEnvelope(body)) {
    if (body.code === 0) return body.data as T;
    throw new ApiError(body.code, body.msgKey, body.args ?? {}, result.response.status);
  }
  throw new ApiError(CLIENT_ERROR.Network, 'error.client.network', {}, result.response.status);
}

/**
 * A start-up failure with a message meant for the operator (what is wrong and which key to change). The host
 * prints the message alone, without a stack trace, and exits non-zero.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** Wraps a known configuration/dependency error as a `StartupError`, keeping the cause. */
export function asStartupError(error: unknown, prefix?: string): StartupError {
  if (error instanceof StartupError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StartupError(prefix ? `${prefix}: ${message}` : message, { cause: error });
}

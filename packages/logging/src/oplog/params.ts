/**
 * The parameter text of an operation-log row (spec "Log masking" and "Limits"): masked by property name,
 * recursively, with `<unserializable>` for what JSON cannot hold, then capped at `Logging:OpLog:ParamMaxChars`.
 * A capped text keeps its start and stays valid JSON: `{"truncated":true,"originalLength":N,"head":"…"}`.
 */
import { maskSensitive, UNSERIALIZABLE } from '../masking.js';

/** The smallest cap that still leaves room for the truncation wrapper and some head text. */
export const MIN_PARAM_MAX_CHARS = 256;

/** The JSON text of `value`, masked; `"<unserializable>"` when it cannot be serialised. */
export function serializeParams(value: unknown): string {
  try {
    return JSON.stringify(maskSensitive(value)) ?? JSON.stringify(UNSERIALIZABLE);
  } catch {
    return JSON.stringify(UNSERIALIZABLE);
  }
}

/** Cuts without splitting a surrogate pair. */
function head(text: string, length: number): string {
  const cut = text.slice(0, Math.max(0, length));
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * `text` itself when it fits in `maxChars`, else a JSON object holding its start and original length, at most
 * `maxChars` long. Escaping inside the wrapper can lengthen the head, so the head shrinks until it fits.
 */
export function capParamText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const max = Math.max(maxChars, MIN_PARAM_MAX_CHARS);
  const wrap = (h: string) => JSON.stringify({ truncated: true, originalLength: text.length, head: h });
  let length = max - wrap('').length;
  let out = wrap(head(text, length));
  while (out.length > max && length > 0) {
    length -= Math.max(1, out.length - max);
    out = wrap(head(text, length));
  }
  return out;
}

/** Masked, serialised and capped parameter text. */
export function opLogParamText(value: unknown, maxChars: number): string {
  return capParamText(serializeParams(value), maxChars);
}

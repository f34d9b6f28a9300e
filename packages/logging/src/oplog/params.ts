/**
 * The parameter text of an operation-log row (spec "Log masking" and "Limits"): masked by property name,
 * recursively, with `<unserializable>` for what JSON cannot hold, then capped at `Logging:OpLog:ParamMaxChars`.
 * A capped text keeps its start and stays valid JSON: `{"truncated":true,"originalLength":N,"head":"…"}`.
 */
import { DEFAULT_MASKING, type Masking, UNSERIALIZABLE } from '../masking.js';

/** The smallest cap that still leaves room for the truncation wrapper and some head text. */
export const MIN_PARAM_MAX_CHARS = 256;

/** The JSON text of `value`, masked by `masking`; `"<unserializable>"` when it cannot be serialised. */
export function serializeParams(value: unknown, masking: Masking = DEFAULT_MASKING): string {
  try {
    return JSON.stringify(masking.maskSensitive(value)) ?? JSON.stringify(UNSERIALIZABLE);
  } catch {
    return JSON.stringify(UNSERIALIZABLE);
  }
}

/**
 * What is already known of a body's JSON text, so that the log's writing of it does not find it out again. Each
 * flag must have been found of this very text (the operation-log stage sets them from `nothingToMask` and the
 * route's own parse): a caller that claims them otherwise gets the text written unchecked and unmasked.
 */
export interface KnownJsonText {
  /** The text parsed as JSON (the route's own parse succeeded on this very text). */
  parsed?: boolean | undefined;
  /** `nothingToMask` of the row's masking answered true for this text. */
  clean?: boolean | undefined;
}

/**
 * The masked JSON of a request body's JSON text, for the parameter text. A text without a backslash (so every
 * property name, at any depth and inside embedded JSON, is written out literally) and without any sensitive
 * name in it has nothing to mask: it is only checked to be JSON and kept as the client sent it, without being
 * copied and written again. Any other text is parsed, masked and serialised ({@link serializeParams}); a text
 * that is not JSON is `"<unserializable>"`. `known` skips the checks whose answer is already known.
 */
export function maskedJsonText(
  text: string,
  known?: KnownJsonText,
  masking: Masking = DEFAULT_MASKING,
): string {
  const clean = known?.clean === true;
  if (clean && known?.parsed === true) return text.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return JSON.stringify(UNSERIALIZABLE);
  }
  if (clean || masking.nothingToMask(text)) return text.trim();
  return serializeParams(parsed, masking);
}

/** Path parameters or a query, masked: most have nothing to mask and are written as they are. */
const recordText = (record: Record<string, unknown>, masking: Masking) =>
  masking.plainStrings(record) ? JSON.stringify(record) : serializeParams(record, masking);

/** What a row's parameter text is made of; absent parts are left out. */
export interface OpLogParams {
  /** Path parameters. */
  params?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  /** The body as a value (a form, a summary). */
  body?: unknown;
  /** The body as the JSON text the client sent, used instead of `body` ({@link maskedJsonText}). */
  bodyJson?: string | undefined;
  /** What is already known of `bodyJson` (the route parsed it, nothing in it to mask). */
  bodyJsonKnown?: KnownJsonText | undefined;
  /** The deployment's masking rules (its API-key header name among them). @default DEFAULT_MASKING */
  masking?: Masking | undefined;
}

/** The parts of a row's parameter text and its cap, kept until the row's batch is written (one object a row). */
export interface PendingParams extends OpLogParams {
  maxChars: number;
}

/**
 * The parameter text of a row: `{"params":…,"query":…,"body":…}` with the parts that are there, each masked,
 * then capped (`null` when there is no part). The same text as {@link opLogParamText} of an object holding the
 * parts, except that a JSON body with nothing to mask keeps its own spelling.
 */
export function opLogParamsText(parts: OpLogParams, maxChars: number): string | null {
  const masking = parts.masking ?? DEFAULT_MASKING;
  let text = '';
  if (parts.params !== undefined) text += `,"params":${recordText(parts.params, masking)}`;
  if (parts.query !== undefined) text += `,"query":${recordText(parts.query, masking)}`;
  if (parts.bodyJson !== undefined)
    text += `,"body":${maskedJsonText(parts.bodyJson, parts.bodyJsonKnown, masking)}`;
  else if (parts.body !== undefined) text += `,"body":${serializeParams(parts.body, masking)}`;
  return text === '' ? null : capParamText(`{${text.slice(1)}}`, maxChars);
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
export function opLogParamText(value: unknown, maxChars: number, masking: Masking = DEFAULT_MASKING): string {
  return capParamText(serializeParams(value, masking), maxChars);
}

/**
 * What a JSON request body must be before any route sees it: valid UTF-8, and no string (value or key) holding
 * NUL or a lone UTF-16 surrogate. PostgreSQL refuses NUL in text (an HTTP 500 before this check), other
 * databases store it silently, and a lone surrogate cannot be written back as UTF-8: all three are refused here,
 * once per request, with 48000 naming the place, whatever the route and whether or not it is authenticated.
 *
 * Cheap by construction: the decoder is the one Hono would use anyway, only fatal; a raw NUL byte or raw
 * control character is already invalid JSON, and escaped NUL or surrogates can only arrive as `\u` escapes, so
 * bodies without a `\u` are never walked.
 */

/** A refused body: the path of the first bad string (`$` for the body itself) and why. */
export interface JsonTextProblem {
  path: string;
  message: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function badString(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'must not contain a lone surrogate';
  return undefined;
}

function walk(value: unknown, path: string): JsonTextProblem | undefined {
  if (typeof value === 'string') {
    const message = badString(value);
    return message ? { path, message } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = walk(value[i], path === '' ? String(i) : `${path}.${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = badString(key);
      if (keyProblem) return { path: path === '' ? '$' : path, message: `a property name ${keyProblem}` };
      const found = walk(item, path === '' ? key : `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Decodes and checks a JSON body. Answers the text (for the route's parser) or the problem. Malformed JSON is
 * left to the route's parser, which answers it as it always has.
 * @example const checked = checkJsonBody(new Uint8Array(await c.req.arrayBuffer()));
 */
export function checkJsonBody(bytes: Uint8Array): { text: string } | { problem: JsonTextProblem } {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { problem: { path: '$', message: 'the body is not valid UTF-8' } };
  }
  if (!text.includes('\\u')) return { text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { text };
  }
  const problem = walk(parsed, '');
  if (problem) return { problem: { ...problem, path: problem.path === '' ? '$' : problem.path } };
  return { text };
}

/** True for a JSON media type (`application/json`, `…+json`), parameters ignored. */
export function isJsonContentType(contentType: string | undefined | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

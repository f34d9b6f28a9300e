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

/**
 * The first bad string in document order, depth first. A loop over an explicit stack, not recursion: a body of
 * under 1 MiB nests 500,000 levels deep, which overflowed the call stack (an HTTP 500 on every JSON route,
 * anonymous login included) where the route's own parser answers 48000.
 */
function walk(root: unknown): JsonTextProblem | undefined {
  // `name`: a property name to check (its object's path), looked at just before its value, as a reader meets them.
  const stack: { value: unknown; path: string; name?: true }[] = [{ value: root, path: '' }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      const message = badString(value);
      if (message && next.name)
        return { path: path === '' ? '$' : path, message: `a property name ${message}` };
      if (message) return { path, message };
    } else if (Array.isArray(value)) {
      // Pushed last to first, so the first element is looked at first.
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: path === '' ? String(i) : `${path}.${i}` });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        stack.push({ value: item, path: path === '' ? key : `${path}.${key}` });
        stack.push({ value: key, path, name: true });
      }
    }
  }
  return undefined;
}

/** Characters of a problem's path an answer shows: a deeply nested body's path would be longer than the body. */
const PATH_SHOWN = 256;

const shownPath = (path: string) =>
  path === '' ? '$' : path.length > PATH_SHOWN ? `${path.slice(0, PATH_SHOWN)}…` : path;

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
  const problem = walk(parsed);
  if (problem) return { problem: { ...problem, path: shownPath(problem.path) } };
  return { text };
}

/** True for a JSON media type (`application/json`, `…+json`), parameters ignored. */
export function isJsonContentType(contentType: string | undefined | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

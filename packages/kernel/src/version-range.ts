/**
 * Whether a version satisfies an npm version range, for the start-up check of optional peers (a driver's major
 * and its `engines.node`). Covers the range forms package manifests use: `||` alternatives, comparator sets
 * (`>=20.19.0 <21`, also `>= 8.0` with a space), caret, tilde, X-ranges (`20.x`, `*`, partial `22`) and hyphen
 * ranges. Pre-release and build tags are ignored: the check guards majors and engines, not release channels.
 */

type Version = readonly [number, number, number];

/** A half-open interval `[low, high)` of versions; `high` undefined means unbounded. */
interface Bounds {
  low: Version;
  lowInclusive: boolean;
  high?: Version;
  highInclusive?: boolean;
}

const ZERO: Version = [0, 0, 0];

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** `1.2.3`, `v1.2.3-rc.1` as a version; null when it is not one. */
export function parseVersion(text: string): Version | null {
  const match = /^\s*v?(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.+-]*)?\s*$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/** `1`, `1.2`, `1.2.3`, `1.x`, `*`: the numbers given (wildcards end it); null when it is not a partial version. */
function parsePartial(text: string): number[] | null {
  if (text === '' || text === '*' || text === 'x' || text === 'X') return [];
  const match = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+][0-9A-Za-z.+-]*)?$/.exec(text);
  if (!match) return null;
  const parts: number[] = [];
  for (const part of match.slice(1, 4)) {
    if (part === undefined || !/^\d+$/.test(part)) break;
    parts.push(Number(part));
  }
  return parts;
}

const floor = (parts: number[]): Version => [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];

/** The first version above every version the partial stands for (`1.2` -> `1.3.0`); undefined for `*`. */
function ceiling(parts: number[]): Version | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return [(parts[0] ?? 0) + 1, 0, 0];
  if (parts.length === 2) return [parts[0] ?? 0, (parts[1] ?? 0) + 1, 0];
  return [parts[0] ?? 0, parts[1] ?? 0, (parts[2] ?? 0) + 1];
}

/** One comparator (`>=1.2`, `^3.4.9`, `~1.2`, `20.x`) as bounds; null when it cannot be read. */
function comparator(text: string): Bounds | null {
  const match = /^(>=|<=|>|<|=|\^|~>?|)(.*)$/.exec(text);
  const op = match?.[1] ?? '';
  const parts = parsePartial(match?.[2] ?? '');
  if (!parts) return null;
  const low = floor(parts);
  const high = ceiling(parts);
  switch (op) {
    case '>=':
      return { low, lowInclusive: true };
    case '>':
      return high ? { low: high, lowInclusive: true } : { low: ZERO, lowInclusive: false, high: ZERO };
    case '<':
      return { low: ZERO, lowInclusive: true, high: low, highInclusive: false };
    case '<=':
      return high
        ? { low: ZERO, lowInclusive: true, high, highInclusive: false }
        : { low: ZERO, lowInclusive: true };
    case '^': {
      const [major, minor, patch] = low;
      const top: Version | undefined =
        parts.length === 0
          ? undefined
          : major > 0 || parts.length === 1
            ? [major + 1, 0, 0]
            : minor > 0 || parts.length === 2
              ? [0, minor + 1, 0]
              : [0, 0, patch + 1];
      return top ? { low, lowInclusive: true, high: top, highInclusive: false } : { low, lowInclusive: true };
    }
    case '~':
    case '~>': {
      const top = parts.length <= 1 ? ceiling(parts) : ([low[0], low[1] + 1, 0] as const);
      return top ? { low, lowInclusive: true, high: top, highInclusive: false } : { low, lowInclusive: true };
    }
    default:
      return high ? { low, lowInclusive: true, high, highInclusive: false } : { low, lowInclusive: true };
  }
}

function within(version: Version, bounds: Bounds): boolean {
  const fromLow = compare(version, bounds.low);
  if (fromLow < 0 || (fromLow === 0 && !bounds.lowInclusive)) return false;
  if (!bounds.high) return true;
  const toHigh = compare(version, bounds.high);
  return toHigh < 0 || (toHigh === 0 && bounds.highInclusive === true);
}

/** The comparators of one `||` alternative; null when one of them cannot be read. */
function alternative(text: string): Bounds[] | null {
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
  if (hyphen?.[1] && hyphen[2]) {
    const low = parsePartial(hyphen[1]);
    const high = parsePartial(hyphen[2]);
    if (!low || !high) return null;
    const top = ceiling(high);
    return [
      top
        ? { low: floor(low), lowInclusive: true, high: top, highInclusive: false }
        : { low: floor(low), lowInclusive: true },
    ];
  }
  const tokens = text
    .replace(/(>=|<=|>|<|=|\^|~>?)\s+/g, '$1')
    .split(/\s+/)
    .filter(Boolean);
  const all: Bounds[] = [];
  for (const token of tokens.length ? tokens : ['*']) {
    const bounds = comparator(token);
    if (!bounds) return null;
    all.push(bounds);
  }
  return all;
}

/**
 * Whether `version` satisfies `range`; undefined when either cannot be read (the caller decides what an
 * unreadable range means: a driver's odd `engines` field is not a reason to refuse it).
 * @example satisfiesRange('20.20.2', '>=22') // false
 * @example satisfiesRange('12.11.1', '^12.11.1') // true
 */
export function satisfiesRange(version: string, range: string): boolean | undefined {
  const parsed = parseVersion(version);
  if (!parsed) return undefined;
  let unreadable = false;
  for (const text of range.split('||')) {
    const set = alternative(text.trim());
    if (!set) {
      unreadable = true;
      continue;
    }
    if (set.every((bounds) => within(parsed, bounds))) return true;
  }
  return unreadable ? undefined : false;
}

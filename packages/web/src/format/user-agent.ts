/**
 * A User-Agent header as browser and operating system ('Chrome 131 · Windows'). A deliberately small reading of
 * the tokens the major engines send, most specific first (Edge and Opera also say Chrome; Chrome also says
 * Safari); anything else is shown as 'Unknown' beside the full string on hover. Client hints are not sent to the
 * server, so the header is all there is.
 */

export interface UserAgentInfo {
  /** 'Edge', 'Opera', 'Chrome', 'Firefox', 'Safari', 'Samsung Internet', 'WeChat', 'curl', … or undefined. */
  browser?: string;
  /** The browser's major version. */
  version?: string;
  /** 'Windows', 'macOS', 'iOS', 'iPadOS', 'Android', 'ChromeOS', 'Linux', … or undefined. */
  os?: string;
  /** A phone or tablet. */
  mobile: boolean;
}

const BROWSERS: ReadonlyArray<readonly [string, RegExp]> = [
  ['WeChat', /MicroMessenger\/(\d+)/],
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /SamsungBrowser\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/(\d+)/],
  ['Node.js', /^node(?:-fetch)?\/?(\d+)?|undici/],
];

const SYSTEMS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Windows', /Windows NT/],
  ['iPadOS', /iPad/],
  ['iOS', /iPhone|iPod/],
  ['Android', /Android/],
  ['ChromeOS', /CrOS/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux|X11/],
];

export function describeUserAgent(userAgent: string | null | undefined): UserAgentInfo {
  const ua = userAgent ?? '';
  const info: UserAgentInfo = { mobile: /Mobi|iPhone|iPad|Android/.test(ua) };
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) {
      info.browser = name;
      if (match[1]) info.version = match[1];
      break;
    }
  }
  for (const [name, pattern] of SYSTEMS) {
    if (pattern.test(ua)) {
      info.os = name;
      break;
    }
  }
  return info;
}

/**
 * 'Chrome 131 · Windows'; `unknown` (the locale's word) for what cannot be read, '—' for no header at all.
 */
export function formatUserAgent(userAgent: string | null | undefined, unknown = 'Unknown'): string {
  if (!userAgent) return '—';
  const { browser, version, os } = describeUserAgent(userAgent);
  const name = browser ? (version ? `${browser} ${version}` : browser) : unknown;
  return os ? `${name} · ${os}` : name;
}

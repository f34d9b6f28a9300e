import { describe, expect, it } from 'vitest';
import {
  describeUserAgent,
  formatBytes,
  formatDateTime,
  formatDuration,
  formatPercent,
  formatRelative,
  formatUserAgent,
} from './index.js';

describe('formatBytes', () => {
  it('shows sizes in B, KB, MB and GB with the locale', () => {
    expect(formatBytes(0, 'en-US')).toBe('0 B');
    expect(formatBytes(1023, 'en-US')).toBe('1,023 B');
    expect(formatBytes(1536, 'en-US')).toBe('1.5 KB');
    expect(formatBytes(121180160, 'en-US')).toBe('115.6 MB');
    expect(formatBytes(8 * 1024 ** 3, 'en-US')).toBe('8.0 GB');
    expect(formatBytes(1234.5 * 1024 ** 2, 'de-DE')).toBe('1,2 GB');
  });
  it('shows a missing or broken size as a dash', () => {
    for (const value of [null, undefined, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatBytes(value, 'en-US')).toBe('—');
    }
  });
});

describe('formatPercent and formatDuration', () => {
  it('reads percent points', () => {
    expect(formatPercent(0.1, 'en-US')).toBe('0.1%');
    expect(formatPercent(73.26, 'en-US')).toBe('73.3%');
    expect(formatPercent(undefined, 'en-US')).toBe('—');
  });
  it('keeps the two largest units of a duration', () => {
    expect(formatDuration(3 * 86_400 + 4 * 3_600 + 5 * 60, 'en-US')).toMatch(/^3 days,? 4 hr$/);
    expect(formatDuration(42, 'en-US')).toBe('42 sec');
    expect(formatDuration(0, 'en-US')).toBe('0 sec');
    expect(formatDuration(3_660, 'zh-CN')).toContain('1小时');
    expect(formatDuration(-5, 'en-US')).toBe('—');
  });
});

describe('formatDateTime', () => {
  const instant = '2026-12-02T04:21:04.756Z';
  it('shows an instant in the given zone and locale, not as ISO text', () => {
    expect(formatDateTime(instant, 'en-US', 'Asia/Shanghai')).toBe('Dec 2, 2026, 12:21:04 PM');
    expect(formatDateTime(instant, 'en-US', 'America/New_York')).toBe('Dec 1, 2026, 11:21:04 PM');
    expect(formatDateTime(instant, 'zh-CN', 'Asia/Shanghai')).toBe('2026年12月2日 12:21:04');
    expect(formatDateTime(Date.parse(instant), 'en-US', 'UTC')).toBe('Dec 2, 2026, 4:21:04 AM');
  });
  it('keeps text that is not a time, and dashes a missing one', () => {
    expect(formatDateTime('soon', 'en-US')).toBe('soon');
    expect(formatDateTime(null, 'en-US')).toBe('—');
    expect(formatDateTime('', 'en-US')).toBe('—');
  });
  it('says how long ago', () => {
    const now = Date.parse(instant);
    expect(formatRelative(now - 5 * 60_000, 'en-US', now)).toBe('5 minutes ago');
    expect(formatRelative(now + 2 * 86_400_000, 'en-US', now)).toBe('in 2 days');
    expect(formatRelative(now - 5 * 60_000, 'zh-CN', now)).toBe('5分钟前');
    expect(formatRelative(undefined, 'en-US', now)).toBe('—');
  });
});

describe('user agents', () => {
  const cases: Array<[string, string]> = [
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome 131 · Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51',
      'Edge 131 · Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
      'Safari 17 · macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
      'Safari 17 · iOS',
    ],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 · Linux'],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome 131 · Android',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      'Chrome 156 · Linux',
    ],
    ['curl/8.5.0', 'curl 8'],
  ];
  it.each(cases)('%s', (ua, shown) => {
    expect(formatUserAgent(ua)).toBe(shown);
  });
  it('names what it cannot read, and dashes no header', () => {
    expect(formatUserAgent('SomeBot/1.0', '未知')).toBe('未知');
    expect(formatUserAgent('')).toBe('—');
    expect(describeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X)').mobile).toBe(true);
  });
});

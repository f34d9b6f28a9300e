/**
 * People's units and words for what the API answers in machine form: sizes, fractions, times, durations, user
 * agents and result codes. Plain functions of the value and the console's locale (no component state), so every
 * page shows them one way and they are tested without a browser.
 */
export { formatBytes, formatDuration, formatNumber, formatPercent } from './numbers.js';
export { formatDateTime, formatRelative } from './time.js';
export { describeUserAgent, formatUserAgent, type UserAgentInfo } from './user-agent.js';

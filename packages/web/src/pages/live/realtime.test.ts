/**
 * The realtime store's plain parts (stores/realtime.ts; the test sits in the live area's folder, which this
 * area owns): reconnect backoff, the hub URL and the hub's message frames.
 */
import { describe, expect, it } from 'vitest';
import { BACKOFF_MAX_MS, backoffDelay, hubUrl, parseHubMessage } from '../../stores/realtime.js';

describe('realtime store helpers', () => {
  it('backs off exponentially with jitter, capped', () => {
    const low = () => 0;
    const high = () => 1;
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, low))).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, high))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(50, high)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(50, low)).toBe(BACKOFF_MAX_MS / 2);
  });

  it('builds the hub URL on this origin or on the API base, ws or wss, with the token and resume flag', () => {
    expect(hubUrl('', 'a.b.c', false, 'http://console.test/system/notice')).toBe(
      'ws://console.test/hub/realtime?access_token=a.b.c',
    );
    expect(hubUrl('https://api.test/', 't', true, 'http://console.test/')).toBe(
      'wss://api.test/hub/realtime?access_token=t&resume=1',
    );
  });

  it('reads hub frames and ignores anything else', () => {
    expect(parseHubMessage('{"type":"force-logout","data":{"reason":"Kicked"}}')).toEqual({
      type: 'force-logout',
      data: { reason: 'Kicked' },
    });
    expect(parseHubMessage('{"type":"resync","data":null}')).toEqual({ type: 'resync', data: null });
    expect(parseHubMessage('not json')).toBeUndefined();
    expect(parseHubMessage('{"data":1}')).toBeUndefined();
    expect(parseHubMessage(new ArrayBuffer(2))).toBeUndefined();
  });
});

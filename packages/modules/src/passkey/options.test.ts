/** The start-up checks of `Service:Security:Passkey`: what a deployment outside Development must set. */
import { describe, expect, it } from 'vitest';
import { type PasskeyOptions, passkeysUsable, validatePasskeyOptions } from './options.js';

const base: PasskeyOptions = {
  Enabled: false,
  RpId: null,
  RpName: 'Service',
  Origins: [],
  UserVerification: 'required',
  ChallengeTtlSeconds: 300,
};
const production = { isDevelopment: false };

describe('passkey options', () => {
  it('need an RP id outside Development once the floor is on; without it passkeys stay off', () => {
    expect(validatePasskeyOptions(base, production)).toEqual([]);
    expect(passkeysUsable(base, production)).toBe(false);
    expect(passkeysUsable(base, { isDevelopment: true })).toBe(true);
    expect(validatePasskeyOptions({ ...base, Enabled: true }, production)).toEqual([
      'Service:Security:Passkey:RpId is required outside Development (the host name passkeys are bound to).',
    ]);
    expect(validatePasskeyOptions({ ...base, Enabled: true, RpId: 'example.com' }, production)).toEqual([]);
    expect(passkeysUsable({ ...base, RpId: 'example.com' }, production)).toBe(true);
  });

  it('refuse an RP id with a scheme or port, and origins off HTTPS or off the RP id’s domain', () => {
    expect(validatePasskeyOptions({ ...base, RpId: 'https://example.com' }, production)).toHaveLength(1);
    const origins = (list: string[]) =>
      validatePasskeyOptions({ ...base, RpId: 'example.com', Origins: list }, production);
    expect(origins(['https://console.example.com', 'https://example.com'])).toEqual([]);
    expect(origins(['http://console.example.com'])).toEqual([
      "Service:Security:Passkey:Origins:0 must be HTTPS outside Development (got 'http://console.example.com').",
    ]);
    expect(origins(['https://example.com.evil.test'])[0]).toContain("is not on the RP id's domain");
    expect(origins(['https://notexample.com'])[0]).toContain("is not on the RP id's domain");
    expect(origins(['https://console.example.com/path'])[0]).toContain('must be an origin');
    // Development allows plain HTTP.
    expect(
      validatePasskeyOptions(
        { ...base, RpId: 'example.com', Origins: ['http://a.example.com'] },
        { isDevelopment: true },
      ),
    ).toEqual([]);
  });
});

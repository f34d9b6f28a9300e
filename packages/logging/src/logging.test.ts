import { describe, expect, it } from 'vitest';
import { createConsoleLogger, minimumLevel } from './console-logger.js';
import { createExceptionRecorder, type ExceptionLogEntry, truncate } from './exception-log.js';
import {
  createMasking,
  isSensitiveName,
  MASK,
  maskSensitive,
  nothingToMask,
  plainStrings,
  SENSITIVE_EXACT_NAMES,
  spellings,
} from './masking.js';
import { opLogParamsText, opLogParamText } from './oplog/params.js';

describe('masking', () => {
  it('masks by case-insensitive name fragment, recursing into objects and arrays', () => {
    const masked = maskSensitive({
      account: 'a',
      Password: 'x',
      nested: { newPwd: 'y', list: [{ accessToken: 't', keep: 1 }], AUTHORIZATION: 'Bearer z' },
      x_api_key: 'k',
      cookieValue: 'c',
    });
    expect(masked).toEqual({
      account: 'a',
      Password: MASK,
      nested: { newPwd: MASK, list: [{ accessToken: MASK, keep: 1 }], AUTHORIZATION: MASK },
      x_api_key: MASK,
      cookieValue: MASK,
    });
  });
  it('masks the exact names of contract §10 in any case, and only when they match exactly', () => {
    const input = Object.fromEntries(SENSITIVE_EXACT_NAMES.map((n) => [n.toUpperCase(), '123456']));
    const masked = maskSensitive({ ...input, permissionCode: 'GET:/api/v1/x', codeList: 'a', dictCode: 'd' });
    expect(masked).toEqual({
      ...Object.fromEntries(SENSITIVE_EXACT_NAMES.map((n) => [n.toUpperCase(), MASK])),
      permissionCode: 'GET:/api/v1/x',
      codeList: 'a',
      dictCode: 'd',
    });
    expect(maskSensitive({ totpcode: '1', Sig: 's', privatekey: 'k', otp: '2' })).toEqual({
      totpcode: MASK,
      Sig: MASK,
      privatekey: MASK,
      otp: MASK,
    });
  });
  it('masks the names of contract §11 in camel, kebab and snake spelling and any case, as the fast path sees', () => {
    const names = [
      'x-api-key',
      'X-API-KEY',
      'Api_Key',
      'apiKey',
      'API-KEY-ID',
      'ticket',
      'Ticket',
      'pendingLink',
      'pending_link',
      'PENDING-LINK',
      'challengeId',
      'challenge_id',
      'bindChallengeId',
      'totpChallenge',
      'smsChallenge',
      'state',
      'STATE',
      'codeVerifier',
      'code_verifier',
      'code-verifier',
      'nonce',
      'clientSecret',
      'client_secret',
      'authorization',
      'captchaCode',
      'captcha_code',
      'captcha-code',
      'captchaId',
      'captcha_id',
    ];
    const keep = [
      'ticketCount',
      'stateName',
      'statement',
      'noncense',
      'pendingLinks',
      'challenge',
      'captcha',
    ];
    const value = Object.fromEntries([...names, ...keep].map((k) => [k, 'v']));
    expect(maskSensitive(value)).toEqual({
      ...Object.fromEntries(names.map((k) => [k, MASK])),
      ...Object.fromEntries(keep.map((k) => [k, 'v'])),
    });
    // Whatever masking hides, the fast path must not call clean.
    for (const name of names) expect(nothingToMask(JSON.stringify({ [name]: 'v' })), name).toBe(false);
    expect(spellings('pendingLink')).toEqual(['pendinglink', 'pending-link', 'pending_link']);
    expect(spellings('X-Svc-Auth')).toEqual(['xsvcauth', 'x-svc-auth', 'x_svc_auth']);
    expect(isSensitiveName('api_key_hash')).toBe(true);
  });
  it("masks a deployment's API-key header name as a fragment, though it holds no built-in one", () => {
    const masking = createMasking({ fragments: ['X-Svc-Auth'] });
    const names = ['X-Svc-Auth', 'x-svc-auth', 'X_SVC_AUTH', 'xSvcAuth', 'XSVCAUTH', 'my-x-svc-auth-copy'];
    const value = {
      ...Object.fromEntries(names.map((k) => [k, 'k'])),
      svcAuthor: 'kept',
      nested: [{ 'x-svc-auth': 'k' }],
    };
    expect(masking.maskSensitive(value)).toEqual({
      ...Object.fromEntries(names.map((k) => [k, MASK])),
      svcAuthor: 'kept',
      nested: [{ 'x-svc-auth': MASK }],
    });
    for (const name of names) {
      expect(masking.nothingToMask(`{"${name}":"k"}`), name).toBe(false);
      expect(masking.plainStrings({ [name]: 'k' }), name).toBe(false);
    }
    // The built-in rules do not know it; the op log's text takes the row's rules.
    expect(maskSensitive({ 'X-Svc-Auth': 'k' })).toEqual({ 'X-Svc-Auth': 'k' });
    expect(
      opLogParamsText({ query: { 'x-svc-auth': 'k1' }, bodyJson: '{"X_Svc_Auth":"k2"}', masking }, 8192),
    ).toBe('{"query":{"x-svc-auth":"***"},"body":{"X_Svc_Auth":"***"}}');
  });
  it('masks query parameters and JSON held inside a string field, keeping what is not sensitive', () => {
    const text = opLogParamText(
      {
        query: { code: '654321', name: 'n' },
        body: {
          payload: '{"password":"hunter2","nested":[{"totpCode":"111111"}],"keep":"k"}',
          list: '[{"secret":"s"}]',
          plain: '{not json',
          untouched: '{"a":1}',
        },
      },
      10_000,
    );
    for (const secret of ['654321', 'hunter2', '111111', '"s"']) expect(text).not.toContain(secret);
    const parsed = JSON.parse(text);
    expect(parsed.query).toEqual({ code: MASK, name: 'n' });
    expect(JSON.parse(parsed.body.payload)).toEqual({
      password: MASK,
      nested: [{ totpCode: MASK }],
      keep: 'k',
    });
    expect(JSON.parse(parsed.body.list)).toEqual([{ secret: MASK }]);
    expect(parsed.body.plain).toBe('{not json');
    expect(parsed.body.untouched).toBe('{"a":1}');
  });
  it('masks whole a JSON text in a string field too long to be parsed, which the capped head would show', () => {
    // Past 64 KiB an embedded JSON text is not parsed; the 1 MiB body limit lets it through and the capped text
    // keeps its first characters, where the secret sits.
    const long = JSON.stringify({ password: 'hunter2', pad: 'a'.repeat(70_000) });
    const plain = `[${'1,'.repeat(40_000)}1]`;
    const capped = opLogParamText({ propsJson: long, plain }, 8192);
    expect(capped).not.toContain('hunter2');
    expect(JSON.parse(capped).truncated).toBe(true);
    expect(opLogParamsText({ bodyJson: JSON.stringify({ propsJson: long }) }, 8192)).toBe(
      '{"body":{"propsJson":"***"}}',
    );
    expect(maskSensitive({ propsJson: long, plain })).toEqual({ propsJson: MASK, plain });
    expect(maskSensitive([`{"a":"${'b'.repeat(70_000)}"}`])).toEqual([`{"a":"${'b'.repeat(70_000)}"}`]);
  });
  it('masks the password of a URL wherever a logged text holds one (a secret by position, not by name)', () => {
    const body = '{"target":"https://robot:pa55@api.example/hook","note":"see http://example.com:8080/x"}';
    expect(nothingToMask(body)).toBe(false);
    expect(JSON.stringify(maskSensitive(JSON.parse(body)))).toBe(
      '{"target":"https://robot:***@api.example/hook","note":"see http://example.com:8080/x"}',
    );
    expect(maskSensitive('postgres://svc:s3cret@db:5432/app and ftp://u:p@h')).toBe(
      'postgres://svc:***@db:5432/app and ftp://u:***@h',
    );
    expect(plainStrings({ callback: 'https://u:pw@h/' })).toBe(false);
    // No password, nothing to mask: a port, a user without one, an address.
    for (const text of ['http://example.com:8080/a@b', 'https://user@host/', 'mail me at a@b.example'])
      expect(nothingToMask(text), text).toBe(true);
  });

  it('replaces cycles and functions with the placeholder', () => {
    const a: Record<string, unknown> = { name: 'a', fn: () => 1 };
    a.self = a;
    expect(maskSensitive(a)).toEqual({ name: 'a', fn: '<unserializable>', self: '<unserializable>' });
    const deep: Record<string, unknown> = { list: [{ up: undefined }] };
    ((deep.list as Record<string, unknown>[])[0] as Record<string, unknown>).up = deep;
    expect(maskSensitive(deep)).toEqual({ list: [{ up: '<unserializable>' }] });
  });
  it('copies an object reached along two paths twice (no cycle), masked both times', () => {
    const shared = { password: 'x', keep: 1 };
    expect(maskSensitive({ a: shared, b: [shared, shared] })).toEqual({
      a: { password: MASK, keep: 1 },
      b: [
        { password: MASK, keep: 1 },
        { password: MASK, keep: 1 },
      ],
    });
  });
  it('masks JSON behind leading white space in a string, and gives the same verdict to a name every time', () => {
    const masked = maskSensitive({ note: ' \n\t{"token":"t"}', other: '\u00a0{"token":"t"}' }) as Record<
      string,
      string
    >;
    expect(JSON.parse(masked.note as string)).toEqual({ token: MASK });
    // Not JSON to `JSON.parse` (U+00A0 is no JSON white space): kept as it is.
    expect(masked.other).toBe('\u00a0{"token":"t"}');
    for (let i = 0; i < 3; i++) {
      expect(maskSensitive({ Token: 't', token: 't', tokenize: 't', name: 'n' })).toEqual({
        Token: MASK,
        token: MASK,
        tokenize: MASK,
        name: 'n',
      });
    }
  });
});

describe('console logger', () => {
  it('applies the longest matching category prefix', () => {
    const levels = { Default: 'Warning', Service: 'Information', 'Service.Sql': 'Debug' };
    expect(minimumLevel(levels, 'Service.Sql')).toBe('Debug');
    expect(minimumLevel(levels, 'Service.Startup')).toBe('Information');
    expect(minimumLevel(levels, 'Other')).toBe('Warning');
    const lines: string[] = [];
    const logger = createConsoleLogger({ levels, sink: (l) => lines.push(l) }, 'Other');
    logger.info('hidden');
    logger.warn('shown', { n: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/warn Other: shown \{"n":1\}$/);
  });
});

describe('exception recorder', () => {
  it('truncates message and stack and survives a failing sink', async () => {
    const rows: ExceptionLogEntry[] = [];
    const logged: string[] = [];
    const logger = createConsoleLogger({ sink: (l) => logged.push(l) });
    const recorder = createExceptionRecorder({ sink: { insert: async (r) => rows.push(r) }, logger });
    const error = new RangeError('m'.repeat(5000));
    error.stack = 's'.repeat(20000);
    await recorder.record(error, { method: 'GET', path: '/x', traceId: 't1' });
    expect(rows[0]).toMatchObject({
      exceptionType: 'RangeError',
      httpMethod: 'GET',
      path: '/x',
      traceId: 't1',
    });
    expect(rows[0]?.message).toHaveLength(2000);
    expect(rows[0]?.stackTrace).toHaveLength(8000);
    const failing = createExceptionRecorder({
      sink: { insert: async () => Promise.reject(new Error('db down')) },
      logger,
    });
    await expect(
      failing.record(new Error('boom'), { method: 'GET', path: '/y', traceId: 't2' }),
    ).resolves.toBeUndefined();
    expect(logged.some((l) => l.includes('Could not write the exception log row'))).toBe(true);
  });
  it('never splits a surrogate pair', () => {
    expect(truncate(`ab${'😀'}`, 3)).toBe('ab');
  });
});

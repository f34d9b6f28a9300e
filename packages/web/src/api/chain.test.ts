/**
 * The client middleware chain against a fake fetch: headers, one refresh for many 401s with replay, the way to
 * the login page when the refresh fails, the re-authentication dialog with one replay, and the 30 s budget.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChainFetch, REAUTH_REQUIRED } from './chain.js';
import { ApiError, CLIENT_ERROR } from './envelope.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const envelope = (code: number, msgKey: string) => ({ code, msgKey, data: null });
const url = (path: string) => `http://console.test${path}`;

interface Seen {
  method: string;
  path: string;
  auth: string | null;
  csrf: string | null;
  body: string;
}

/** A fake server: `answer` decides by the request; every request is recorded with its headers and body. */
function fakeServer(answer: (seen: Seen) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetch = async (request: Request) => {
    const entry: Seen = {
      method: request.method,
      path: new URL(request.url).pathname,
      auth: request.headers.get('authorization'),
      csrf: request.headers.get('x-app-csrf'),
      body: await request.text(),
    };
    seen.push(entry);
    return answer(entry);
  };
  return { seen, fetch };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('client chain', () => {
  it('asks for a cookie session on auth calls only (the refresh token then stays in the HttpOnly cookie)', async () => {
    const modes: Array<[string, string | null]> = [];
    const chain = createChainFetch({
      getAccessToken: () => 'tok',
      refresh: async () => false,
      onAuthLost: () => {},
      fetch: async (request) => {
        modes.push([new URL(request.url).pathname, request.headers.get('x-app-session-mode')]);
        return json(200, envelope(0, 'common.success'));
      },
    });
    for (const path of ['/api/v1/auth/login', '/api/v1/auth/login/totp', '/api/v1/auth/external/exchange']) {
      await chain(new Request(url(path), { method: 'POST', body: '{}' }));
    }
    await chain(new Request(url('/api/v1/sys/user'), { method: 'POST', body: '{}' }));
    expect(modes).toEqual([
      ['/api/v1/auth/login', 'cookie'],
      ['/api/v1/auth/login/totp', 'cookie'],
      ['/api/v1/auth/external/exchange', 'cookie'],
      ['/api/v1/sys/user', null],
    ]);
  });

  it('sends the bearer token always and the CSRF header on unsafe methods only', async () => {
    const server = fakeServer(() => json(200, envelope(0, 'common.success')));
    const chain = createChainFetch({
      getAccessToken: () => 'tok',
      getCsrfToken: () => 'csrf-1',
      refresh: async () => false,
      onAuthLost: () => {},
      fetch: server.fetch,
    });
    await chain(new Request(url('/api/v1/sys/user/page')));
    await chain(new Request(url('/api/v1/sys/user'), { method: 'POST', body: '{}' }));
    expect(server.seen.map((s) => [s.method, s.auth, s.csrf])).toEqual([
      ['GET', 'Bearer tok', null],
      ['POST', 'Bearer tok', 'csrf-1'],
    ]);
  });

  it('answers concurrent 401s with ONE refresh and replays every waiting request with the new token', async () => {
    let token = 'old';
    let refreshes = 0;
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const server = fakeServer((s) =>
      s.auth === 'Bearer new'
        ? json(200, { code: 0, msgKey: 'common.success', data: s.body })
        : json(401, envelope(40006, 'error.auth.tokenInvalid')),
    );
    const onAuthLost = vi.fn();
    const chain = createChainFetch({
      getAccessToken: () => token,
      refresh: async () => {
        refreshes += 1;
        await gate;
        token = 'new';
        return true;
      },
      onAuthLost,
      fetch: server.fetch,
    });
    const pending = ['a', 'b', 'c'].map((body) =>
      chain(new Request(url('/api/v1/sys/user'), { method: 'POST', body })),
    );
    // All three have been refused before the refresh completes: they must all wait on the same one.
    await vi.waitFor(() => expect(server.seen.filter((s) => s.auth === 'Bearer old')).toHaveLength(3));
    openGate();
    const responses = await Promise.all(pending);
    expect(refreshes).toBe(1);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const replays = server.seen.filter((s) => s.auth === 'Bearer new');
    expect(replays.map((s) => s.body).sort()).toEqual(['a', 'b', 'c']);
    expect(onAuthLost).not.toHaveBeenCalled();
  });

  it('replays without a second refresh when the token changed while the request was out', async () => {
    let token = 'old';
    const refresh = vi.fn(async () => true);
    const server = fakeServer((s) => {
      if (s.auth === 'Bearer old') {
        token = 'new'; // another request's refresh finished meanwhile
        return json(401, envelope(40006, 'error.auth.tokenInvalid'));
      }
      return json(200, envelope(0, 'common.success'));
    });
    const chain = createChainFetch({
      getAccessToken: () => token,
      refresh,
      onAuthLost: () => {},
      fetch: server.fetch,
    });
    const response = await chain(new Request(url('/api/v1/sys/role/page')));
    expect(response.status).toBe(200);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('sends the user to the login page when the refresh fails, without replaying', async () => {
    const server = fakeServer(() => json(401, envelope(40006, 'error.auth.tokenInvalid')));
    const onAuthLost = vi.fn();
    const chain = createChainFetch({
      getAccessToken: () => 'old',
      refresh: async () => false,
      onAuthLost,
      fetch: server.fetch,
    });
    const responses = await Promise.all([
      chain(new Request(url('/api/v1/sys/user/page'))),
      chain(new Request(url('/api/v1/sys/role/page'))),
    ]);
    expect(responses.map((r) => r.status)).toEqual([401, 401]);
    expect(onAuthLost).toHaveBeenCalled();
    expect(server.seen).toHaveLength(2);
  });

  it('treats a throwing refresh as a failed one', async () => {
    const server = fakeServer(() => json(401, envelope(40006, 'error.auth.tokenInvalid')));
    const onAuthLost = vi.fn();
    const chain = createChainFetch({
      getAccessToken: () => 'old',
      refresh: async () => {
        throw new Error('network down');
      },
      onAuthLost,
      fetch: server.fetch,
    });
    expect((await chain(new Request(url('/api/v1/sys/user/page')))).status).toBe(401);
    expect(onAuthLost).toHaveBeenCalledTimes(1);
  });

  it('never refreshes for a refused login (bad credentials are not an expired session)', async () => {
    const server = fakeServer(() => json(401, envelope(40001, 'error.auth.passwordWrong')));
    const refresh = vi.fn(async () => true);
    const onAuthLost = vi.fn();
    const chain = createChainFetch({
      getAccessToken: () => undefined,
      refresh,
      onAuthLost,
      fetch: server.fetch,
    });
    const response = await chain(new Request(url('/api/v1/auth/login'), { method: 'POST', body: '{}' }));
    expect(response.status).toBe(401);
    expect(refresh).not.toHaveBeenCalled();
    expect(onAuthLost).not.toHaveBeenCalled();
  });

  it('refreshes and replays a logout refused for an expired access token, so the session really ends', async () => {
    let token = 'expired';
    const server = fakeServer((s) =>
      s.auth === 'Bearer fresh'
        ? json(200, envelope(0, 'common.success'))
        : json(401, envelope(40006, 'error.auth.tokenInvalid')),
    );
    const chain = createChainFetch({
      getAccessToken: () => token,
      refresh: async () => {
        token = 'fresh';
        return true;
      },
      onAuthLost: () => {},
      fetch: server.fetch,
    });
    const response = await chain(new Request(url('/api/v1/auth/logout'), { method: 'POST' }));
    expect(response.status).toBe(200);
    expect(server.seen.map((s) => [s.path, s.auth])).toEqual([
      ['/api/v1/auth/logout', 'Bearer expired'],
      ['/api/v1/auth/logout', 'Bearer fresh'],
    ]);
  });

  it('opens the re-authentication dialog on 403/40024 and replays the request once', async () => {
    let reauthed = false;
    const server = fakeServer((s) =>
      reauthed
        ? json(200, { code: 0, msgKey: 'common.success', data: s.body })
        : json(403, envelope(REAUTH_REQUIRED, 'error.auth.reauthRequired')),
    );
    const reauthenticate = vi.fn(async () => {
      reauthed = true;
      return true;
    });
    const chain = createChainFetch({
      getAccessToken: () => 'tok',
      refresh: async () => true,
      onAuthLost: () => {},
      reauthenticate,
      fetch: server.fetch,
    });
    const response = await chain(
      new Request(url('/api/v1/sys/user/9/password'), { method: 'PUT', body: 'pw' }),
    );
    expect(response.status).toBe(200);
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(server.seen.map((s) => s.body)).toEqual(['pw', 'pw']);
  });

  it('replays only once: a second 40024 is returned, not a dialog loop', async () => {
    const server = fakeServer(() => json(403, envelope(REAUTH_REQUIRED, 'error.auth.reauthRequired')));
    const reauthenticate = vi.fn(async () => true);
    const chain = createChainFetch({
      getAccessToken: () => 'tok',
      refresh: async () => true,
      onAuthLost: () => {},
      reauthenticate,
      fetch: server.fetch,
    });
    const response = await chain(
      new Request(url('/api/v1/sys/user/9/password'), { method: 'PUT', body: 'pw' }),
    );
    expect(response.status).toBe(403);
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(server.seen).toHaveLength(2);
  });

  it('does not replay when the user cancels the dialog, and leaves other 403s alone', async () => {
    const server = fakeServer((s) =>
      s.path.endsWith('/password')
        ? json(403, envelope(REAUTH_REQUIRED, 'error.auth.reauthRequired'))
        : json(403, envelope(40301, 'error.permission.denied')),
    );
    const reauthenticate = vi.fn(async () => false);
    const chain = createChainFetch({
      getAccessToken: () => 'tok',
      refresh: async () => true,
      onAuthLost: () => {},
      reauthenticate,
      fetch: server.fetch,
    });
    expect((await chain(new Request(url('/api/v1/sys/user/9/password'), { method: 'PUT' }))).status).toBe(
      403,
    );
    expect((await chain(new Request(url('/api/v1/sys/role/page')))).status).toBe(403);
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(server.seen).toHaveLength(2);
  });

  it('gives up after 30 s with a timeout error', async () => {
    vi.useFakeTimers();
    const chain = createChainFetch({
      getAccessToken: () => 'tok',
      refresh: async () => true,
      onAuthLost: () => {},
      fetch: (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
        }),
    });
    const pending = chain(new Request(url('/api/v1/sys/monitor/server')));
    const outcome = pending.then(
      () => undefined,
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(29_999);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(CLIENT_ERROR.Timeout);
  });
});

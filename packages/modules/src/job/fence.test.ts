import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Cron } from 'croner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget, fencedFetch, isPrivateAddress } from './fence.js';
import { cronFireTimes, nextFireTime, normaliseCron, storedCron, validateTrigger } from './trigger.js';

const codeOf = async (work: Promise<unknown>) => {
  try {
    await work;
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
};

describe('the outbound fence of HTTP jobs', () => {
  let server: Server;
  let port = 0;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      } else if (req.url === '/to-localhost') {
        res.writeHead(301, { location: `http://localhost:${port}/secret` }).end();
      } else if (req.url === '/to-public') {
        res.writeHead(307, { location: `http://public.example:${port}/ok` }).end();
      } else {
        res.writeHead(200).end(`hello ${req.url}`);
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('classifies loopback, private, link-local, CGNAT, unique-local, mapped and unspecified addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.8',
      '172.20.1.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111'])
      expect(isPrivateAddress(ip), ip).toBe(false);
    expect(isPrivateAddress('not an ip')).toBe(true);
  });

  it('refuses documentation and reserved ranges, IPv6 forms that carry or stand for them, and this machine', () => {
    const none = new Set<string>();
    for (const ip of [
      '192.0.2.2',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '192.88.99.1',
      // IPv4-compatible, SIIT and 6to4 forms of loopback and private addresses; NAT64, Teredo, documentation.
      '::127.0.0.1',
      '::7f00:1',
      '::ffff:0:127.0.0.1',
      '::ffff:0:a00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '2002:7f00:1::1',
      '2002:c0a8:101::',
      '64:ff9b::7f00:1',
      '64:ff9b:1::a00:1',
      '2001:0:4136:e378::1',
      '2001:db8::1',
      '100::1',
      'fec0::1',
    ])
      expect(isPrivateAddress(ip, none), ip).toBe(true);
    // 6to4 of a public address, a public IPv4 in its mapped form: outside the fence.
    for (const ip of ['2002:5db8:d822::1', '::ffff:93.184.216.34', '2606:4700::1111'])
      expect(isPrivateAddress(ip, none), ip).toBe(false);
    // One of this machine's own addresses, in any spelling, even a public one.
    const own = new Set(['93.184.216.34']);
    expect(isPrivateAddress('93.184.216.34', own)).toBe(true);
    expect(isPrivateAddress('::ffff:93.184.216.34', own)).toBe(true);
    expect(isPrivateAddress('2606:4700::1111', new Set(['2606:4700:0:0:0:0:0:1111']))).toBe(true);
    // By default the set is this machine's interfaces: its loopback is among them.
    expect(isPrivateAddress('127.0.0.1')).toBe(true);
  });

  it('refuses a host that does not resolve with 47009, not an error', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    };
    expect(
      await codeOf(checkTarget(new URL('http://nowhere.invalid/'), { allowPrivate: false, resolve })),
    ).toBe(47009);
  });

  it('refuses a host name when any of its addresses is private (every address is checked)', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    expect(
      await codeOf(checkTarget(new URL('http://mixed.example/'), { allowPrivate: false, resolve })),
    ).toBe(47009);
    expect(await codeOf(checkTarget(new URL('http://localhost/'), { allowPrivate: false }))).toBe(47009);
    expect(await codeOf(checkTarget(new URL('ftp://93.184.216.34/'), { allowPrivate: false }))).toBe(47009);
    expect(await codeOf(checkTarget(new URL('http://localhost/'), { allowPrivate: true }))).toBe(0);
  });

  it('refuses a redirect to a fenced target, and never calls it', async () => {
    const resolve = async (host: string) =>
      host === 'public.example'
        ? [{ address: '93.184.216.34', family: 4 }]
        : [{ address: '127.0.0.1', family: 4 }];
    // The public address is served by the local server (test seam), so the first hop passes the fence.
    const pin = () => ({ address: '127.0.0.1', family: 4 });
    const base = { method: 'GET', allowPrivate: false, signal: new AbortController().signal, resolve, pin };
    const ok = await fencedFetch({ ...base, url: `http://public.example:${port}/to-public` });
    expect(ok).toEqual({ status: 200, body: 'hello /ok' });
    expect(await codeOf(fencedFetch({ ...base, url: `http://public.example:${port}/to-metadata` }))).toBe(
      47009,
    );
    hits.length = 0;
    expect(await codeOf(fencedFetch({ ...base, url: `http://public.example:${port}/to-localhost` }))).toBe(
      47009,
    );
    expect(hits).toEqual(['/to-localhost']);
  });

  it("drops the job's headers on a redirect to another origin, and the body when the redirect makes it a GET", async () => {
    const seen: { at: string; method: string; headers: Record<string, unknown>; body: string }[] = [];
    const record = (at: string) =>
      createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => {
          body += c.toString('utf8');
        });
        req.on('end', () => {
          seen.push({ at: `${at}${req.url}`, method: req.method ?? '', headers: req.headers, body });
          if (req.url === '/away') res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/collect` });
          else if (req.url === '/here') res.writeHead(302, { location: '/landed' });
          else if (req.url === '/see-other') res.writeHead(303, { location: '/landed' });
          else if (req.url === '/away-and-back')
            res.writeHead(307, { location: `http://127.0.0.1:${otherPort}/back` });
          else if (req.url === '/back')
            res.writeHead(307, { location: `http://127.0.0.1:${homePort}/landed` });
          res.end('ok');
        });
      });
    const home = record('home');
    const other = record('other');
    await new Promise<void>((r) => home.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const homePort = (home.address() as AddressInfo).port;
    const otherPort = (other.address() as AddressInfo).port;
    try {
      const headers = {
        Authorization: 'Bearer PARTNER-KEY',
        'X-Api-Key': 'K2',
        Cookie: 'sid=1',
        'Content-Type': 'application/json',
      };
      const base = { allowPrivate: true, signal: new AbortController().signal, headers };
      const secrets = (h: Record<string, unknown>) =>
        ['authorization', 'x-api-key', 'cookie'].filter((n) => h[n] !== undefined);

      await fencedFetch({ ...base, url: `http://127.0.0.1:${homePort}/away`, method: 'GET' });
      expect(seen.map((s) => s.at)).toEqual(['home/away', 'other/collect']);
      expect(secrets(seen[0]?.headers ?? {})).toEqual(['authorization', 'x-api-key', 'cookie']);
      expect(secrets(seen[1]?.headers ?? {})).toEqual([]);
      expect(seen[1]?.headers['content-type']).toBeUndefined();

      // Same origin: the headers stay.
      seen.length = 0;
      await fencedFetch({ ...base, url: `http://127.0.0.1:${homePort}/here`, method: 'GET' });
      expect(secrets(seen[1]?.headers ?? {})).toEqual(['authorization', 'x-api-key', 'cookie']);

      // Once gone, they stay gone, also when a later hop comes back to the job's origin.
      seen.length = 0;
      await fencedFetch({ ...base, url: `http://127.0.0.1:${homePort}/away-and-back`, method: 'GET' });
      expect(seen.map((s) => s.at)).toEqual(['home/away-and-back', 'other/back', 'home/landed']);
      expect(seen.slice(1).map((s) => secrets(s.headers))).toEqual([[], []]);

      // 303 turns a PUT into a GET: no body, no header describing it; the credentials stay on the same origin.
      seen.length = 0;
      await fencedFetch({
        ...base,
        url: `http://127.0.0.1:${homePort}/see-other`,
        method: 'PUT',
        body: '{"a":1}',
      });
      expect(seen.map((s) => [s.at, s.method, s.body])).toEqual([
        ['home/see-other', 'PUT', '{"a":1}'],
        ['home/landed', 'GET', ''],
      ]);
      expect(seen[1]?.headers['content-type']).toBeUndefined();
      expect(seen[1]?.headers['content-length']).toBeUndefined();
      expect(secrets(seen[1]?.headers ?? {})).toEqual(['authorization', 'x-api-key', 'cookie']);
    } finally {
      await new Promise<void>((r) => home.close(() => r()));
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  it('calls a private target when allowed', async () => {
    const res = await fencedFetch({
      url: `http://127.0.0.1:${port}/x`,
      method: 'POST',
      body: '{}',
      allowPrivate: true,
      signal: new AbortController().signal,
    });
    expect(res).toEqual({ status: 200, body: 'hello /x' });
  });
});

describe('job triggers', () => {
  it('normalises six-field cron with ? and names, and refuses others with a reason', () => {
    expect(normaliseCron('0  30 3 * *  ?')).toBe('0 30 3 * * ?');
    expect(normaliseCron('0 0 9 ? * mon-fri')).toBe('0 0 9 ? * MON-FRI');
    for (const bad of ['* * * * *', '0 0 0 0 0 0 0', '61 * * * * *', 'x y z a b c', ''])
      expect(() => normaliseCron(bad), bad).toThrow(expect.objectContaining({ code: 47003 }));
  });

  it('reads Quartz days (1 = SUN) on write and days stored before (0/7 = SUN) by their old numbering', () => {
    expect(normaliseCron('0/10 * * * * ?')).toBe('0/10 * * * * ?');
    expect(normaliseCron('0 0 9 ? * 2-6')).toBe('0 0 9 ? * MON-FRI');
    expect(normaliseCron('0 0 9 ? * 1,7')).toBe('0 0 9 ? * SUN,SAT');
    expect(normaliseCron('0 0 9 ? * 1/2')).toBe('0 0 9 ? * SUN,TUE,THU,SAT');
    expect(normaliseCron('0 0 9 ? * 6-2')).toBe('0 0 9 ? * FRI,SAT,SUN,MON');
    expect(normaliseCron('0 0 9 ? * 6L')).toBe('0 0 9 ? * FRIL');
    expect(normaliseCron('0 0 9 ? * L')).toBe('0 0 9 ? * SAT');
    expect(normaliseCron('0 0 9 ? * 2#1 2030')).toBe('0 0 9 ? * MON#1 2030');
    for (const bad of ['0 0 9 ? * 0', '0 0 9 ? * 8', '0 0 9 ? * 1/0', '0 0 9 ? * 1//2', '0 0 9 ? * FOO'])
      expect(() => normaliseCron(bad), bad).toThrow(expect.objectContaining({ code: 47003 }));
    expect(storedCron('0 0 9 ? * 1-5')).toBe('0 0 9 ? * MON-FRI');
    expect(storedCron('0 0 9 ? * 0')).toBe('0 0 9 ? * SUN');
    expect(storedCron('0 0 9 ? * 7')).toBe('0 0 9 ? * SUN');
    expect(storedCron('0 0 9 ? * 5-7')).toBe('0 0 9 ? * FRI,SAT,SUN');
    expect(storedCron('0 0 9 ? * 5#3')).toBe('0 0 9 ? * FRI#3');
    // Stored since: names only, read as they are.
    for (const stored of ['0 0 9 ? * MON-FRI', '0 0 9 ? * FRI#3', '0/10 * * * * ?', '0 0 9 ? * SUN,TUE 2030'])
      expect(storedCron(stored)).toBe(stored);
    expect(storedCron('0 0 9 ? * 0-7')).toBe('0 0 9 ? * SUN-SAT');
    expect(storedCron('0 0 9 ? * 0-7/2')).toBe('0 0 9 ? * SUN,TUE,THU,SAT');
    expect(storedCron('0 0 0 ? * 5#L')).toBe('0 0 0 ? * FRIL');
    // Every day-of-week form the six-field croner dialect took before fires as it did then.
    const before = new Date('2026-12-02T10:00:00Z');
    for (const old of [
      '0 0 9 ? * 1-5',
      '0 0 9 * * 0-7',
      '0 0 9 ? * 0-7/2',
      '0 0 9 ? * 5-7',
      '0 0 9 ? * */2',
      '0 0 9 ? * 0,6',
      '0 0 9 ? * 7',
      '0 0 0 ? * 5#L',
      '0 0 0 ? * 1#L',
      '0 0 0 ? * 2#3',
      '0 0 0 ? * 5L',
      '0 0 9 ? * MON-FRI',
      '0 0 9 ? * SUN,SAT',
      '0 0 9 * * 3',
    ]) {
      const then = new Cron(old, { paused: true, timezone: 'UTC' }).nextRuns(12, before);
      expect(cronFireTimes(old, before, 12), old).toEqual(then);
    }
    // Quartz wants one of the day fields left open.
    expect(() => normaliseCron('0 0 0 1 * 2')).toThrow(expect.objectContaining({ code: 47003 }));
    expect(normaliseCron('0 0 0 * * 2')).toBe('0 0 0 * * MON');
    const monday = new Date('2026-12-07T00:00:00Z');
    expect(cronFireTimes('0 0 9 ? * 1', monday, 1)[0]?.toISOString()).toBe('2026-12-07T09:00:00.000Z');
    expect(cronFireTimes(normaliseCron('0 0 9 ? * 1'), monday, 1)[0]?.toISOString()).toBe(
      '2026-12-13T09:00:00.000Z',
    );
  });

  it('computes cron, interval and one-shot fires within the start and end times', () => {
    const at = new Date('2026-01-01T00:00:00.500Z');
    expect(cronFireTimes('*/10 * * * * ?', at, 2).map((d) => d.toISOString())).toEqual([
      '2026-01-01T00:00:10.000Z',
      '2026-01-01T00:00:20.000Z',
    ]);
    const base = {
      cronExpression: null,
      intervalSeconds: null,
      oneShotTime: null,
      startTime: null,
      endTime: null,
    };
    expect(nextFireTime({ ...base, triggerKind: 2, intervalSeconds: 5 }, at)?.toISOString()).toBe(
      '2026-01-01T00:00:05.000Z',
    );
    const start = new Date('2026-01-02T00:00:00Z');
    expect(
      nextFireTime({ ...base, triggerKind: 1, cronExpression: '0 0 * * * ?', startTime: start }, at),
    ).toEqual(start);
    const end = new Date('2026-01-01T00:00:30Z');
    expect(nextFireTime({ ...base, triggerKind: 2, intervalSeconds: 60, endTime: end }, at)).toBeNull();
    const shot = new Date('2026-01-01T00:00:03Z');
    expect(nextFireTime({ ...base, triggerKind: 3, oneShotTime: shot }, at)).toEqual(shot);
    expect(nextFireTime({ ...base, triggerKind: 3, oneShotTime: shot }, shot)).toBeNull();
    expect(() => validateTrigger({ ...base, triggerKind: 2, intervalSeconds: 4 })).toThrow(
      expect.objectContaining({ code: 47004 }),
    );
    expect(() => validateTrigger({ ...base, triggerKind: 1, startTime: start, endTime: start })).toThrow(
      expect.objectContaining({ code: 47004 }),
    );
  });
});

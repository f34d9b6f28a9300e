// A second baseline of bench/auth.mjs: a bare Hono route on @hono/node-server (the versions the host runs) that
// answers what the host's ping answers (the JSON envelope with a timestamp, the trace id and the four secure
// headers of every /api answer) and does nothing else. With `--redis URL` it first reads one key from Redis with
// the client the host's Redis cache uses, the floor of a ping on Redis (one round trip). Prints `listening <url>`.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../packages/http/package.json', import.meta.url));
const { Hono } = require('hono');
const { serve } = require('@hono/node-server');

const redisUrl = process.argv[process.argv.indexOf('--redis') + 1];
let client;
if (process.argv.includes('--redis')) {
  const dataRequire = createRequire(new URL('../packages/data/package.json', import.meta.url));
  const { createClient } = dataRequire('@keyv/redis');
  client = createClient({ url: redisUrl });
  await client.connect();
  await client.set('bench:hello-envelope', JSON.stringify({ uid: 1, mfa: false, abs: null, seen: 0 }));
}

const SECURE = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};
// The headers go straight onto the Node response: passing several to `c.json` would make Hono build a Web
// `Headers` object, a cost of its own this baseline should not carry.
const answer = (c) => {
  const outgoing = c.env.outgoing;
  outgoing.setHeader('X-Trace-Id', randomUUID().replaceAll('-', ''));
  for (const name in SECURE) outgoing.setHeader(name, SECURE[name]);
  const data = { pong: true, account: 'superAdmin', at: new Date().toISOString() };
  return c.json({ code: 0, msgKey: 'common.success', data });
};

const app = new Hono();
app.get(
  '/',
  client
    ? async (c) => {
        JSON.parse(await client.get('bench:hello-envelope'));
        return answer(c);
      }
    : answer,
);
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  console.log(`listening http://127.0.0.1:${info.port}`);
});
process.once('SIGTERM', async () => {
  await client?.quit().catch(() => {});
  process.exit(0);
});

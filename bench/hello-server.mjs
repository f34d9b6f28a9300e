// The bare baseline of bench/auth.mjs: a Hono app answering `c.text('hi')` on @hono/node-server, the versions the
// host runs (resolved from @svc/http). Listens on 127.0.0.1 at a free port and prints `listening <url>`.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../packages/http/package.json', import.meta.url));
const { Hono } = require('hono');
const { serve } = require('@hono/node-server');

const app = new Hono();
app.get('/', (c) => c.text('hi'));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  console.log(`listening http://127.0.0.1:${info.port}`);
});
process.once('SIGTERM', () => process.exit(0));

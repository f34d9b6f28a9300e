/**
 * The shell's Vite config. `vite` (dev) proxies `/api`, `/openapi` and `/hub` (WebSocket) unchanged to the
 * backend at `SMART_API_TARGET` (default: the reference host's address); `vite build` writes `dist/`, which the
 * reference host serves as its web root in Development. @svc/web is compiled from its sources (the
 * `@svc/source` condition), so the shell does not wait for a library build.
 */
import { readFileSync } from 'node:fs';
import vue from '@vitejs/plugin-vue';
import { defaultClientConditions, defineConfig } from 'vite';

const target = process.env.SMART_API_TARGET || 'http://localhost:5100';
const { version } = JSON.parse(
  readFileSync(new URL('../../packages/web/package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};

export default defineConfig({
  plugins: [vue()],
  define: { __APP_VERSION__: JSON.stringify(version) },
  resolve: { conditions: ['@svc/source', ...defaultClientConditions] },
  server: {
    proxy: {
      '/api': { target, changeOrigin: false },
      '/openapi': { target, changeOrigin: false },
      '/hub': { target, ws: true, changeOrigin: false },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 1024 },
});

/** Library build of the console: ESM, Vue and the UI libraries left to the consumer's bundler. */
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vue()],
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: 'index', cssFileName: 'web' },
    sourcemap: true,
    rollupOptions: {
      external: [
        /^vue($|\/)/,
        /^naive-ui($|\/)/,
        'pinia',
        'vue-router',
        'vue-i18n',
        'openapi-fetch',
        'qrcode',
      ],
    },
  },
});

/** Library build of the console: ESM, Vue and the UI libraries left to the consumer's bundler. */
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vue()],
  build: {
    lib: {
      // `@svc/web/module`: a module's console kit, importable without the components (and a Vue compiler).
      entry: { index: 'src/index.ts', module: 'src/module.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
      cssFileName: 'web',
    },
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

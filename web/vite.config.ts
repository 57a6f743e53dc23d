import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The page is served by the Engram server at `/`; assets are relative so any mount point works.
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: './',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
});

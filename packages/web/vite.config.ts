import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * The console's build: a static single-page app under `dist/`, served by `agentloom serve`.
 * Files are also written compressed (`.br`, `.gz`) so the server never compresses them per request.
 * The manifest lets `scripts/report-bundle-size.ts` measure the JavaScript each page needs;
 * `npm run dev` proxies `/api` to a platform on port 8787.
 */
export default defineConfig({
  // Brotli and gzip copies of every file of 1 KiB or more, sent by `agentloom serve` per Accept-Encoding.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  build: { outDir: 'dist', manifest: true, sourcemap: false, target: 'es2022' },
  server: { proxy: { '/api': process.env.AGENTLOOM_API_URL ?? 'http://127.0.0.1:8787' } },
});

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The console's build: a static single-page app under `dist/`, served by `agentloom serve`.
 * The manifest lets `scripts/report-bundle-size.ts` measure the JavaScript each page needs;
 * `npm run dev` proxies `/api` to a platform on port 8787.
 */
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', manifest: true, sourcemap: false, target: 'es2022' },
  server: { proxy: { '/api': process.env.AGENTLOOM_API_URL ?? 'http://127.0.0.1:8787' } },
});

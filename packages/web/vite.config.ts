import { parse } from '@formatjs/icu-messageformat-parser';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { catalogues } from './src/i18n/messages/all.js';

/**
 * The message catalogues, compiled at build time: `en.ts` and `zh-cn.ts` become their messages
 * already parsed (the ICU syntax trees react-intl formats from), so the console ships neither the
 * message parser nor the skeleton parser (about 8 KiB of compressed JavaScript on every page) and
 * parses nothing while a page renders. Parsed as intl-messageformat would at run time (tags
 * included, skeletons parsed, the catalogue's locale for hour cycles). In `npm run dev` the
 * catalogues stay text and the parser runs in the browser.
 */
function precompiledCatalogues(): Plugin {
  const modules: Record<string, { exportName: string; locale: keyof typeof catalogues }> = {
    en: { exportName: 'en', locale: 'en' },
    'zh-cn': { exportName: 'zhCN', locale: 'zh-CN' },
  };
  return {
    name: 'agentloom:precompiled-catalogues',
    apply: 'build',
    transform(_code, id) {
      const name = /[\\/]src[\\/]i18n[\\/]messages[\\/]([a-z-]+)\.ts$/.exec(id)?.[1];
      const module = name ? modules[name] : undefined;
      if (!module) return undefined;
      const locale = new Intl.Locale(module.locale);
      const parsed = Object.fromEntries(
        Object.entries(catalogues[module.locale]).map(([messageId, message]) => [messageId, parse(message, { locale })]),
      );
      return { code: `export const ${module.exportName} = ${JSON.stringify(parsed)};`, map: null };
    },
  };
}

/**
 * The console's build: a static single-page app under `dist/`, served by `agentloom serve`.
 * Files are also written compressed (`.br`, `.gz`) so the server never compresses them per request.
 * The manifest lets `scripts/report-bundle-size.ts` measure the JavaScript each page needs;
 * `npm run dev` proxies `/api` to a platform on port 8787.
 */
export default defineConfig(({ command }) => ({
  // Brotli and gzip copies of every file of 1 KiB or more, sent by `agentloom serve` per Accept-Encoding.
  plugins: [precompiledCatalogues(), react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  // With the catalogues compiled, react-intl never parses: its parser package is swapped for the
  // types-only build the formatjs project ships for this (`no-parser`).
  resolve:
    command === 'build'
      ? {
          alias: [
            { find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' },
          ],
        }
      : {},
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // Everything the entry needs at start (React, the router, the query client, the frame, the
    // shared components, react-intl) in one chunk: left to itself the bundler cut it into five
    // small ones, each compressed on its own (3 KiB more to send) and requested separately.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'console', tags: ['$initial'] }] } } },
  },
  server: { proxy: { '/api': process.env.AGENTLOOM_API_URL ?? 'http://127.0.0.1:8787' } },
}));

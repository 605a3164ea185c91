import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';

/** The ADRs, newest last, each titled by its number and file name. */
const decisions = readdirSync(fileURLToPath(new URL('../decisions', import.meta.url)))
  .filter((file) => file.endsWith('.md'))
  .sort()
  .map((file) => ({
    text: file
      .replace(/\.md$/, '')
      .replace(/^(\d+)-/, '$1 ')
      .replaceAll('-', ' '),
    link: `/decisions/${file.replace(/\.md$/, '')}`,
  }));

/**
 * The documentation site (VitePress): built from the same Markdown files a reader sees on the
 * repository, so the two never disagree. Dead links fail the build (VitePress's default), which is
 * how CI keeps the pages' links true. The HTTP API reference is generated from the served OpenAPI
 * document into `public/api/` before the build (`scripts/build-api-reference.mjs`).
 */
export default defineConfig({
  title: 'AgentLoom',
  description: 'Agents whose runs survive a crash: an SDK, a self-hosted platform and an intent layer.',
  lang: 'en',
  cleanUrls: true,
  // The pages are read on the repository too, where `<name>` in prose is text: never parse it as HTML.
  markdown: { html: false },
  srcExclude: ['node_modules/**', 'scripts/**'],
  // Links to source files of the repository (../packages/…) are not pages of the site.
  ignoreDeadLinks: [/^\.\.\/(\.\.\/)?(packages|examples|bench|test|\.ci)\//],
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'SDK', link: '/sdk-guide' },
      { text: 'Platform', link: '/platform' },
      { text: 'Operations', link: '/operations' },
      { text: 'HTTP API', link: '/api/index.html', target: '_self' },
    ],
    sidebar: [
      { text: 'Start', items: [{ text: 'Getting started', link: '/getting-started' }] },
      {
        text: 'SDK',
        items: [
          { text: 'The SDK guide', link: '/sdk-guide' },
          { text: 'Capabilities', link: '/capabilities' },
          { text: 'Models and providers', link: '/providers' },
          { text: 'Teams', link: '/teams' },
          { text: 'A2A', link: '/a2a' },
          { text: 'Telemetry', link: '/telemetry' },
        ],
      },
      { text: 'Intent', items: [{ text: 'The intent layer', link: '/intent' }] },
      {
        text: 'Platform',
        items: [
          { text: 'The platform guide', link: '/platform' },
          { text: 'The console', link: '/console' },
          { text: 'Human input in workflows', link: '/workflow-input' },
          { text: 'HTTP API reference', link: '/api/index.html', target: '_self' },
        ],
      },
      {
        text: 'Operations',
        items: [
          { text: 'Operations', link: '/operations' },
          { text: 'Security', link: '/security' },
        ],
      },
      {
        text: 'Design',
        items: [
          { text: 'Architecture', link: '/architecture' },
          { text: 'Rules', link: '/rules' },
          { text: 'Developing AgentLoom', link: '/development' },
          { text: 'Decisions', collapsed: true, items: decisions },
        ],
      },
    ],
    search: { provider: 'local' },
    outline: 'deep',
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@agentloom/source'] },
  ssr: { resolve: { conditions: ['@agentloom/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

import { defineConfig } from 'vitest/config';

// The browser suites (test/e2e, test/renderer/page/client.test.ts) need Chromium from Debian
// (`apt-get install chromium`; .ci/run installs it). Without it they report themselves skipped,
// with the reason (test/e2e/chromium.ts; CHROMIUM_PATH=none forces that).

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    // Integration tests open real SQLite files and real listeners; forks keep native handles isolated.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});

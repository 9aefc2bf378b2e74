import fs from 'node:fs';
import { defineConfig } from 'vitest/config';

// The browser suite (test/e2e) needs Chromium from Debian (`apt-get install chromium`; .ci/run
// installs it). Where none is installed it is left out of the run, and the run says so.
const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].some((p) => !!p && fs.existsSync(p));
if (!chromium) console.warn('vitest: Chromium not installed, the browser suite (test/e2e) is not part of this run');

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(chromium ? [] : ['test/e2e/**'])],
    // Integration tests open real SQLite files and real listeners; forks keep native handles isolated.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});

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
    // Two forks even on two cores: many suites wait on child processes, listeners and timers, so a
    // second fork halves the wall time (814 tests: 333 s with vitest's default, 226 s with two).
    maxWorkers: 2,
    // Test files share a fork's module cache instead of importing the whole appliance again per
    // file (994 tests: 470 s isolated, 287 s shared, same machine). Every suite builds its own
    // appliance, state dir and listeners (test/helpers), so no state lives in a module.
    isolate: false,
    // One temp dir per run (TMPDIR for the forks and everything they start), removed at the end:
    // a run leaves nothing in the system temp dir, whatever a test forgot to clean up.
    globalSetup: ['test/global-tmpdir.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});

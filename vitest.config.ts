import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests open real SQLite files and real listeners; forks keep native handles isolated.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

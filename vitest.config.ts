import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.mjs'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/{src,fuzz,test}/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // One database per worker, shared by the files that worker runs (PGlite takes seconds to start).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test-setup.ts'],
          css: false,
        },
      },
    ],
    maxWorkers: 2,
    // As the browser tests do: in CI a test that fails once runs again, and the closing summary of
    // `npm test` names every test that needed it, so a flaky test is seen without stopping a landing.
    retry: process.env.CI ? 1 : 0,
  },
});

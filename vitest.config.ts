import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['app/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/http/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/each-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Most of a test file's time is spent waiting on the servers it started and on their timers, not
    // computing: twice as many files run at once as there are cores.
    maxWorkers: availableParallelism() * 2,
    // A worker imports the site's modules once for all the files it runs, not once per file: that
    // import was half of a unit test file's time. Files keep their own database and servers.
    isolate: false,
  },
})

import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    // What a journey waits for through expect.poll (a toast, a row) may take longer than a second on
    // a busy machine; the page's own answer is what is checked, not how fast it comes.
    expect: { poll: { timeout: 10_000 } },
  },
})

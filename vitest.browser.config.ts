import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at once: a journey spends much of its time waiting (on its server, on the page's
    // timers and on Chromium), so one file at a time left most of two cores idle.
    maxWorkers: 2,
    // What a journey waits for through expect.poll (a toast, a row) may take longer than a second on
    // a busy machine; the page's own answer is what is checked, not how fast it comes.
    expect: { poll: { timeout: 10_000 } },
  },
})

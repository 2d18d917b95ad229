import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import ServerFilesFirst from './tests/support/sequencer'

/**
 * Files that replace a module with `vi.mock` run in a fresh module graph of their own: in the shared
 * one, a module imported earlier by another file would keep the real import and ignore the mock.
 */
const MOCKING_FILES = ['app/modules/accounts/sign-in.server.test.ts']

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/each-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // A poll waits on real round trips (a gateway's notification, its retry a second later, an e-mail
    // through SMTP): on two busy cores one can take longer than Vitest's default second.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // A test worker lives for a minute or two: V8 runs PGlite's WebAssembly with its baseline compiler
    // only, without also optimising the hot part in the background, which costs more than it saves here.
    execArgv: ['--liftoff-only'],
    sequence: { sequencer: ServerFilesFirst },
    // Most of a test file's time is spent waiting on the servers it started and on their timers, not
    // computing: twice as many files run at once as there are cores.
    maxWorkers: availableParallelism() * 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['app/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/http/**/*.test.ts'],
          exclude: MOCKING_FILES,
          // A worker imports the site's modules once for all the files it runs, not once per file: that
          // import was half of a unit test file's time. Files keep their own database and servers.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'mocking', include: MOCKING_FILES, isolate: true } },
    ],
  },
})

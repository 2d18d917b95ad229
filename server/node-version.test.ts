import { describe, expect, it } from 'vitest'

// CI runs the unit suite under a second Node.js major (.ci/run sets EXPECT_NODE_MAJOR): this fails
// unless that run really used it, and not whichever Node.js came first on the PATH.
const expected = process.env.EXPECT_NODE_MAJOR

describe.runIf(expected)('the Node.js this run was started for', () => {
  it(`is Node.js ${expected}`, () => {
    expect(process.version).toMatch(new RegExp(`^v${expected}\\.`))
  })
})

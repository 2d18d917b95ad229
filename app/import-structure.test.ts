import { describe, expect, it } from 'vitest'
import { cycleViolations, importEdges, layerViolations, moduleGraph } from '../scripts/check-imports.mjs'

// The import structure of app/ (scripts/check-imports.mjs, which prints the same list): no cycle
// between the domain's modules, and no import up a layer. On failure the list names each import.

const edges = importEdges()
const readable = (violations: string[]) => violations.join('\n')

describe('import structure', () => {
  it('has no cycle between the modules of app/modules', () => {
    expect(readable(cycleViolations(moduleGraph(edges)))).toBe('')
  })

  it('has no import up a layer', () => {
    expect(readable(layerViolations(edges))).toBe('')
  })
})

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CSS_FILE, displayFont, FONT_FILE } from '../../../scripts/display-font.mjs'

// The headings' font is made from the npm packages by scripts/display-font.mjs and committed; made
// again here, it must come out the same (a package updated, or a character added, shows up here).

describe('the headings’ typeface', () => {
  it('is the subset the script makes of the installed Archivo, with its stylesheet', async () => {
    const { woff2, css } = await displayFont()
    expect(readFileSync(new URL(CSS_FILE, import.meta.url), 'utf8')).toBe(css)
    expect(Buffer.compare(readFileSync(new URL(FONT_FILE, import.meta.url)), woff2)).toBe(0)
    expect(woff2.byteLength).toBeLessThan(16 * 1024)
    expect(css).toContain('font-display: swap')
    // Fallbacks scaled to Archivo's metrics, so the swap moves no line.
    expect(css).toMatch(/font-family: "Archivo Display Fallback: Arial";[^}]*size-adjust: \d+(\.\d+)?%/)
  })
})

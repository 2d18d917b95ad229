// The headings' typeface, made from the npm registry's Archivo (SIL Open Font License): the variable
// font pinned to one instance (ExtraBold, a little expanded) and cut down to the characters headings
// use, about 10 KB instead of 90. Beside it, fallback faces whose metrics are scaled to Archivo's
// (capsize's createFontStack: size-adjust and ascent/descent overrides on the system fonts), so the
// swap from the fallback to Archivo moves no line.
//
// `node scripts/display-font.mjs` writes app/assets/fonts/; a unit test makes both files again and
// fails when the committed ones differ (a new version of a package, or a character added here).
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { createFontStack } from '@capsizecss/core'
import arial from '@capsizecss/metrics/arial'
import helveticaNeue from '@capsizecss/metrics/helveticaNeue'
import roboto from '@capsizecss/metrics/roboto'
import { fromBuffer } from '@capsizecss/unpack'
import subsetFont from 'subset-font'

export const FONT_FILE = 'archivo-display.woff2'
export const CSS_FILE = 'display-font.css'
const OUT_DIR = fileURLToPath(new URL('../app/assets/fonts/', import.meta.url))
const FAMILY = 'Archivo Display'
const INSTANCE = { wght: 800, wdth: 112 }

/**
 * What headings are written in: printable ASCII, Latin-1's letters and signs (names such as
 * "Aarón", "×"), typographic quotes and dashes, the rupee sign and arrows. Anything else (Kannada,
 * Devanagari) is left to the system's fonts by the face's unicode-range.
 */
const RANGES = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x2013, 0x2014],
  [0x2018, 0x2019],
  [0x201c, 0x201d],
  [0x2022, 0x2022],
  [0x2026, 0x2026],
  [0x20b9, 0x20b9],
  [0x2190, 0x2193],
]

const hex = (code) => code.toString(16).toUpperCase().padStart(4, '0')
const unicodeRange = RANGES.map(([from, to]) => (from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`)).join(', ')
const characters = RANGES.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, index) => String.fromCodePoint(from + index))).join('')

/** The subset font and its stylesheet, made from the installed packages. */
export async function displayFont() {
  const require = createRequire(import.meta.url)
  const source = readFileSync(require.resolve('@fontsource-variable/archivo/files/archivo-latin-wdth-normal.woff2'))
  const woff2 = await subsetFont(source, characters, { targetFormat: 'woff2', variationAxes: INSTANCE })
  const metrics = await fromBuffer(woff2)
  const { fontFamily, fontFaces } = createFontStack([{ ...metrics, familyName: FAMILY }, roboto, helveticaNeue, arial])
  const css = `/* Made by scripts/display-font.mjs: do not edit. Archivo (SIL Open Font License 1.1), wght ${INSTANCE.wght}, wdth ${INSTANCE.wdth}. */
@font-face {
  font-family: '${FAMILY}';
  src: url('./${FONT_FILE}') format('woff2');
  font-weight: ${INSTANCE.wght};
  font-style: normal;
  font-display: swap;
  unicode-range: ${unicodeRange};
}
${fontFaces.trim()}
:root {
  --font-display-stack: ${fontFamily}, ui-sans-serif, system-ui, sans-serif;
}
`
  return { woff2: Buffer.from(woff2), css }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { woff2, css } = await displayFont()
  writeFileSync(`${OUT_DIR}${FONT_FILE}`, woff2)
  writeFileSync(`${OUT_DIR}${CSS_FILE}`, css)
  console.log(`${FONT_FILE}: ${woff2.length} bytes; ${CSS_FILE} written`)
}

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { inflateSync } from 'node:zlib'

type ReceiptFonts = { regular: Buffer; bold: Buffer }

const requireFromHere = createRequire(import.meta.url)
let loaded: ReceiptFonts | undefined

/**
 * DejaVu Sans, regular and bold, from its npm package: the PDF standard fonts have no rupee sign.
 * Node's module resolution from this module's URL finds the package in node_modules both from the
 * source (tests) and from the server build, where this code is bundled into build/server/index.js
 * and packages stay external. Loaded on first use, so a missing font fails a receipt, not start-up.
 */
export function receiptFonts(): ReceiptFonts {
  loaded ??= {
    regular: woffToSfnt(readFileSync(requireFromHere.resolve('@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff'))),
    bold: woffToSfnt(readFileSync(requireFromHere.resolve('@fontsource/dejavu-sans/files/dejavu-sans-latin-700-normal.woff'))),
  }
  return loaded
}

/**
 * Unpacks a WOFF 1.0 font into the TrueType/OpenType file it wraps. pdfkit's font reader accepts
 * WOFF, but it inflates a table again on every read, in JavaScript, which made one receipt take
 * seconds; the package's WOFF2 files it cannot subset, so each receipt would carry the whole font.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('Not a WOFF 1.0 font')
  const count = woff.readUInt16BE(12)
  const tables = Array.from({ length: count }, (_, index) => {
    const entry = 44 + index * 20
    const [offset, storedLength, length] = [woff.readUInt32BE(entry + 4), woff.readUInt32BE(entry + 8), woff.readUInt32BE(entry + 12)]
    const stored = woff.subarray(offset, offset + storedLength)
    const data = storedLength < length ? inflateSync(stored) : stored
    if (data.length !== length) throw new Error(`WOFF table ${woff.toString('latin1', entry, entry + 4)} unpacked to the wrong length`)
    return { tag: woff.subarray(entry, entry + 4), checksum: woff.readUInt32BE(entry + 16), data }
  })

  // The sfnt header: version, table count and the binary-search hints the format requires.
  const header = Buffer.alloc(12 + 16 * count)
  woff.copy(header, 0, 4, 8)
  const entrySelector = Math.floor(Math.log2(count))
  const searchRange = 2 ** entrySelector * 16
  header.writeUInt16BE(count, 4)
  header.writeUInt16BE(searchRange, 6)
  header.writeUInt16BE(entrySelector, 8)
  header.writeUInt16BE(count * 16 - searchRange, 10)

  // Table records keep WOFF's order (sorted by tag, as sfnt requires); each table starts 4-aligned.
  const parts: Buffer[] = [header]
  let offset = header.length
  tables.forEach((table, index) => {
    const record = 12 + index * 16
    table.tag.copy(header, record)
    header.writeUInt32BE(table.checksum, record + 4)
    header.writeUInt32BE(offset, record + 8)
    header.writeUInt32BE(table.data.length, record + 12)
    const padding = (4 - (table.data.length % 4)) % 4
    parts.push(table.data, Buffer.alloc(padding))
    offset += table.data.length + padding
  })
  return Buffer.concat(parts)
}

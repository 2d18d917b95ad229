import { describe, expect, it } from 'vitest'
import { receiptFonts, woffToSfnt } from './receipt-fonts.server'

/** The OpenType checksum of a table: its big-endian 32-bit words summed, zero-padded, modulo 2³². */
function tableChecksum(data: Buffer) {
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)])
  let sum = 0
  for (let offset = 0; offset < padded.length; offset += 4) sum = (sum + padded.readUInt32BE(offset)) >>> 0
  return sum
}

function tableRecords(font: Buffer) {
  return Array.from({ length: font.readUInt16BE(4) }, (_, index) => {
    const record = 12 + index * 16
    const [offset, length] = [font.readUInt32BE(record + 8), font.readUInt32BE(record + 12)]
    return { tag: font.toString('latin1', record, record + 4), checksum: font.readUInt32BE(record + 4), offset, data: font.subarray(offset, offset + length) }
  })
}

describe('the receipt fonts', () => {
  it('unpack to TrueType files whose every table matches the checksum the font was built with', () => {
    const { regular, bold } = receiptFonts()
    for (const font of [regular, bold]) {
      expect(font.readUInt32BE(0)).toBe(0x0001_0000)
      const tables = tableRecords(font)
      expect(tables.map((table) => table.tag)).toEqual(expect.arrayContaining(['cmap', 'glyf', 'head', 'hmtx', 'loca', 'name', 'post']))
      expect(tables.map((table) => table.tag)).toEqual(tables.map((table) => table.tag).sort())
      for (const table of tables) {
        expect(table.offset % 4, table.tag).toBe(0)
        // head's checksum is taken with its whole-font checkSumAdjustment field read as zero.
        const data = table.tag === 'head' ? Buffer.concat([table.data.subarray(0, 8), Buffer.alloc(4), table.data.subarray(12)]) : table.data
        expect(tableChecksum(data), table.tag).toBe(table.checksum)
      }
    }
    expect(regular.equals(bold)).toBe(false)
  })

  it('refuses a file that is not a WOFF font', () => {
    expect(() => woffToSfnt(Buffer.from('%PDF-1.3 not a font'))).toThrow('Not a WOFF 1.0 font')
  })
})

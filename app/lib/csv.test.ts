import { describe, expect, it } from 'vitest'
import { parseCsv, toCsv } from './csv'

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks, and leaves plain cells alone', () => {
    expect(toCsv(['Name', 'Note'], [['Rao, Asha', 'said "hi"\nthen left'], ['Ravi', 42]])).toBe('Name,Note\r\n"Rao, Asha","said ""hi""\nthen left"\r\nRavi,42\r\n')
  })

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(toCsv(['x'], [['=HYPERLINK("http://evil")'], ['+1'], ['-2'], ['@SUM(A1)'], [-3]])).toBe('x\r\n"\'=HYPERLINK(""http://evil"")"\r\n\'+1\r\n\'-2\r\n\'@SUM(A1)\r\n-3\r\n')
  })
})

describe('CSV import', () => {
  it('reads quoted cells with commas, quotes and line breaks, CRLF or LF, and drops a byte order mark', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\n"two\nlines",\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', ''],
    ])
    expect(parseCsv('a,b')).toEqual([['a', 'b']])
    expect(parseCsv('a\n\nb\n')).toEqual([['a'], [''], ['b']])
    expect(parseCsv('')).toEqual([])
  })

  it('reads back what it exports', () => {
    const csv = toCsv(['name', 'note'], [['Asha, Rao', 'line one\nline "two"']])
    expect(parseCsv(csv)).toEqual([
      ['name', 'note'],
      ['Asha, Rao', 'line one\nline "two"'],
    ])
  })

  it('refuses a quoted cell that is never closed', () => {
    expect(parseCsv('a,"b\nc')).toBeNull()
  })
})

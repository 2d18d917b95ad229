import { describe, expect, it } from 'vitest'
import { toCsv } from './csv'

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks, and leaves plain cells alone', () => {
    expect(toCsv(['Name', 'Note'], [['Rao, Asha', 'said "hi"\nthen left'], ['Ravi', 42]])).toBe('Name,Note\r\n"Rao, Asha","said ""hi""\nthen left"\r\nRavi,42\r\n')
  })

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(toCsv(['x'], [['=HYPERLINK("http://evil")'], ['+1'], ['-2'], ['@SUM(A1)'], [-3]])).toBe('x\r\n"\'=HYPERLINK(""http://evil"")"\r\n\'+1\r\n\'-2\r\n\'@SUM(A1)\r\n-3\r\n')
  })
})

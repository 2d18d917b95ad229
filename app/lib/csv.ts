type Cell = string | number | null | undefined

/**
 * RFC 4180 CSV. A cell that a spreadsheet would read as a formula (=, +, -, @, tab, carriage return
 * first) is prefixed with an apostrophe, so exported customer data cannot run in the staff's Excel.
 */
export function toCsv(header: string[], rows: Cell[][]): string {
  const cell = (value: Cell) => {
    if (value === null || value === undefined) return ''
    let text = String(value)
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
  }
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n'
}

/** A CSV download; the byte order mark lets Excel read the ₹ sign and names as UTF-8. */
export function csvResponse(filename: string, csv: string) {
  return new Response(`\uFEFF${csv}`, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"`, 'Cache-Control': 'private, no-store' },
  })
}

/**
 * The rows of an RFC 4180 CSV text, each a list of cells: quoted cells may hold commas, quotes
 * ("") and line breaks; lines end in CRLF or LF; a byte order mark at the start is dropped. Null
 * when a quoted cell is never closed. Rows that are wholly empty are kept (as one empty cell), so
 * the caller's row numbers match the file's lines.
 */
export function parseCsv(text: string): string[][] | null {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  let index = 0
  while (index < input.length) {
    const char = input[index]!
    if (quoted) {
      if (char === '"') {
        if (input[index + 1] === '"') {
          cell += '"'
          index += 2
          continue
        }
        quoted = false
      } else cell += char
      index += 1
      continue
    }
    if (char === '"' && cell === '') quoted = true
    else if (char === ',') {
      row.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      if (char === '\r' && input[index + 1] === '\n') index += 1
    } else cell += char
    index += 1
  }
  if (quoted) return null
  if (cell !== '' || row.length) {
    row.push(cell)
    rows.push(row)
  }
  return rows
}

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

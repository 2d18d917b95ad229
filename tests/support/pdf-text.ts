import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import type { TextItem } from 'pdfjs-dist/types/src/display/api'

export type PdfText = {
  /** Each page's text as lines read top to bottom, the pieces on one line joined by single spaces. */
  pages: string[][]
  /** Every page's lines, in order. */
  lines: string[]
  /** Text placed outside its page, where no reader would see it. */
  offPage: string[]
  /** The document's metadata, as a reader's title bar and file properties show it. */
  info: Record<string, unknown>
}

/**
 * The text a PDF reader finds in a document, through PDF.js: what a customer gets when they copy
 * the text or a screen reader reads it, so a glyph drawn without a Unicode mapping fails here.
 */
export async function pdfText(pdf: Uint8Array): Promise<PdfText> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise
  try {
    const pages: string[][] = []
    const offPage: string[] = []
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number)
      const [left, bottom, right, top] = page.view as [number, number, number, number]
      const items = (await page.getTextContent()).items.filter((item): item is TextItem => 'str' in item && item.str.trim() !== '')
      const rows = new Map<number, TextItem[]>()
      for (const item of items) {
        const [x, y] = [item.transform[4] as number, item.transform[5] as number]
        if (x < left || x + item.width > right || y < bottom || y + item.height > top) offPage.push(item.str)
        const baseline = Math.round(y)
        rows.set(baseline, [...(rows.get(baseline) ?? []), item])
      }
      pages.push(
        [...rows.entries()]
          .sort(([a], [b]) => b - a)
          .map(([, row]) =>
            row
              .sort((a, b) => (a.transform[4] as number) - (b.transform[4] as number))
              .map((item) => item.str.trim())
              .join(' '),
          ),
      )
    }
    const { info } = await document.getMetadata()
    return { pages, lines: pages.flat(), offPage, info: info as Record<string, unknown> }
  } finally {
    await document.destroy()
  }
}

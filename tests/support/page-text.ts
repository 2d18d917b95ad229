import { expect } from 'vitest'

/** The visible text of some HTML, without tags, scripts, React's text separators or entity escapes. */
export function textOf(html: string): string {
  return html
    .replace(/<!-- -->/g, '')
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:)])/g, '$1')
    .trim()
}

/** The markup from `start` to the first `end` after it, failing when the page has neither. */
export function between(html: string, start: string, end: string): string {
  const from = html.indexOf(start)
  expect(from, `${start} in the page`).toBeGreaterThanOrEqual(0)
  const to = html.indexOf(end, from)
  expect(to, `${end} after ${start}`).toBeGreaterThan(from)
  return html.slice(from, to + end.length)
}

/** The markup of the section labelled by the element with this id. */
export function section(html: string, headingId: string): string {
  return between(html, `aria-labelledby="${headingId}"`, '</section>')
}

import type { Visitor } from './visitor'

/** Where the camp forms send a parent once seats are held: the summary of what they will pay. */
export const CAMP_SUMMARY = /^\/onboarding\/offer\?registration=CMP-\d+&key=[\w-]+$/

/** The total a held camp seat's summary quotes, in paise, as its Pay button's form carries it. */
export function quotedTotal(html: string) {
  return /name="quotedTotal" value="(\d+)"/.exec(html)?.[1] ?? ''
}

/** Presses the Pay button of a held camp seat's summary, as a browser without JavaScript does: the gateway's address, or the page's answer. */
export async function paySummary(visitor: Visitor, summary: string) {
  const page = await visitor.get(summary)
  return visitor.post(summary, { quotedTotal: quotedTotal(page.html), website_url: '' })
}

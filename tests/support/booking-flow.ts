import { expect } from 'vitest'
import { addDays, isoWeekday, labToday } from '~/lib/lab-time'
import { decodeHtml, text, type Visitor } from './visitor'

/** A date at least `daysAhead` days ahead in Bangalore, not a Sunday (the seeded hours are 9 to 6 every other day). */
export function bookableDate(daysAhead: number) {
  for (let offset = daysAhead; ; offset += 1) {
    const date = addDays(labToday(), offset)
    if (isoWeekday(date) !== 7) return date
  }
}

/**
 * Picks the `skip`-th open date (this month and next, at least `daysAhead` days from today in
 * Bangalore) and its first available time on /book-slot, as a person clicking through would:
 * `href` is the date's page, whose form holds the time tapped.
 */
export async function chooseSlot(visitor: Visitor, skip = 0, { daysAhead = 0 }: { daysAhead?: number } = {}) {
  const page = await visitor.get('/book-slot')
  expect(page.status).toBe(200)
  const nextMonth = /href="([^"]+)"[^>]*aria-label="Next month"|aria-label="Next month"[^>]*href="([^"]+)"/.exec(decodeHtml(page.html))
  const following = nextMonth ? await visitor.get(nextMonth[1] ?? nextMonth[2]!) : null
  const earliest = addDays(labToday(), daysAhead)
  const dateLinks = [page, following]
    .flatMap((month) => (month ? [...decodeHtml(month.html).matchAll(/href="(\/book-slot\?month=[\d-]+&date=([\d-]+))"/g)] : []))
    .filter((link) => link[2]! >= earliest)
  expect(dateLinks.length).toBeGreaterThan(skip)
  const [, dateHref, date] = dateLinks[skip]!
  const day = await visitor.get(dateHref!)
  const timeButton = /<button(?=[^>]*name="time")[^>]*value="(\d\d:\d\d)"/.exec(day.html)
  expect(timeButton).not.toBeNull()
  return { date: date!, time: timeButton![1]!, href: dateHref! }
}

/** Books a 3-day session on /book-slot and pays on the sandbox's page with the given outcome, without JavaScript. */
export async function bookAndPay(visitor: Visitor, serverUrl: string, outcome: 'success' | 'failure' | 'pending', skip = 0, options: { daysAhead?: number } = {}) {
  const slot = await chooseSlot(visitor, skip, options)
  const times = text((await visitor.get(slot.href)).html)
  expect(times).toMatch(/3-Day Biomechanical Analysis ?: ?₹[\d,]+\.\d\d/)
  // Each time names the three days its session takes.
  expect(times).toMatch(/\d+:\d\d [AP]M - \d+:\d\d [AP]M ?\w{3} \d{1,2} \w+, \w{3} \d{1,2} \w+, \w{3} \d{1,2} \w+/)
  const held = await visitor.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
  expect(held.status).toBe(302)
  expect(held.location).toMatch(/^\/slot-payment\?booking=\d+$/)
  const paymentPage = await visitor.get(held.location!)
  const pay = await visitor.post(held.location!, { website_url: '' })
  expect(pay.status).toBe(302)
  expect(pay.headers.get('X-Remix-Reload-Document')).toBe('true')
  const checkoutUrl = pay.location!
  expect(checkoutUrl).toMatch(new RegExp(`^${serverUrl}/sandbox-gateway/checkout/SBX`))
  const checkout = await visitor.get(checkoutUrl)
  expect(text(checkout.html)).toContain('TEST MODE')
  const back = await visitor.post(checkoutUrl, { outcome })
  expect(back.status).toBe(303)
  return { slot, bookingPath: held.location!, paymentPage, statusUrl: back.location!, orderId: new URL(back.location!).searchParams.get('orderId')! }
}

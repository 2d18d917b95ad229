import { describe, expect, it } from 'vitest'
import { bookAgainUrl } from '~/modules/booking/fulfilment.server'
import { campFormFilledIn } from '~/modules/whatsapp/links.server'
import { bookableDate } from '../support/booking-flow'
import { useTestSite } from '../support/site'
import { decodeHtml, text, Visitor } from '../support/visitor'

// The "payment failed" WhatsApp message links to where the person can book and pay again: these
// are the links it sends, opened as the person would open them from their phone.

const site = useTestSite()

/** The link without the site's address: the test process's SITE_URL is not the test server's. */
const pathOf = (url: string) => {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

describe('the link to try again after a failed payment', () => {
  it("of a guest's single session opens the booking form with the service chosen", async () => {
    const link = pathOf(bookAgainUrl({ productCode: 'single_race', days: [], swimmerId: null }))
    expect(link).toBe('/booking?service=race')
    const page = await new Visitor(site.url).get(link)
    expect(page.status).toBe(200)
    expect(decodeHtml(page.html)).toMatch(/<input[^>]*value="race"[^>]*checked|<input[^>]*checked[^>]*value="race"|<option[^>]*value="race"[^>]*selected/)
  })

  it("of a 3-day session opens its first day on the booking page, for the same swimmer, after signing in if need be", async () => {
    const customer = await site.customer('Retry Person')
    const swimmerId = Number(/\/swimmers\/(\d+)\/edit/.exec(decodeHtml((await customer.get('/swimmers')).html))![1])
    const date = bookableDate(5)
    const link = pathOf(bookAgainUrl({ productCode: 'biomechanical_package', days: [{ dayNumber: 1, date, start: '09:00', end: '10:00', analysisDayId: null }], swimmerId }))
    expect(link).toBe(`/book-slot?date=${date}&swimmer=${swimmerId}`)
    const stranger = await new Visitor(site.url).get(link)
    expect(stranger.status).toBe(302)
    expect(decodeURIComponent(stranger.location!)).toContain(`redirectTo=${link}`)
    const page = await customer.get(link)
    expect(page.status).toBe(200)
    // That day's times, each a button that holds it, for the swimmer of the failed booking.
    expect(page.html).toMatch(new RegExp(`<input type="hidden" name="date" value="${date}"/>[^]*<button[^>]*name="time"`))
    expect(text(page.html)).toContain('Booking for Retry Person.')
  })

  it('of a camp registration opens the registration form with the e-mail and phone filled in', async () => {
    // Registrations keep their number in E.164; the form shows it as people read it.
    const link = pathOf(campFormFilledIn({ email: 'parent@example.com', phone: '+919845012345' }))
    const page = await new Visitor(site.url).get(link)
    expect(page.status).toBe(200)
    const html = decodeHtml(page.html)
    expect(html).toMatch(/name="email"[^>]*value="parent@example.com"|value="parent@example.com"[^>]*name="email"/)
    expect(html).toMatch(/name="phone_number"[^>]*value="\+91 98450 12345"|value="\+91 98450 12345"[^>]*name="phone_number"/)
    expect(text(page.html)).toContain('Camp Registration')
  })
})

import { describe, expect, it } from 'vitest'
import { lettersFor, text, Visitor } from '../support/visitor'
import { CAMP_SUMMARY, paySummary } from '../support/camp-summary'
import { bookableDate } from '../support/booking-flow'
import { useTestSite } from '../support/site'
import { withinOneWindow } from '../support/rate-limit-window'
import { HOLD_ATTEMPT_LIMITS } from '~/modules/holders/holders.server'

// One client with as many e-mail addresses as it likes tries to hold what it will never pay for:
// every seat of a day on /booking, and a camp's batches. It holds at most three seats, and real
// customers still buy. Seeded: two seats an hour from 9 AM to 6 PM, 30 seats per camp batch.

const site = useTestSite()

const TIMES = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00']
const MAX_HOLDS_PER_NETWORK = 3

/** A browser of the attacker's: no cookies kept from the last one, the same network every time. */
function attackerBrowser(network: string) {
  const browser = new Visitor(site.url)
  Object.defineProperty(browser, 'ip', { value: network })
  return browser
}

const bookingDetails = (email: string, date: string, time: string) => ({ name: 'Someone Else', email, phone: '', service: 'race', date, time, notes: '', intent: 'details', website_url: '' })

/** /booking's two steps; the answer to Complete Booking. */
async function holdOnBooking(browser: Visitor, email: string, date: string, time: string) {
  const details = await browser.post('/booking', bookingDetails(email, date, time))
  if (details.status !== 302) return details
  return browser.post('/booking?step=2', { intent: 'pay', website_url: '' })
}

const wentToGateway = (response: { status: number; location: string | null }) => response.status === 302 && Boolean(response.location?.includes('/sandbox-gateway/checkout/'))
/** A camp form's answer once a seat is held: the seat's summary, before the gateway. */
const heldSeat = (response: { status: number; location: string | null }) => response.status === 302 && CAMP_SUMMARY.test(response.location ?? '')

async function freeTimes(date: string) {
  const response = await fetch(`${site.url}/booking/times?date=${date}`)
  const { times } = (await response.json()) as { times: Array<{ time: string; state: string }> }
  return times.filter((slot) => slot.state === 'available').map((slot) => slot.time)
}

describe('one client with many e-mail addresses', () => {
  it('cannot hold a day’s seats on /booking; a real customer still books and pays', async () => {
    const date = bookableDate(5)
    const network = '198.51.100.66'
    const answers = []
    for (let attempt = 0; attempt < 2 * TIMES.length; attempt += 1) {
      answers.push(await holdOnBooking(attackerBrowser(network), `hoarder${attempt}@example.com`, date, TIMES[attempt % TIMES.length]!))
    }
    expect(answers.filter(wentToGateway)).toHaveLength(MAX_HOLDS_PER_NETWORK)
    const refused = answers.filter((answer) => !wentToGateway(answer))
    expect(refused.every((answer) => answer.status === 409)).toBe(true)
    expect(text(refused[0]!.html)).toContain('Too many bookings from your network are waiting for payment')
    // Every time of the day is still free for others (two seats an hour, at most one held).
    expect(await freeTimes(date)).toEqual(TIMES)

    const customer = new Visitor(site.url)
    const paying = await holdOnBooking(customer, 'kavya@example.com', date, '09:00')
    expect(wentToGateway(paying)).toBe(true)
    const back = await customer.post(paying.location!, { outcome: 'success' })
    expect(text((await customer.get(back.location!.replace(site.url, ''))).html)).toContain('Booking Confirmed!')
  })

  it('replaying one /booking draft holds one seat: a new hold in the browser replaces the last, and elsewhere the address is refused', async () => {
    const date = bookableDate(6)
    const browser = attackerBrowser('198.51.100.67')
    await browser.post('/booking', bookingDetails('replay@example.com', date, '10:00'))
    for (let attempt = 0; attempt < 5; attempt += 1) expect(wentToGateway(await browser.post('/booking?step=2', { intent: 'pay', website_url: '' }))).toBe(true)
    // Ten seats would be five times over; the one left is the last one held.
    expect(await freeTimes(date)).toContain('10:00')

    // The same draft without the browser's holder cookie, from other networks: the address is taken.
    const draft = browser.cookies.get('booking_draft')!
    for (const network of ['198.51.100.68', '198.51.100.69']) {
      const elsewhere = attackerBrowser(network)
      elsewhere.cookies.set('booking_draft', draft)
      const answer = await elsewhere.post('/booking?step=2', { intent: 'pay', website_url: '' })
      expect(answer.status).toBe(409)
      expect(text(answer.html)).toContain('A booking for this e-mail address is already waiting for payment')
    }
    expect(await freeTimes(date)).toContain('10:00')
  })

  it('a /booking draft altered in the browser is not accepted', async () => {
    const browser = new Visitor(site.url)
    await browser.post('/booking', bookingDetails('tamper@example.com', bookableDate(6), '11:00'))
    const [payload, ...signature] = decodeURIComponent(browser.cookies.get('booking_draft')!).split('.')
    const altered = { ...JSON.parse(Buffer.from(payload!, 'base64').toString('utf8')), email: 'someone.else@example.com' }
    browser.cookies.set('booking_draft', encodeURIComponent([Buffer.from(JSON.stringify(altered)).toString('base64'), ...signature].join('.')))
    const answer = await browser.get('/booking?step=2')
    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/booking')
  })

  it('cannot hold a camp’s batches; a real parent still registers and pays', async () => {
    const network = '198.51.100.70'
    const answers = []
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const batch = attempt % 2 === 0 ? 'batch1' : 'batch2'
      const camp = attempt % 4 < 2 ? 'camp1' : 'camp2'
      answers.push(await attackerBrowser(network).post('/onboarding', { name: `Fake Swimmer ${lettersFor(attempt + 1)}`, email: `fake${attempt}@example.com`, phone_number: '98450 12345', guardianDeclaration: 'on', camp, batch, website_url: '' }))
    }
    expect(answers.filter(heldSeat)).toHaveLength(MAX_HOLDS_PER_NETWORK)
    const refused = answers.filter((answer) => !heldSeat(answer))
    expect(refused.every((answer) => answer.status === 409)).toBe(true)
    expect(text(refused[0]!.html)).toContain('Too many bookings from your network are waiting for payment')

    const parent = new Visitor(site.url)
    const submitted = await parent.post('/onboarding', { name: 'Arjun Menon', email: 'menon@example.com', phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '' })
    const pay = await paySummary(parent, submitted.location!)
    expect(wentToGateway(pay)).toBe(true)
    const back = await parent.post(pay.location!, { outcome: 'success' })
    expect(text((await parent.get(back.location!.replace(site.url, ''))).html)).toContain('Registration Complete!')
  })

  it('cannot release a parent’s unpaid camp hold by typing the parent’s address and the child’s name', async () => {
    const parent = new Visitor(site.url)
    const values = { name: 'Meera Iyer', email: 'iyer.family@example.com', phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp2', batch: 'batch1', website_url: '' }
    const paying = await paySummary(parent, (await parent.post('/onboarding', values)).location!)
    expect(wentToGateway(paying)).toBe(true)

    const answer = await attackerBrowser('198.51.100.71').post('/onboarding', values)
    expect(answer.status).toBe(409)
    expect(text(answer.html)).toContain('A booking for this e-mail address is already waiting for payment')
    // The parent's payment still confirms their seat.
    const back = await parent.post(paying.location!, { outcome: 'success' })
    expect(text((await parent.get(back.location!.replace(site.url, ''))).html)).toContain('Registration Complete!')
  })

  it('is refused past the attempts allowed per e-mail address, each of which may create a gateway order', async () => {
    const date = bookableDate(7)
    const statuses = []
    await withinOneWindow(HOLD_ATTEMPT_LIMITS.perEmail.windowSeconds)
    for (let attempt = 0; attempt < 12; attempt += 1) {
      // A fresh network and browser each time, the same address: every attempt counts against it.
      const answer = await holdOnBooking(attackerBrowser(`198.51.101.${attempt + 1}`), 'one.address@example.com', date, TIMES[attempt % TIMES.length]!)
      statuses.push(answer.status)
    }
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.filter((status) => status === 302)).toHaveLength(1)
  })
})

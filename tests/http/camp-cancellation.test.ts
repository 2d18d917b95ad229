import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Db } from '~/db/client.server'
import { campBatches, campRegistrations, camps, campWaitlist, users } from '~/db/schema'
import { addDays, labToday } from '~/lib/lab-time'
import { addFamily, FAMILY } from '../support/family-site'
import { CAMP_SUMMARY, paySummary } from '../support/camp-summary'
import { pdfText } from '../support/pdf-text'
import { useTestSite } from '../support/site'
import { attachedFile } from '../support/smtp-sink'
import { decodeHtml, text, Visitor } from '../support/visitor'

// A family cancels a camp place from My Bookings, as a browser without JavaScript does it: only
// their own, only before the refund policy's deadline, each place refunded its own fee through the
// gateway with a credit note, and the seat goes back to the batch and its waitlist.

/** A place of the family's that starts today (too late to cancel), and one in a full batch with a parent waiting for it. */
const SOON = 'CMP-1000000001'
const FULL = 'CMP-1000000002'
const WAITING = { swimmerName: 'Waiting Child', email: 'waiting.parent@example.com', phone: '+919845011111' }

async function prepare(db: Db) {
  await addFamily(db)
  const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, FAMILY.email))
  const place = (campId: number, batchId: number, reference: string) => ({
    reference,
    campId,
    batchId,
    swimmerName: FAMILY.swimmers[1],
    email: FAMILY.email,
    phone: '+919845054321',
    accountId: account!.id,
    amountPaise: 35_000_00,
    status: 'confirmed' as const,
    confirmedAt: new Date(),
  })
  const camp = async (code: string, startsOn: string, capacity: number, time: string) => {
    const [row] = await db
      .insert(camps)
      .values({ code, name: `Camp ${code}`, startsOn, endsOn: addDays(startsOn, 4), venue: 'The lab pool', earlyBirdPricePaise: 35_000_00, regularPricePaise: 40_000_00, earlyBirdEndsAt: new Date(), sortOrder: 9 })
      .returning({ id: camps.id })
    const [batch] = await db
      .insert(campBatches)
      .values({ campId: row!.id, code: 'evening', name: 'Evening batch', timeRanges: [{ start: time, end: '23:59' }], capacity })
      .returning({ id: campBatches.id })
    return { campId: row!.id, batchId: batch!.id }
  }
  // Its first session is tonight: the 24 hours before it have begun.
  const soon = await camp('soon', labToday(), 30, '23:30')
  await db.insert(campRegistrations).values(place(soon.campId, soon.batchId, SOON))
  const full = await camp('full', addDays(labToday(), 20), 1, '18:00')
  await db.insert(campRegistrations).values(place(full.campId, full.batchId, FULL))
  await db.insert(campWaitlist).values({ ...full, ...WAITING, confirmedAt: new Date() })
}

const site = useTestSite({}, { prepare })

async function signedInParent() {
  const parent = new Visitor(site.url)
  expect((await parent.post('/login', { email: FAMILY.email, password: FAMILY.password, website_url: '' })).status).toBe(302)
  return parent
}

/** Seats left in batch 1 of Camp 1, as the registration form says. */
async function seatsLeft() {
  const page = text((await new Visitor(site.url).get('/onboarding')).html)
  return Number(/Batch 1: [^·]*?Camp 1: (\d+) seats left/.exec(page)![1])
}

/** The camp places on My Bookings, each card's text and HTML by its registration id. */
async function campCards(visitor: Visitor) {
  const html = decodeHtml((await visitor.get('/my-bookings')).html)
  const cards = [...html.matchAll(/<article[^>]*data-testid="camp-registration"[^>]*>([\s\S]*?)<\/article>/g)].map((match) => match[1]!)
  return new Map(cards.map((card) => [/Registration ID (CMP-\d{10})/.exec(text(card))![1]!, { html: card, text: text(card) }]))
}

/** The number in the count badge beside the page's heading, with its words for screen readers. */
async function badge(visitor: Visitor) {
  const html = (await visitor.get('/my-bookings')).html
  return text(/<h1[^>]*>My Bookings<\/h1>\s*<span[^>]*>([\s\S]*?)<\/span>\s*<\/span>/.exec(html)![1]!).trim()
}

describe('cancelling a camp place from My Bookings', () => {
  it('refunds the one place its own fee through the gateway with a credit note, frees its seat, and leaves the other place paid with it', { timeout: 120_000 }, async () => {
    const parent = await signedInParent()
    const before = await seatsLeft()
    const boxes = [...(await parent.get('/onboarding')).html.matchAll(/name="swimmers"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="swimmers"/g)].map((match) => match[1] ?? match[2]!)
    const form = new URLSearchParams({ intent: 'register_swimmers', phone_number: FAMILY.phone, camp: 'camp1', batch: 'batch1', website_url: '' })
    for (const box of boxes) form.append('swimmers', box)
    const submitted = await parent.post('/onboarding', form)
    expect(submitted.location).toMatch(CAMP_SUMMARY)
    await parent.post((await paySummary(parent, submitted.location!)).location!, { outcome: 'success' })
    await site.sink.waitForMailTo(FAMILY.email, /Camp registration confirmed/)
    expect(await seatsLeft()).toBe(before - 2)

    // Both places, the two prepared ones, and no session: the badge counts all four.
    expect(await badge(parent)).toBe('4 bookings')
    const cards = await campCards(parent)
    const [kavya, meera] = ['Kavya Iyer', 'Meera Iyer'].map((name) => [...cards].find(([, card]) => card.text.includes(`Swimmer: ${name}`) && card.text.includes('Camp 1'))![0])
    const card = cards.get(kavya!)!
    expect(card.text).toMatch(/You can cancel until 9:00 AM IST on \d+ August \d{4}\./)
    const receipt = /href="(\/receipts\/CAMP_[^"]+)"[^>]*download[^>]*>Download Receipt/.exec(card.html)![1]!
    expect(cards.get(meera!)!.html).toContain(`href="${receipt}"`)
    const pdf = await parent.get(receipt)
    expect([pdf.status, pdf.headers.get('Content-Type')]).toEqual([200, 'application/pdf'])
    const cancelPath = `/camp-registrations/${kavya}/cancel`
    expect(card.html).toContain(`href="${cancelPath}"`)

    const page = await parent.get(cancelPath)
    expect(page.status).toBe(200)
    expect(text(page.html)).toMatch(new RegExp(`Cancel your camp registration Camp 1 ?, registration ID ${kavya}`))
    expect(text(page.html)).toContain('You will get your ₹35,000.00 back, within 7 business days, to the original payment method.')
    const cancelled = await parent.post(cancelPath, { website_url: '' })
    expect([cancelled.status, cancelled.location]).toEqual([302, '/my-bookings'])
    expect(text((await parent.get('/my-bookings')).html)).toContain('Your refund of ₹35,000.00 is on its way.')
    expect(await seatsLeft()).toBe(before - 1)

    const told = await site.sink.waitForMailTo(FAMILY.email, new RegExp(`^Subject: Camp registration cancelled: Kavya Iyer, Camp 1 \\(${kavya}\\)`, 'm'))
    expect(told.text).toContain('Your payment of ₹35,000.00 is being refunded within 7 business days')
    const refunded = await site.sink.waitForMailTo(FAMILY.email, new RegExp(`^Subject: Refund completed \\(${kavya}\\)`, 'm'), 30_000)
    const noteFile = /filename="?credit-note-[\w-]+\.pdf"?/
    expect((await pdfText(attachedFile(refunded, noteFile))).lines.join('\n')).toContain('Amount refunded ₹35,000.00')

    const after = await campCards(parent)
    expect(after.get(kavya!)!.text).toContain('Refunded')
    const note = /href="(\/credit-notes\/RFND_[^"]+)"/.exec(after.get(kavya!)!.html)![1]!
    expect(after.get(kavya!)!.text).toMatch(/Credit note \S+ \(₹35,000\.00 refunded,/)
    expect((await parent.get(note)).status).toBe(200)
    expect(after.get(meera!)!.text).toContain('Confirmed')
    expect(after.get(meera!)!.html).not.toContain('Credit note')
    // Cancelled, it cannot be cancelled again.
    expect(text((await parent.get(cancelPath)).html)).toContain('Only a confirmed camp registration can be cancelled.')
    expect((await parent.post(cancelPath, { website_url: '' })).status).toBe(409)
  })

  it("is the account's own: another account gets a 404 and nothing changes, and signed out it asks to sign in", async () => {
    const other = await site.customer('Other Family')
    const path = `/camp-registrations/${FULL}/cancel`
    expect((await other.get(path)).status).toBe(404)
    expect((await other.post(path, { website_url: '' })).status).toBe(404)
    expect((await other.get('/camp-registrations/CMP-0000000000/cancel')).status).toBe(404)
    expect((await new Visitor(site.url).get(path)).location).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`)
    expect((await campCards(await signedInParent())).get(FULL)!.text).toContain('Confirmed')
  })

  it('within 24 hours of the first session it is refused with the reason, on My Bookings, the page and its form', async () => {
    const parent = await signedInParent()
    const reason = 'Camp registrations can be cancelled up to 24 hours before the first session of the batch. Please contact us.'
    const card = (await campCards(parent)).get(SOON)!
    expect(card.text).toContain(reason)
    expect(card.html).not.toContain('/cancel"')
    const path = `/camp-registrations/${SOON}/cancel`
    const page = await parent.get(path)
    expect(text(page.html)).toContain(reason)
    expect(text(page.html)).not.toContain('Cancel this registration')
    const refused = await parent.post(path, { website_url: '' })
    expect(refused.status).toBe(409)
    expect(text(refused.html)).toContain(reason)
    expect((await campCards(parent)).get(SOON)!.text).toContain('Confirmed')
  })

  it('the seat of a full batch goes to the parent waiting for it', async () => {
    const parent = await signedInParent()
    const path = `/camp-registrations/${FULL}/cancel`
    expect(text((await parent.get(path)).html)).toContain('No payment was taken for this registration, so there is nothing to refund.')
    expect((await parent.post(path, { website_url: '' })).location).toBe('/my-bookings')
    await site.sink.waitForMailTo(WAITING.email, /^Subject: A seat is free: Camp full, Evening batch/m, 30_000)
  })
})

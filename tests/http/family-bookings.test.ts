import { describe, expect, it } from 'vitest'
import { users } from '~/db/schema'
import type { Db } from '~/db/client.server'
import { hashPassword } from '~/modules/accounts/passwords.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { swimmerInput } from '../support/accounts'
import { chooseSlot } from '../support/booking-flow'
import { pdfText } from '../support/pdf-text'
import { useTestSite } from '../support/site'
import { decodeHtml, text, Visitor } from '../support/visitor'

// A family's account: a parent who swims, two children, bookings for each of them, and what every
// page, e-mail, calendar file and receipt says about who swims. Through the real server, without
// JavaScript.

const PASSWORD = 'butterfly-2027'
const ids = { asha: 0, kavya: 0, rohan: 0, stranger: 0 }

async function account(db: Db, name: string, email: string) {
  const [user] = await db
    .insert(users)
    .values({ name, email, passwordHash: await hashPassword(PASSWORD), isVerified: true, phone: '+91 98450 12345', currentLocation: 'Jayanagar, Bengaluru' })
    .returning({ id: users.id })
  return user!.id
}

const site = useTestSite(
  {},
  {
    // Accounts with several swimmers, as the swimmers' page would leave them.
    async prepare(db) {
      const now = new Date()
      const family = await account(db, 'Asha Rao', 'asha.family@example.com')
      ids.asha = (await insertSwimmer(db, family, 'Asha Rao', swimmerInput({ name: 'Asha Rao', age: '38' }), { isAccountHolder: true, now })).id
      ids.kavya = (await insertSwimmer(db, family, 'Kavya Rao', swimmerInput({ name: 'Kavya Rao', age: '12' }), { isAccountHolder: false, now })).id
      await recordConsent(db, { swimmerId: ids.kavya, guardianName: 'Asha Rao', guardianEmail: 'asha.family@example.com', emailVerifiedBy: 'account_code', method: 'registration_form', now })
      // A minor whose parent has not agreed yet.
      ids.rohan = (await insertSwimmer(db, family, 'Rohan Rao', swimmerInput({ name: 'Rohan Rao', age: '10' }), { isAccountHolder: false, now })).id
      const other = await account(db, 'Vikram Shah', 'vikram@example.com')
      ids.stranger = (await insertSwimmer(db, other, 'Vikram Shah', swimmerInput({ name: 'Vikram Shah', age: '40' }), { isAccountHolder: true, now })).id
      // An account whose only swimmer is a minor waiting for a parent's consent.
      const waiting = await account(db, 'Nila Iyer', 'nila@example.com')
      await insertSwimmer(db, waiting, 'Nila Iyer', swimmerInput({ name: 'Nila Iyer', age: '15' }), { isAccountHolder: true, now })
    },
  },
)

async function signIn(email: string) {
  const visitor = new Visitor(site.url)
  expect((await visitor.post('/login', { email, password: PASSWORD, website_url: '' })).status).toBe(302)
  return visitor
}

/** The swimmers the confirmation offers (value → checked), from the page's radio buttons. */
function swimmerRadios(html: string) {
  return [...html.matchAll(/<input[^>]*name="swimmerId"[^>]*>/g)].map((match) => [Number(/value="(\d+)"/.exec(match[0])![1]), /\schecked(=""|\s|>|\/)/.test(match[0])] as const)
}

/** Holds the slot for a swimmer and pays for it on the sandbox's page; the payment page, the status page and the order. */
async function bookFor(visitor: Visitor, slot: { date: string; time: string; href: string }, swimmerId: number) {
  const held = await visitor.post(slot.href, { date: slot.date, time: slot.time, swimmerId: String(swimmerId), website_url: '' })
  expect(held.location).toMatch(/^\/slot-payment\?booking=\d+$/)
  const paymentPage = text((await visitor.get(held.location!)).html)
  const pay = await visitor.post(held.location!, { website_url: '' })
  const back = await visitor.post(pay.location!, { outcome: 'success' })
  const statusPage = text((await visitor.get(back.location!)).html)
  return { paymentPage, statusPage, orderId: new URL(back.location!).searchParams.get('orderId')! }
}

const icsOf = (raw: string) => Buffer.from(/Content-Type: text\/calendar[^]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n(?:\r\n|--)/.exec(raw)![1]!.replace(/\s/g, ''), 'base64').toString('utf8').replace(/\r\n[ \t]/g, '')

describe("a family's bookings", () => {
  it('asks who will swim, books two swimmers into one time slot, and names the swimmer on every page, e-mail, calendar event and receipt', async () => {
    const asha = await signIn('asha.family@example.com')
    const slot = await chooseSlot(asha, 0, { daysAhead: 3 })
    const confirm = await asha.get(`${slot.href}&confirm=1`)
    expect(text(confirm.html)).toContain('Who will swim?')
    expect(text(confirm.html)).toContain("Rohan Rao (waiting for a parent's consent)")
    // Nothing booked yet: the first swimmer, the account holder, is chosen.
    expect(swimmerRadios(confirm.html)).toEqual([
      [ids.asha, true],
      [ids.kavya, false],
      [ids.rohan, false],
    ])

    const kavya = await bookFor(asha, slot, ids.kavya)
    expect(kavya.paymentPage).toContain('Swimmer Kavya Rao')
    expect(kavya.paymentPage).toContain('Booked by Asha Rao')
    expect(kavya.statusPage).toContain('Payment Successful!')
    expect(kavya.statusPage).toContain('Swimmer Kavya Rao')

    const mail = await site.sink.waitForMailTo('asha.family@example.com', /Booking confirmed/)
    expect(mail.text).toMatch(/Hello Asha Rao,/)
    expect(mail.text).toMatch(/Swimmer: +Kavya Rao/)
    const ics = icsOf(mail.raw)
    expect(ics.match(/SUMMARY:.*Kavya Rao/g)).toHaveLength(3)
    expect(ics).toContain('DESCRIPTION:Swimmer: Kavya Rao.')
    const receipt = await asha.get(`/receipts/${encodeURIComponent(kavya.orderId)}`)
    expect(receipt.headers.get('Content-Type')).toBe('application/pdf')
    expect((await pdfText(receipt.bytes)).lines.join('\n')).toContain('Swimmer: Kavya Rao')

    // The same time is still free for the family's other swimmers, and Kavya is now chosen first.
    const again = await asha.get(`${slot.href}&confirm=1`)
    expect(decodeHtml((await asha.get(`/book-slot?date=${slot.date}`)).html)).toContain(`href="${slot.href}"`)
    expect(swimmerRadios(again.html)).toEqual([
      [ids.asha, false],
      [ids.kavya, true],
      [ids.rohan, false],
    ])
    // Kavya cannot have the same time twice…
    const twice = await asha.post(slot.href, { date: slot.date, time: slot.time, swimmerId: String(ids.kavya), website_url: '' })
    expect(text((await asha.get(twice.location!)).html)).toContain('You have already booked this time slot.')
    // …but her mother can swim at it too.
    const mother = await bookFor(asha, slot, ids.asha)
    expect(mother.statusPage).toContain('Payment Successful!')
    expect(mother.paymentPage).toContain('Swimmer Asha Rao')

    // My Bookings: both, each with its swimmer; narrowed to one swimmer with links that need no script.
    const mine = await asha.get('/my-bookings')
    const all = text(mine.html)
    expect(all).toContain('Swimmer: Kavya Rao')
    expect(all).toContain('Swimmer: Asha Rao')
    const references = [...all.matchAll(/Swimmer: (\w+) Rao Booking ID (SWP-\d{10})/g)].map((match) => [match[1], match[2]])
    expect(references.map(([name]) => name).sort()).toEqual(['Asha', 'Kavya'])
    expect(decodeHtml(mine.html)).toContain(`href="/my-bookings?swimmer=${ids.kavya}"`)
    expect(all).toMatch(/WhatsApp number \+91 98450 12345 Location Jayanagar, Bengaluru Swimmers Asha Rao, Kavya Rao, Rohan Rao/)
    expect(mine.html).toContain('href="/swimmers"')
    const kavyaOnly = text((await asha.get(`/my-bookings?swimmer=${ids.kavya}`)).html)
    expect(kavyaOnly).toContain('Swimmer: Kavya Rao')
    expect(kavyaOnly).not.toContain('Swimmer: Asha Rao')
    expect(text((await asha.get(`/my-bookings?swimmer=${ids.rohan}`)).html)).toContain('No bookings for Rohan Rao yet')
    // Another account's swimmer, or nonsense, shows this account's bookings and nothing of the other's.
    for (const asked of [String(ids.stranger), 'x']) {
      const page = await asha.get(`/my-bookings?swimmer=${asked}`)
      expect(page.status).toBe(200)
      expect(text(page.html)).toContain('Swimmer: Kavya Rao')
      expect(text(page.html)).toContain('Swimmer: Asha Rao')
      expect(text(page.html)).not.toContain('Vikram')
    }

    // Staff find the bookings by the swimmer's name and by the account holder's address.
    const staff = await site.sharedStaff()
    const byName = text((await staff.get('/admin/bookings?q=kavya')).html)
    expect(byName).toContain(references.find(([name]) => name === 'Kavya')![1])
    expect(byName).not.toContain(references.find(([name]) => name === 'Asha')![1])
    const byEmail = text((await staff.get(`/admin/bookings?q=${encodeURIComponent('asha.family@')}`)).html)
    for (const [, reference] of references) expect(byEmail).toContain(reference)
    const detail = await staff.get(`/admin/bookings/${references.find(([name]) => name === 'Kavya')![1]}`)
    expect(text(detail.html)).toMatch(/Swimmer Kavya Rao .*Account holder Asha Rao asha\.family@example\.com/)
    expect(detail.html).toMatch(/href="\/admin\/customers\/\d+"/)
    expect(text((await staff.get('/admin/customers?q=rohan')).html)).toContain('asha.family@example.com')
  })

  it("refuses another account's swimmer and a minor without a parent's consent, and holds nothing", async () => {
    const asha = await signIn('asha.family@example.com')
    const slot = await chooseSlot(asha, 2, { daysAhead: 3 })
    for (const [swimmerId, message] of [
      [String(ids.stranger), 'Please choose who will swim: one of the swimmers of your account.'],
      ['not-a-number', 'Please choose who will swim: one of the swimmers of your account.'],
      [String(ids.rohan), "A swimmer under 18 can be booked only with a parent's or guardian's consent."],
    ] as const) {
      const refused = await asha.post(slot.href, { date: slot.date, time: slot.time, swimmerId, website_url: '' })
      expect([swimmerId, refused.status, refused.location]).toEqual([swimmerId, 302, `/book-slot?date=${slot.date}`])
      const page = text((await asha.get(refused.location!)).html)
      expect(page).toContain(message)
      expect(page).not.toContain('Your seats are held')
    }
    // Several swimmers and none chosen: the family is asked, not booked for someone.
    const unnamed = await asha.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
    expect(text((await asha.get(unnamed.location!)).html)).toContain('Please choose who will swim')
    expect(text((await asha.get('/my-bookings')).html)).not.toContain('Awaiting payment')
  })

  it('tells an account whose only swimmer waits for a parent’s consent that it can book once they agree', async () => {
    const nila = await signIn('nila@example.com')
    const page = text((await nila.get('/book-slot')).html)
    expect(page).toContain('Nila Iyer is under 18: we have e-mailed your parent or guardian')
    expect(page).toContain('You can book once they agree.')
    const slot = await chooseSlot(nila, 1, { daysAhead: 3 })
    const confirm = await nila.get(`${slot.href}&confirm=1`)
    // One swimmer: no question, the form names them.
    expect(text(confirm.html)).not.toContain('Who will swim?')
    expect(text(confirm.html)).toContain('Swimmer: Nila Iyer')
    const refused = await nila.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
    expect(text((await nila.get(refused.location!)).html)).toContain("A swimmer under 18 can be booked only with a parent's or guardian's consent.")
  })
})

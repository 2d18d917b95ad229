import { describe, expect, it } from 'vitest'
import { consentRequests, users } from '~/db/schema'
import type { Db } from '~/db/client.server'
import { hashPassword } from '~/modules/accounts/passwords.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { swimmerInput } from '../support/accounts'
import { bookableDate } from '../support/booking-flow'
import { useTestSite } from '../support/site'
import { pdfText } from '../support/pdf-text'
import { attachedFile } from '../support/smtp-sink'
import { decodeHtml, fieldState, groupState, text, Visitor } from '../support/visitor'

// Who swims in a session booked on /booking: a signed-in family's chosen swimmer, checked as
// /book-slot checks it, or the swimmer a guest names, under 18 only with the booking person's
// declaration as parent or guardian. Through the real server, without JavaScript.

const PASSWORD = 'butterfly-2027'
const ids = { asha: 0, kavya: 0, rohan: 0, stranger: 0, nila: 0 }

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
    async prepare(db) {
      const now = new Date()
      const family = await account(db, 'Asha Rao', 'asha.family@example.com')
      ids.asha = (await insertSwimmer(db, family, 'Asha Rao', swimmerInput({ name: 'Asha Rao', age: '38' }), { isAccountHolder: true, now })).id
      ids.kavya = (await insertSwimmer(db, family, 'Kavya Rao', swimmerInput({ name: 'Kavya Rao', age: '12' }), { isAccountHolder: false, now })).id
      await recordConsent(db, { swimmerId: ids.kavya, guardianName: 'Asha Rao', guardianEmail: 'asha.family@example.com', emailVerifiedBy: 'account_code', method: 'registration_form', now })
      // A child whose parent has not agreed.
      ids.rohan = (await insertSwimmer(db, family, 'Rohan Rao', swimmerInput({ name: 'Rohan Rao', age: '10' }), { isAccountHolder: false, now })).id
      const other = await account(db, 'Vikram Shah', 'vikram@example.com')
      ids.stranger = (await insertSwimmer(db, other, 'Vikram Shah', swimmerInput({ name: 'Vikram Shah', age: '40' }), { isAccountHolder: true, now })).id
      // A swimmer of 15 who registered alone: the link e-mailed to her parent is not answered yet.
      const minor = await account(db, 'Nila Iyer', 'nila@example.com')
      ids.nila = (await insertSwimmer(db, minor, 'Nila Iyer', swimmerInput({ name: 'Nila Iyer', age: '15' }), { isAccountHolder: true, now })).id
      await db.insert(consentRequests).values({ swimmerId: ids.nila, parentEmail: 'nila.parent@example.com', tokenHash: 'a'.repeat(64), expiresAt: new Date(now.getTime() + 7 * 86_400_000) })
    },
  },
)

async function signIn(email: string) {
  const visitor = new Visitor(site.url)
  expect((await visitor.post('/login', { email, password: PASSWORD, website_url: '' })).status).toBe(302)
  return visitor
}

const details = (overrides: Record<string, string> = {}) => ({
  name: 'Asha Rao',
  email: 'asha.family@example.com',
  phone: '',
  service: 'race',
  date: bookableDate(3),
  time: '10:00',
  notes: '',
  intent: 'details',
  website_url: '',
  ...overrides,
})

/** The "Who will swim?" choices step 1 offers (value → checked). */
function whoSwimsRadios(html: string) {
  return [...html.matchAll(/<input[^>]*name="whoSwims"[^>]*>/g)].map((match) => [/value="([^"]+)"/.exec(match[0])![1], /\schecked(=""|\s|>|\/)/.test(match[0])] as const)
}

/** Step 2's Complete Booking and the sandbox gateway's success; the confirmation page's text. */
async function payAndConfirm(visitor: Visitor) {
  const pay = await visitor.post('/booking?step=2', { intent: 'pay', website_url: '' })
  expect(pay.location).toMatch(/\/sandbox-gateway\/checkout\//)
  const back = await visitor.post(pay.location!, { outcome: 'success' })
  return text((await visitor.get(back.location!)).html)
}

const SWIMMER_OF_ACCOUNT = 'Please choose who will swim: one of the swimmers of your account.'
const CONSENT_NEEDED = "A swimmer under 18 can be booked only with a parent's or guardian's consent. Please ask your parent to agree through the link we e-mailed them."
const DECLARATION_NEEDED = "Please confirm that you are the swimmer's parent or guardian and agree to the Privacy Policy"

describe('a swimmer under 18 waiting for a parent’s consent', () => {
  it('cannot book on /booking: not for themselves, and not for anyone as their parent or guardian', async () => {
    const nila = await signIn('nila@example.com')
    const base = details({ name: 'Nila Iyer', email: 'nila@example.com', date: bookableDate(5), time: '11:00' })
    for (const [label, values] of [
      ['the form naming no swimmer', base],
      ['her own swimmer chosen', { ...base, whoSwims: String(ids.nila) }],
    ] as const) {
      const refused = await nila.post('/booking', values)
      expect([label, refused.status]).toEqual([label, 409])
      expect(groupState(refused.html, 'Who will swim?')).toEqual({ invalid: true, message: CONSENT_NEEDED })
    }
    // The guest's declaration is not hers to make: she is known to be under 18.
    const declared = await nila.post('/booking', { ...base, whoSwims: 'someone_else', swimmerName: 'Mira Iyer', swimmerAge: '12', guardianDeclaration: 'on' })
    expect(declared.status).toBe(409)
    expect(declared.location).toBeNull()
    expect(fieldState(declared.html, 'guardianDeclaration').invalid).toBe(true)
    // Nothing was kept for step 2 to pay for.
    expect((await nila.get('/booking?step=2')).location).toBe('/booking')
    expect((await nila.post('/booking?step=2', { intent: 'pay', website_url: '' })).location).toBe('/booking')
  })
})

describe('a signed-in family on /booking', () => {
  it('books for the swimmer it chooses: the booking records that swimmer, and the account holder as the one who booked', async () => {
    const asha = await signIn('asha.family@example.com')
    const page = await asha.get('/booking')
    expect(text(page.html)).toContain('Who will swim?')
    expect(text(page.html)).toContain("Rohan Rao (waiting for a parent's consent)")
    expect(whoSwimsRadios(page.html)).toEqual([
      [String(ids.asha), true],
      [String(ids.kavya), false],
      [String(ids.rohan), false],
      ['someone_else', false],
    ])

    const step1 = await asha.post('/booking', details({ whoSwims: String(ids.kavya), date: bookableDate(4), time: '12:00' }))
    expect(step1.location).toBe('/booking?step=2')
    expect(text((await asha.get('/booking?step=2')).html)).toContain('Swimmer Kavya Rao')
    const confirmation = await payAndConfirm(asha)
    expect(confirmation).toContain('Booking Confirmed!')
    expect(confirmation).toContain('Swimmer Kavya Rao')
    const reference = /Booking ID (SWP-\d{10})/.exec(confirmation)![1]!
    const mail = await site.sink.waitForMailTo('asha.family@example.com', /Booking confirmed/)
    expect(mail.text).toMatch(/Swimmer: +Kavya Rao/)

    // The booking is Kavya's (her profile's), booked by her mother.
    expect(text((await asha.get(`/my-bookings?swimmer=${ids.kavya}`)).html)).toContain(reference)
    expect(text((await asha.get(`/my-bookings?swimmer=${ids.asha}`)).html)).not.toContain(reference)
    const staff = await site.sharedStaff()
    expect(text((await staff.get(`/admin/bookings/${reference}`)).html)).toMatch(/Swimmer Kavya Rao Booked as Asha Rao/)
  })

  it("refuses another account's swimmer exactly as a swimmer that does not exist, and a child without a parent's consent", async () => {
    const asha = await signIn('asha.family@example.com')
    const answers = []
    for (const whoSwims of [String(ids.stranger), '999999']) {
      const refused = await asha.post('/booking', details({ whoSwims, date: bookableDate(6) }))
      expect([whoSwims, refused.status]).toEqual([whoSwims, 400])
      expect(groupState(refused.html, 'Who will swim?')).toEqual({ invalid: true, message: SWIMMER_OF_ACCOUNT })
      expect(text(refused.html)).not.toContain('Vikram')
      answers.push(text(refused.html).split('Your details')[1]!.split('Continue to Payment')[0])
    }
    // The form comes back the same for both: nothing tells the other account's swimmer apart.
    expect(answers[0]).toBe(answers[1])
    const rohan = await asha.post('/booking', details({ whoSwims: String(ids.rohan), date: bookableDate(6) }))
    expect(rohan.status).toBe(409)
    expect(groupState(rohan.html, 'Who will swim?')).toEqual({ invalid: true, message: CONSENT_NEEDED })
    expect((await asha.get('/booking?step=2')).location).toBe('/booking')
  })
})

describe('a guest booking for someone else', () => {
  const forChild = (overrides: Record<string, string> = {}) =>
    details({ name: 'Ravi Kumar', email: 'ravi.kumar@example.com', whoSwims: 'someone_else', swimmerName: 'Kavya Kumar', swimmerAge: '12', date: bookableDate(7), time: '15:00', ...overrides })

  it("asks the swimmer's name and age, and for a swimmer under 18 the booking person's declaration as parent or guardian, which is recorded with the booking", async () => {
    const guest = new Visitor(site.url)
    const page = text((await guest.get('/booking')).html)
    expect(page).toContain('Who will swim?')
    const missing = await guest.post('/booking', details({ name: 'Ravi Kumar', email: 'ravi.kumar@example.com', whoSwims: 'someone_else' }))
    expect(missing.status).toBe(400)
    expect(fieldState(missing.html, 'swimmerName')).toEqual({ invalid: true, message: "Swimmer's name must be at least 2 characters" })
    expect(fieldState(missing.html, 'swimmerAge')).toEqual({ invalid: true, message: "Please enter the swimmer's age in years" })

    const undeclared = await guest.post('/booking', forChild())
    expect(undeclared.status).toBe(400)
    expect(fieldState(undeclared.html, 'guardianDeclaration')).toEqual({ invalid: true, message: DECLARATION_NEEDED })
    expect((await guest.get('/booking?step=2')).location).toBe('/booking')

    const declared = await guest.post('/booking', forChild({ guardianDeclaration: 'on' }))
    expect(declared.location).toBe('/booking?step=2')
    const summary = text((await guest.get('/booking?step=2')).html)
    expect(summary).toContain('Name Ravi Kumar')
    expect(summary).toContain('Swimmer Kavya Kumar, 12')
    const confirmation = await payAndConfirm(guest)
    expect(confirmation).toContain('Swimmer Kavya Kumar')
    const reference = /Booking ID (SWP-\d{10})/.exec(confirmation)![1]!
    const mail = await site.sink.waitForMailTo('ravi.kumar@example.com', /Booking confirmed/)
    expect(mail.text).toMatch(/Hello Ravi Kumar,/)
    expect(mail.text).toMatch(/Swimmer: +Kavya Kumar/)

    // Staff see the swimmer, the one who booked and paid, and the declaration kept with the booking.
    const staff = await site.sharedStaff()
    const record = text((await staff.get(`/admin/bookings/${reference}`)).html)
    expect(record).toMatch(/Swimmer Kavya Kumar, 12 Booked as Ravi Kumar Parent's consent Declared in the booking form by Ravi Kumar, ravi\.kumar@example\.com \(address not verified\), [^;]+ IST on [^;]+; privacy notice \d{4}-\d\d-\d\d /)
  })

  it('names the child wherever the booking speaks of who swims, and the parent where it speaks of who booked and paid', async () => {
    const guest = new Visitor(site.url)
    expect((await guest.post('/booking', forChild({ guardianDeclaration: 'on', date: bookableDate(9), time: '14:00' }))).location).toBe('/booking?step=2')
    const pay = await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })
    const back = await guest.post(pay.location!, { outcome: 'success' })
    const confirmation = await guest.get(back.location!)
    expect(text(confirmation.html)).toContain('Swimmer Kavya Kumar')
    const reference = /Booking ID (SWP-\d{10})/.exec(text(confirmation.html))![1]!

    // The e-mail greets the parent and looks forward to the child; the calendar names the child.
    const mail = await site.sink.waitForMailTo('ravi.kumar@example.com', new RegExp(`Booking confirmed: .*${reference}`))
    expect(mail.text).toMatch(/Hello Ravi Kumar,/)
    expect(mail.text).toMatch(/Swimmer: +Kavya Kumar/)
    expect(mail.text).toContain('We look forward to seeing Kavya in the pool.')
    const calendar = attachedFile(mail, /\.ics/, /text\/calendar/i).toString('utf8').replace(/\r?\n[ \t]/g, '')
    expect(calendar).toMatch(/^SUMMARY:Race Analysis Session: Kavya Kumar\r?$/m)
    expect(calendar).toMatch(/^DESCRIPTION:Swimmer: Kavya Kumar\./m)
    expect(calendar).not.toContain('Ravi')

    // The receipt is billed to the parent who paid; its line names the child.
    const receiptPath = /href="(\/receipts\/[^"]+)"/.exec(decodeHtml(confirmation.html))![1]!
    const receipt = (await pdfText((await guest.get(receiptPath)).bytes)).lines
    expect(receipt[receipt.findIndex((line) => /^billed to$/i.test(line)) + 1]).toBe('Ravi Kumar')
    expect(receipt).toContain('Swimmer: Kavya Kumar')
    expect(receipt.filter((line) => line.includes('Kavya'))).toEqual(['Swimmer: Kavya Kumar'])

    // Staff: the booking's page, the list and its CSV name the child as the swimmer, the parent as the customer.
    const staff = await site.sharedStaff()
    expect(text((await staff.get(`/admin/bookings/${reference}`)).html)).toMatch(/Swimmer Kavya Kumar, 12 Booked as Ravi Kumar/)
    expect(text((await staff.get(`/admin/bookings?q=${reference}`)).html)).toMatch(new RegExp(`${reference}.*Kavya Kumar.*Ravi Kumar`))
    const csv = (await staff.get(`/admin/bookings.csv?q=${reference}`)).html.split(/\r?\n/)
    expect(csv[0]).toMatch(/^Booking ID,Swimmer,Customer,/)
    expect(csv.find((line) => line.startsWith(reference))).toMatch(new RegExp(`^${reference},Kavya Kumar,Ravi Kumar,ravi\\.kumar@example\\.com,`))

    // The analysis is the child's: the editor and the published page name her, the results e-mail by her first name.
    const editor = `/admin/bookings/${reference}/analysis`
    expect((await staff.post(editor, { intent: 'start' })).status).toBe(302)
    expect((await staff.post(editor, { intent: 'finding', title: 'Kick from the hips', whyItMatters: '', priority: 'medium' })).status).toBe(302)
    expect(text((await staff.get(editor)).html)).toMatch(/Analysis of Kavya Kumar .*Swimmer Kavya Kumar Age 12 years /)
    expect((await staff.post(editor, { intent: 'publish', confirm: 'yes' })).status).toBe(302)
    const results = await site.sink.waitForMailTo('ravi.kumar@example.com', new RegExp(`Kavya's race analysis is ready \\(${reference}\\)`))
    expect(results.text).toMatch(/Hello Ravi Kumar,/)
    expect(results.text).toContain("Kavya's race analysis is ready")
    const bookingLink = /(https?:\/\/\S+\/booking\/view\?[^\s"<]+)/.exec(results.text)![1]!
    const analysisPath = /href="(\/analyses\/\d+)"/.exec((await new Visitor(site.url).get(bookingLink)).html)![1]!
    expect(text((await staff.get(analysisPath)).html)).toContain('Analysis of Kavya Kumar')
  })

  it('needs no declaration for a swimmer of 18 or more, and records none', async () => {
    const guest = new Visitor(site.url)
    const adult = await guest.post('/booking', forChild({ name: 'Meera Das', email: 'meera.das@example.com', swimmerName: 'Arjun Das', swimmerAge: '19', time: '16:00' }))
    expect(adult.location).toBe('/booking?step=2')
    const confirmation = await payAndConfirm(guest)
    const reference = /Booking ID (SWP-\d{10})/.exec(confirmation)![1]!
    const record = text((await (await site.sharedStaff()).get(`/admin/bookings/${reference}`)).html)
    expect(record).toMatch(/Swimmer Arjun Das, 19 Booked as Meera Das/)
    expect(record).not.toContain("Parent's consent")
  })

  it('cannot name a swimmer profile of an account', async () => {
    const refused = await new Visitor(site.url).post('/booking', details({ name: 'Ravi Kumar', email: 'ravi.kumar@example.com', whoSwims: String(ids.kavya), date: bookableDate(8) }))
    expect(refused.status).toBe(400)
    expect(groupState(refused.html, 'Who will swim?')).toEqual({ invalid: true, message: SWIMMER_OF_ACCOUNT })
    expect(text(refused.html)).not.toContain('Kavya Rao')
  })
})

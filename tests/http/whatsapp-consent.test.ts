import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatLabDate } from '~/lib/lab-time'
import { INVALID_PHONE_NUMBER, INVALID_WHATSAPP_NUMBER, NO_SUCH_NUMBER, WHATSAPP_NUMBER_NEEDED } from '~/lib/phone-field'
import { UNPROVEN_STATE } from '~/modules/whatsapp/account.server'
import { WHATSAPP_OPT_IN_WORDING } from '~/modules/whatsapp/consent.server'
import { bookAndPay, bookableDate } from '../support/booking-flow'
import { eventually } from '../support/eventually'
import { startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp'
import { useTestSite } from '../support/site'
import { decodeHtml, fieldState, registrationForm, text, Visitor } from '../support/visitor'

// The WhatsApp opt-in box on every form that takes a number, the account's switch, and numbers kept
// in E.164, as a browser without JavaScript uses them, with Meta's Cloud API a local fake: what a
// number receives shows what was decided. A number typed into a form may be anyone's, so a form only
// asks it; only the number's owner turns messages on (a reply START, or the code sent to it).

let fake: FakeWhatsApp
beforeAll(async () => {
  fake = await startFakeWhatsApp()
})
afterAll(async () => {
  await fake?.close()
})
const site = useTestSite(() => fake.env)
const withoutWhatsApp = useTestSite()

/** The opt-in checkbox of a page: null when the page has none. */
function optInBox(html: string) {
  const tag = /<input[^>]*name="whatsappOptIn"[^>]*>/.exec(html)?.[0]
  if (!tag) return null
  const id = /id="([^"]+)"/.exec(tag)?.[1]
  const label = id ? new RegExp(`<label[^>]*for="${id}"[^>]*>([^<]*)</label>`).exec(html)?.[1] : undefined
  return { checked: /\schecked(?:=""|\s|>|\/)/.test(tag), required: /\srequired(?:=""|\s|>|\/)/.test(tag), type: /type="([^"]+)"/.exec(tag)?.[1], label: label && decodeHtml(label) }
}

/** The value a text field of the page holds. */
const valueOf = (html: string, name: string) => /value="([^"]*)"/.exec(new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '')?.[1]

let people = 0
/** A new person's own mobile number, typed the way people type them: "97400 1xxxx". */
function newNumber() {
  people += 1
  const digits = `97400${String(10000 + people).padStart(5, '0')}`
  return { typed: `${digits.slice(0, 5)} ${digits.slice(5)}`, e164: `+91${digits}`, shown: `+91 ${digits.slice(0, 5)} ${digits.slice(5)}` }
}

/** Registers through /registration with `fields` and verifies with the e-mailed code: signed in. */
async function register(target: typeof site, fields: Record<string, string>) {
  const visitor = new Visitor(target.url)
  const email = fields.email!
  const registered = await visitor.post('/registration', registrationForm(fields))
  expect(registered.status, text(registered.html).slice(0, 300)).toBe(302)
  const mail = await target.sink.waitForMailTo(email, /verification code/)
  const code = /^\s+(\d{6})\r?$/m.exec(mail.text)?.[1]
  const verified = await visitor.post(`/verify-email?${new URLSearchParams({ email })}`, { email, code: code!, website_url: '' })
  expect(verified.location).toBe('/book-slot')
  return visitor
}

/** The account page's WhatsApp line: "WhatsApp messages: on (since …)", without the number it is about. */
const whatsappLine = (html: string) => /WhatsApp messages: [^.(]*(?:\([^)]*\))?[^.(]*?(?= to \+| \(\+| To get|$)/.exec(text(html))?.[0]?.trim()

const today = () => formatLabDate(new Date())

/** The templates (or "text: …" replies) a number has received. */
const received = (e164: string) => fake.sentTo(e164).map((message) => message.template ?? `text: ${message.text}`)

let barriers = 0
/**
 * Waits until every message queued so far has been sent: the site's worker sends them in the order
 * they were queued, so once the reply to someone writing in now has arrived, so has anything before.
 */
async function everythingSent() {
  barriers += 1
  const writer = `+9197411${String(barriers).padStart(5, '0')}`
  expect((await fake.deliver(`${site.url}/webhooks/whatsapp`, fake.incomingNotification({ from: writer, text: 'Hello?' }))).status).toBe(200)
  await eventually(() => fake.sentTo(writer), (messages) => messages.length === 1)
}

/** The number's owner writes `text` to the lab's number on WhatsApp. */
async function replyFrom(e164: string, message: string) {
  expect((await fake.deliver(`${site.url}/webhooks/whatsapp`, fake.incomingNotification({ from: e164, text: message }))).status).toBe(200)
}

/** The signed-in account proves its number with the code sent to it on WhatsApp. */
async function proveNumber(visitor: Visitor, e164: string) {
  const before = fake.sentTo(e164).length
  expect((await visitor.post('/account/data', { intent: 'whatsapp-code' })).location).toBe('/account/data#whatsapp')
  const [code] = await eventually(
    () => fake.sentTo(e164).slice(before).filter((message) => message.template === 'verification_code'),
    (codes) => codes.length === 1,
  )
  expect((await visitor.post('/account/data', { intent: 'whatsapp-prove', code: code!.parameters[0]! })).location).toBe('/account/data#whatsapp')
}

describe('without the WhatsApp settings', () => {
  it('every form is as before: no opt-in box, no WhatsApp switch on the account page', async () => {
    const guest = new Visitor(withoutWhatsApp.url)
    for (const path of ['/registration', '/booking', '/onboarding']) {
      const page = await guest.get(path)
      expect(page.status, path).toBe(200)
      expect(optInBox(page.html), path).toBeNull()
      expect(text(page.html), path).not.toContain(WHATSAPP_OPT_IN_WORDING)
    }
    const number = newNumber()
    // A hand-made request ticking the box records nothing while WhatsApp is off.
    const parent = await register(withoutWhatsApp, { email: 'off.parent@example.com', name: 'Off Parent', phone: number.typed, whatsappOptIn: 'on' })
    const account = await parent.get('/account/data')
    expect(optInBox(account.html)).toBeNull()
    expect(text(account.html)).not.toContain('WhatsApp messages')
    expect(text((await parent.get('/my-bookings')).html)).not.toContain('WhatsApp messages')
    expect(optInBox((await parent.get('/onboarding')).html)).toBeNull()
    const download = await parent.post('/account/data/export', {})
    expect(JSON.parse(strFromU8(unzipSync(download.bytes)['data.json']!)).whatsappConsent).toBeNull()
    // The switch and the code are refused while WhatsApp is off: nothing to turn on.
    for (const intent of ['whatsapp-on', 'whatsapp-code', 'whatsapp-prove']) expect((await parent.post('/account/data', { intent, code: '123456' })).status, intent).toBe(400)
  })
})

describe('registration', () => {
  it('shows the box unticked, with the words recorded', async () => {
    const page = await new Visitor(site.url).get('/registration')
    expect(optInBox(page.html)).toEqual({ checked: false, required: false, type: 'checkbox', label: WHATSAPP_OPT_IN_WORDING })
  })

  it('refuses a number that is not a mobile, or that no one has, next to the field; keeps the box as ticked, and creates nothing', async () => {
    const visitor = new Visitor(site.url)
    const email = 'landline.reg@example.com'
    const refused = await visitor.post('/registration', registrationForm({ email, name: 'Landline Person', phone: '044 2345 6789', whatsappOptIn: 'on' }))
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'phone')).toEqual({ invalid: true, message: INVALID_WHATSAPP_NUMBER })
    expect(optInBox(refused.html)?.checked).toBe(true)
    const nobodys = await visitor.post('/registration', registrationForm({ email, name: 'Landline Person', phone: '+999999999999999', whatsappOptIn: 'on' }))
    expect(nobodys.status).toBe(400)
    expect(fieldState(nobodys.html, 'phone')).toEqual({ invalid: true, message: NO_SUCH_NUMBER })
    const short = await visitor.post('/registration', registrationForm({ email, name: 'Landline Person', phone: '98450' }))
    expect(fieldState(short.html, 'phone')).toEqual({ invalid: true, message: 'WhatsApp number must be at least 10 digits' })
    expect(optInBox(short.html)?.checked).toBe(false)
    // No account was made: the address can still register.
    await register(site, { email, name: 'Landline Person', phone: newNumber().typed })
  })

  it("ticked: the number is kept in E.164 and asked to confirm, once; it hears nothing of the account's bookings until its owner replies START", async () => {
    const number = newNumber()
    const parent = await register(site, { email: 'ticked.reg@example.com', name: 'Ticked Parent', phone: `0${number.typed.replace(' ', '-')}`, whatsappOptIn: 'on' })
    await eventually(() => received(number.e164), (messages) => messages.length === 1)
    expect(received(number.e164)).toEqual(['confirm_whatsapp_messages'])
    const account = await parent.get('/account/data')
    expect(valueOf(account.html, 'phone')).toBe(number.shown)
    expect(whatsappLine(account.html)).toBe(`WhatsApp messages: ${UNPROVEN_STATE}`)
    expect(text(account.html)).not.toContain('Turn WhatsApp messages')
    expect(text((await parent.get('/my-bookings')).html)).toContain(`WhatsApp messages ${UNPROVEN_STATE}`)

    await bookAndPay(parent, site.url, 'success')
    await site.sink.waitForMailTo('ticked.reg@example.com', /Booking confirmed/)
    await everythingSent()
    expect(received(number.e164)).toEqual(['confirm_whatsapp_messages'])

    await replyFrom(number.e164, 'START')
    await eventually(() => received(number.e164), (messages) => messages.length === 2)
    expect(received(number.e164)[1]).toMatch(/^text: You will get booking confirmations/)
    await bookAndPay(parent, site.url, 'success', 1)
    await eventually(() => received(number.e164), (messages) => messages.length === 3)
    expect(received(number.e164)[2]).toBe('booking_confirmed')
  })

  it('unticked: nothing is sent, and the account page offers to confirm the number', async () => {
    const number = newNumber()
    const parent = await register(site, { email: 'unticked.reg@example.com', name: 'Unticked Parent', phone: number.typed })
    const account = await parent.get('/account/data')
    expect(whatsappLine(account.html)).toBe(`WhatsApp messages: ${UNPROVEN_STATE}`)
    expect(text(account.html)).toContain('Send me a code on WhatsApp')
    await everythingSent()
    expect(received(number.e164)).toEqual([])
  })
})

describe('the account page', () => {
  it('proves the number with the code sent to it on WhatsApp, which turns messages on; a wrong code is refused next to the field', async () => {
    const number = newNumber()
    const parent = await register(site, { email: 'code.holder@example.com', name: 'Code Holder', phone: number.typed })
    expect((await parent.post('/account/data', { intent: 'whatsapp-code' })).location).toBe('/account/data#whatsapp')
    const [sent] = await eventually(() => fake.sentTo(number.e164), (messages) => messages.length === 1)
    expect(sent).toMatchObject({ template: 'verification_code', parameters: [expect.stringMatching(/^\d{6}$/)] })
    const code = sent!.parameters[0]!
    const wrong = await parent.post('/account/data', { intent: 'whatsapp-prove', code: code === '000000' ? '000001' : '000000' })
    expect(wrong.status).toBe(400)
    expect(fieldState(wrong.html, 'code')).toMatchObject({ invalid: true, message: expect.stringMatching(/^That code is not valid/) })
    expect(fieldState((await parent.post('/account/data', { intent: 'whatsapp-prove', code: '12ab' })).html, 'code')).toEqual({ invalid: true, message: 'Enter the 6-digit code sent to your WhatsApp number' })
    expect((await parent.post('/account/data', { intent: 'whatsapp-prove', code })).location).toBe('/account/data#whatsapp')
    expect(whatsappLine((await parent.get('/account/data')).html)).toBe(`WhatsApp messages: on (since ${today()})`)
  })

  it("an account given someone else's number shows nothing of that number's consent, cannot turn its messages on or off, and cannot prove it", async () => {
    // The number's owner asked for messages and said yes from the phone.
    const owner = newNumber()
    const parent = await register(site, { email: 'number.owner@example.com', name: 'Number Owner', phone: owner.typed, whatsappOptIn: 'on' })
    await replyFrom(owner.e164, 'START')
    const stranger = await register(site, { email: 'number.stranger@example.com', name: 'Number Stranger', phone: owner.typed })
    const page = await stranger.get('/account/data')
    expect(whatsappLine(page.html)).toBe(`WhatsApp messages: ${UNPROVEN_STATE}`)
    expect(text(page.html)).not.toMatch(/on \(since|Turn WhatsApp messages off/)
    expect((await stranger.post('/account/data', { intent: 'whatsapp-off' })).status).toBe(400)
    // The code goes to the number's owner, not to the stranger; guessing is refused.
    expect((await stranger.post('/account/data', { intent: 'whatsapp-prove', code: '123456' })).status).toBe(400)
    // The owner still hears of their booking.
    await bookAndPay(parent, site.url, 'success')
    await eventually(() => received(owner.e164), (messages) => messages.includes('booking_confirmed'))
  })

  it('its details form: a bad number is refused next to the field and nothing is saved; another number is unproven again, and ticked, it is asked to confirm', async () => {
    const first = newNumber()
    const parent = await register(site, { email: 'details.form@example.com', name: 'Details Form', phone: first.typed })
    await proveNumber(parent, first.e164)
    const page = await parent.get('/account/data')
    expect(optInBox(page.html)).toEqual({ checked: false, required: false, type: 'checkbox', label: WHATSAPP_OPT_IN_WORDING })

    for (const [typed, message] of [['+91 44 2345 6789', INVALID_WHATSAPP_NUMBER], ['+999999999999999', NO_SUCH_NUMBER]] as const) {
      const refused = await parent.post('/account/data', { intent: 'profile', name: 'Details Form', phone: typed, currentLocation: 'Mysuru', whatsappOptIn: 'on' })
      expect(refused.status).toBe(400)
      expect(fieldState(refused.html, 'phone')).toEqual({ invalid: true, message })
      expect(optInBox(refused.html)?.checked).toBe(true)
    }
    expect(valueOf((await parent.get('/account/data')).html, 'phone')).toBe(first.shown)

    // Saved again with the same number: still proven, still on.
    await parent.post('/account/data', { intent: 'profile', name: 'Details Form', phone: first.typed, currentLocation: 'Mysore' })
    expect(whatsappLine((await parent.get('/account/data')).html)).toBe(`WhatsApp messages: on (since ${today()})`)

    const second = newNumber()
    const saved = await parent.post('/account/data', { intent: 'profile', name: 'Details Form', phone: `+91-${second.typed}`, currentLocation: 'Mysuru', whatsappOptIn: 'on' })
    expect(saved.location).toBe('/account/data#details')
    const account = await parent.get('/account/data')
    expect(valueOf(account.html, 'phone')).toBe(second.shown)
    expect(whatsappLine(account.html)).toBe(`WhatsApp messages: ${UNPROVEN_STATE}`)
    await eventually(() => received(second.e164), (messages) => messages.length === 1)
    expect(received(second.e164)).toEqual(['confirm_whatsapp_messages'])
  })

  it('turns messages off and on again with its buttons once the number is proven; another account cannot change them', async () => {
    const mine = newNumber()
    const theirs = newNumber()
    const owner = await register(site, { email: 'switch.owner@example.com', name: 'Switch Owner', phone: mine.typed })
    await proveNumber(owner, mine.e164)
    const other = await register(site, { email: 'switch.other@example.com', name: 'Switch Other', phone: theirs.typed })
    await proveNumber(other, theirs.e164)

    const off = await owner.post('/account/data', { intent: 'whatsapp-off' })
    expect(off.location).toBe('/account/data#whatsapp')
    let page = await owner.get('/account/data')
    expect(whatsappLine(page.html)).toBe(`WhatsApp messages: off since ${today()}`)
    expect(text(page.html)).toContain('Turn WhatsApp messages on')
    // The words shown with the button are the ones recorded.
    expect(text(page.html)).toContain(WHATSAPP_OPT_IN_WORDING)

    // The other account's buttons change only its own number, whatever the form names.
    expect((await other.post('/account/data', { intent: 'whatsapp-off', phone: mine.e164 })).location).toBe('/account/data#whatsapp')
    expect((await other.post('/account/data', { intent: 'whatsapp-on', phone: mine.e164 })).location).toBe('/account/data#whatsapp')
    expect(whatsappLine((await owner.get('/account/data')).html)).toBe(`WhatsApp messages: off since ${today()}`)

    expect((await owner.post('/account/data', { intent: 'whatsapp-on' })).location).toBe('/account/data#whatsapp')
    page = await owner.get('/account/data')
    expect(whatsappLine(page.html)).toBe(`WhatsApp messages: on (since ${today()})`)

    // Signed out, nothing changes: the form leads to the sign-in page.
    const refused = await new Visitor(site.url).post('/account/data', { intent: 'whatsapp-off' })
    expect(refused.status).toBe(302)
    expect(refused.location).toMatch(/^\/login/)
    expect(whatsappLine((await owner.get('/account/data')).html)).toBe(`WhatsApp messages: on (since ${today()})`)
  })
})

const booking = (overrides: Record<string, string> = {}) => ({
  name: 'Guest Booker',
  email: 'guest.booker@example.com',
  phone: '',
  service: 'race',
  date: bookableDate(3),
  time: '10:00',
  notes: '',
  intent: 'details',
  website_url: '',
  ...overrides,
})

/** A guest's single session on /booking with `fields`, held and paid on the sandbox's page. */
async function guestBooksAndPays(fields: Record<string, string>) {
  const visitor = new Visitor(site.url)
  expect((await visitor.post('/booking', booking(fields))).location).toBe('/booking?step=2')
  const pay = await visitor.post('/booking?step=2', { intent: 'pay', website_url: '' })
  expect(pay.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
  expect((await visitor.post(pay.location!, { outcome: 'success' })).status).toBe(303)
  await site.sink.waitForMailTo(fields.email!, /Booking confirmed/)
}

describe('/booking', () => {
  it('shows the box unticked on the details step; ticked without a number or with a bad one, says so next to the number', async () => {
    const visitor = new Visitor(site.url)
    expect(optInBox((await visitor.get('/booking')).html)).toEqual({ checked: false, required: false, type: 'checkbox', label: WHATSAPP_OPT_IN_WORDING })
    const noNumber = await visitor.post('/booking', booking({ whatsappOptIn: 'on' }))
    expect(noNumber.status).toBe(400)
    expect(fieldState(noNumber.html, 'phone')).toEqual({ invalid: true, message: WHATSAPP_NUMBER_NEEDED })
    expect(optInBox(noNumber.html)?.checked).toBe(true)
    const landline = await visitor.post('/booking', booking({ phone: '044 2345 6789' }))
    expect(landline.status).toBe(400)
    expect(fieldState(landline.html, 'phone')).toEqual({ invalid: true, message: INVALID_PHONE_NUMBER })
    expect(optInBox(landline.html)?.checked).toBe(false)
    const nobodys = await visitor.post('/booking', booking({ phone: '+999999999999999' }))
    expect(fieldState(nobodys.html, 'phone')).toEqual({ invalid: true, message: NO_SUCH_NUMBER })
    // Without the box, the number stays optional.
    expect((await visitor.post('/booking', booking())).location).toBe('/booking?step=2')
  })

  it('ticked: the draft keeps the box between the steps; once the booking is made the number is asked to confirm, and hears nothing of the booking', async () => {
    const number = newNumber()
    const visitor = new Visitor(site.url)
    const step1 = await visitor.post('/booking', booking({ email: 'ticked.booker@example.com', phone: `+91 ${number.typed}`, whatsappOptIn: 'on', date: bookableDate(5) }))
    expect(step1.location).toBe('/booking?step=2')
    const step2 = text((await visitor.get('/booking?step=2')).html)
    expect(step2).toContain(number.shown)
    expect(step2).toContain('WhatsApp messages Yes, at this number')
    // "Change details": the box as the visitor left it.
    const back = await visitor.get('/booking')
    expect(optInBox(back.html)?.checked).toBe(true)
    expect(valueOf(back.html, 'phone')).toBe(number.shown)

    const pay = await visitor.post('/booking?step=2', { intent: 'pay', website_url: '' })
    expect(pay.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
    expect((await visitor.post(pay.location!, { outcome: 'success' })).status).toBe(303)
    await site.sink.waitForMailTo('ticked.booker@example.com', /Booking confirmed/)
    await everythingSent()
    expect(received(number.e164)).toEqual(['confirm_whatsapp_messages'])
  })

  it('a number whose owner replied STOP is neither opted in again nor asked by anyone’s booking', async () => {
    const victim = newNumber()
    await replyFrom(victim.e164, 'STOP')
    await eventually(() => received(victim.e164), (messages) => messages.length === 1)
    await guestBooksAndPays({ name: 'Someone Else', email: 'someone.else@example.com', phone: victim.typed, whatsappOptIn: 'on', date: bookableDate(6) })
    await everythingSent()
    expect(received(victim.e164)).toEqual(['text: You will get no more WhatsApp messages from the Swimming Sport Science Lab. To get them again, reply START.'])
  })
})

/** The swimmers' checkboxes of the signed-in camp form. */
const swimmerValues = (html: string) => [...html.matchAll(/<input[^>]*name="swimmers"[^>]*value="(\d+)"|<input[^>]*value="(\d+)"[^>]*name="swimmers"/g)].map((match) => match[1] ?? match[2]!)

describe('the camp forms', () => {
  it('the guest form: the box unticked; a bad number refused next to the field; ticked, the number is asked to confirm with the registration', async () => {
    const visitor = new Visitor(site.url)
    expect(optInBox((await visitor.get('/onboarding')).html)).toEqual({ checked: false, required: false, type: 'checkbox', label: WHATSAPP_OPT_IN_WORDING })
    const form = { name: 'Camp Guest', email: 'camp.guest@example.com', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '', intent: 'register' }
    const refused = await visitor.post('/onboarding', { ...form, phone_number: '044 2345 6789', whatsappOptIn: 'on' })
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'phone_number')).toEqual({ invalid: true, message: INVALID_PHONE_NUMBER })
    expect(optInBox(refused.html)?.checked).toBe(true)
    const nobodys = await visitor.post('/onboarding', { ...form, phone_number: '+999999999999999', whatsappOptIn: 'on' })
    expect(fieldState(nobodys.html, 'phone_number')).toEqual({ invalid: true, message: NO_SUCH_NUMBER })

    const number = newNumber()
    const submitted = await visitor.post('/onboarding', { ...form, phone_number: `91${number.typed.replace(' ', '')}`, whatsappOptIn: 'on' })
    expect(submitted.status).toBe(302)
    await eventually(() => received(number.e164), (messages) => messages.length === 1)
    expect(received(number.e164)).toEqual(['confirm_whatsapp_messages'])
  })

  it("the signed-in parent's form: the box unticked next to the account's number; ticked, the number typed there is asked to confirm", async () => {
    const number = newNumber()
    const parent = await register(site, { email: 'camp.family@example.com', name: 'Camp Family', phone: number.typed })
    const page = await parent.get('/onboarding')
    expect(valueOf(page.html, 'phone_number')).toBe(number.shown)
    expect(optInBox(page.html)).toEqual({ checked: false, required: false, type: 'checkbox', label: WHATSAPP_OPT_IN_WORDING })
    const swimmers = swimmerValues(page.html)
    expect(swimmers).toHaveLength(1)

    const refused = await parent.post('/onboarding', { intent: 'register_swimmers', swimmers: swimmers[0]!, phone_number: '12345', camp: 'camp1', batch: 'batch1', website_url: '', whatsappOptIn: 'on' })
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'phone_number')).toEqual({ invalid: true, message: 'Phone number must be at least 10 digits' })
    expect(optInBox(refused.html)?.checked).toBe(true)

    const submitted = await parent.post('/onboarding', { intent: 'register_swimmers', swimmers: swimmers[0]!, phone_number: number.shown, camp: 'camp1', batch: 'batch1', website_url: '', whatsappOptIn: 'on' })
    expect(submitted.status).toBe(302)
    await eventually(() => received(number.e164), (messages) => messages.length === 1)
    expect(received(number.e164)).toEqual(['confirm_whatsapp_messages'])
  })
})

import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { formatLabDate } from '~/lib/lab-time'
import { INVALID_PHONE_NUMBER, INVALID_WHATSAPP_NUMBER, WHATSAPP_NUMBER_NEEDED } from '~/lib/phone-field'
import { WHATSAPP_OPT_IN_WORDING } from '~/modules/whatsapp/consent.server'
import { bookableDate } from '../support/booking-flow'
import { useTestSite } from '../support/site'
import { decodeHtml, fieldState, registrationForm, text, Visitor } from '../support/visitor'

// The WhatsApp opt-in box on every form that takes a number, the account's switch, and numbers kept
// in E.164, as a browser without JavaScript uses them. Nothing is sent to WhatsApp in these tests:
// the settings only turn the feature on.

const WHATSAPP_ENV = {
  WHATSAPP_ACCESS_TOKEN: 'test-access-token-for-the-opt-in-forms',
  WHATSAPP_PHONE_NUMBER_ID: '123456789012345',
  WHATSAPP_APP_SECRET: 'test-app-secret-0123456789',
  WHATSAPP_VERIFY_TOKEN: 'test-verify-token-0123456789',
  WHATSAPP_API_URL: 'http://127.0.0.1:9/v23.0',
}

const site = useTestSite(WHATSAPP_ENV)
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

type Export = {
  account: { whatsappNumber: string }
  whatsappConsent: { number: string; state: string; optedIn: boolean; optedInAt: string | null; optInWording: string | null; optInSource: string | null; optedOutAt: string | null; optOutSource: string | null } | null
  whatsappMessages: unknown[]
}

/** The signed-in account's data export (data.json). */
async function exportOf(visitor: Visitor): Promise<Export> {
  const download = await visitor.post('/account/data/export', {})
  expect(download.status).toBe(200)
  return JSON.parse(strFromU8(unzipSync(download.bytes)['data.json']!))
}

/** Whether an instant (as the export writes it) falls between two moments of the test. */
const between = (at: string | null, from: number, to: number) => at !== null && Date.parse(at) >= from && Date.parse(at) <= to

/** The account page's WhatsApp line: "WhatsApp messages: on (since …) to +91 …". */
const whatsappLine = (html: string) => /WhatsApp messages: [^.]*?(?= to \+| To get|$)/.exec(text(html))?.[0]?.trim()

const today = () => formatLabDate(new Date())

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
    // The signed-in camp form (the parent has a swimmer) has no box either.
    expect(optInBox((await parent.get('/onboarding')).html)).toBeNull()
    const data = await exportOf(parent)
    expect(data.account.whatsappNumber).toBe(number.e164)
    expect(data.whatsappConsent).toBeNull()
    // The switch is refused while WhatsApp is off: nothing to turn on.
    expect((await parent.post('/account/data', { intent: 'whatsapp-on' })).status).toBe(400)
    expect((await exportOf(parent)).whatsappConsent).toBeNull()
  })
})

describe('registration', () => {
  it('shows the box unticked, with the words recorded', async () => {
    const page = await new Visitor(site.url).get('/registration')
    expect(optInBox(page.html)).toEqual({ checked: false, required: false, type: 'checkbox', label: WHATSAPP_OPT_IN_WORDING })
  })

  it('refuses a number that is not a mobile next to the field, keeps the box as ticked, and creates nothing', async () => {
    const visitor = new Visitor(site.url)
    const email = 'landline.reg@example.com'
    const refused = await visitor.post('/registration', registrationForm({ email, name: 'Landline Person', phone: '044 2345 6789', whatsappOptIn: 'on' }))
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'phone')).toEqual({ invalid: true, message: INVALID_WHATSAPP_NUMBER })
    expect(optInBox(refused.html)?.checked).toBe(true)
    const short = await visitor.post('/registration', registrationForm({ email, name: 'Landline Person', phone: '98450' }))
    expect(fieldState(short.html, 'phone')).toEqual({ invalid: true, message: 'WhatsApp number must be at least 10 digits' })
    expect(optInBox(short.html)?.checked).toBe(false)
    // No account was made: the address can still register.
    await register(site, { email, name: 'Landline Person', phone: newNumber().typed })
  })

  it('ticked: the number is kept in E.164 and opted in with the words, the form and the time', async () => {
    const number = newNumber()
    const before = Date.now()
    const parent = await register(site, { email: 'ticked.reg@example.com', name: 'Ticked Parent', phone: `0${number.typed.replace(' ', '-')}`, whatsappOptIn: 'on' })
    const after = Date.now()
    const data = await exportOf(parent)
    expect(data.account.whatsappNumber).toBe(number.e164)
    expect(data.whatsappConsent).toMatchObject({ number: number.e164, state: 'on', optedIn: true, optInSource: 'registration', optInWording: WHATSAPP_OPT_IN_WORDING, optedOutAt: null })
    expect(between(data.whatsappConsent!.optedInAt, before, after)).toBe(true)
    expect(data.whatsappMessages).toEqual([])
    const account = await parent.get('/account/data')
    expect(valueOf(account.html, 'phone')).toBe(number.shown)
    expect(whatsappLine(account.html)).toBe(`WhatsApp messages: on (since ${today()})`)
    expect(text((await parent.get('/my-bookings')).html)).toContain(`WhatsApp messages on (since ${today()})`)
  })

  it('unticked: nothing is recorded, and the account page says off', async () => {
    const parent = await register(site, { email: 'unticked.reg@example.com', name: 'Unticked Parent', phone: newNumber().typed })
    expect((await exportOf(parent)).whatsappConsent).toBeNull()
    const account = await parent.get('/account/data')
    expect(whatsappLine(account.html)).toBe('WhatsApp messages: off')
    expect(text(account.html)).toContain('Turn WhatsApp messages on')
  })
})

describe('the account page', () => {
  it('its details form: a bad number is refused next to the field and nothing is saved; ticked opts the new number in; unticked changes nothing', async () => {
    const first = newNumber()
    const parent = await register(site, { email: 'details.form@example.com', name: 'Details Form', phone: first.typed })
    const page = await parent.get('/account/data')
    expect(optInBox(page.html)).toEqual({ checked: false, required: false, type: 'checkbox', label: WHATSAPP_OPT_IN_WORDING })

    const refused = await parent.post('/account/data', { intent: 'profile', name: 'Details Form', phone: '+91 44 2345 6789', currentLocation: 'Mysuru', whatsappOptIn: 'on' })
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'phone')).toEqual({ invalid: true, message: INVALID_WHATSAPP_NUMBER })
    expect(optInBox(refused.html)?.checked).toBe(true)
    const unchanged = await exportOf(parent)
    expect(unchanged.account.whatsappNumber).toBe(first.e164)
    expect(unchanged.whatsappConsent).toBeNull()

    const second = newNumber()
    const before = Date.now()
    const saved = await parent.post('/account/data', { intent: 'profile', name: 'Details Form', phone: `+91-${second.typed}`, currentLocation: 'Mysuru', whatsappOptIn: 'on' })
    expect(saved.location).toBe('/account/data#details')
    const data = await exportOf(parent)
    expect(data.account.whatsappNumber).toBe(second.e164)
    expect(data.whatsappConsent).toMatchObject({ number: second.e164, optedIn: true, optInSource: 'account', optInWording: WHATSAPP_OPT_IN_WORDING })
    expect(between(data.whatsappConsent!.optedInAt, before, Date.now())).toBe(true)

    // Saved again without the box: still on.
    await parent.post('/account/data', { intent: 'profile', name: 'Details Form', phone: second.typed, currentLocation: 'Mysore' })
    expect((await exportOf(parent)).whatsappConsent).toMatchObject({ optedIn: true, optInSource: 'account' })
    expect(whatsappLine((await parent.get('/account/data')).html)).toBe(`WhatsApp messages: on (since ${today()})`)
  })

  it('turns messages off and on again with its buttons, each recorded; another account cannot change them', async () => {
    const mine = newNumber()
    const theirs = newNumber()
    const owner = await register(site, { email: 'switch.owner@example.com', name: 'Switch Owner', phone: mine.typed, whatsappOptIn: 'on' })
    const other = await register(site, { email: 'switch.other@example.com', name: 'Switch Other', phone: theirs.typed })

    let page = await owner.get('/account/data')
    expect(text(page.html)).toContain('Turn WhatsApp messages off')
    const off = await owner.post('/account/data', { intent: 'whatsapp-off' })
    expect(off.status).toBe(302)
    expect(off.location).toBe('/account/data#whatsapp')
    page = await owner.get('/account/data')
    expect(whatsappLine(page.html)).toBe(`WhatsApp messages: off since ${today()}`)
    expect(text(page.html)).toContain('Turn WhatsApp messages on')
    // The words shown with the button are the ones recorded.
    expect(text(page.html)).toContain(WHATSAPP_OPT_IN_WORDING)
    expect((await exportOf(owner)).whatsappConsent).toMatchObject({ optedIn: false, optOutSource: 'account', state: 'off' })

    // The other account's buttons change only its own number, whatever the form names.
    expect((await other.post('/account/data', { intent: 'whatsapp-on', phone: mine.e164 })).location).toBe('/account/data#whatsapp')
    expect((await exportOf(other)).whatsappConsent).toMatchObject({ number: theirs.e164, optedIn: true, optInSource: 'account' })
    expect((await exportOf(owner)).whatsappConsent).toMatchObject({ number: mine.e164, optedIn: false })

    const before = Date.now()
    expect((await owner.post('/account/data', { intent: 'whatsapp-on' })).location).toBe('/account/data#whatsapp')
    const on = (await exportOf(owner)).whatsappConsent!
    expect(on).toMatchObject({ optedIn: true, optInSource: 'account', optInWording: WHATSAPP_OPT_IN_WORDING })
    expect(between(on.optedInAt, before, Date.now())).toBe(true)
    expect(whatsappLine((await owner.get('/account/data')).html)).toBe(`WhatsApp messages: on (since ${today()})`)

    // Signed out, nothing changes: the form leads to the sign-in page.
    const stranger = new Visitor(site.url)
    const refused = await stranger.post('/account/data', { intent: 'whatsapp-off' })
    expect(refused.status).toBe(302)
    expect(refused.location).toMatch(/^\/login/)
    expect((await exportOf(owner)).whatsappConsent).toMatchObject({ optedIn: true })
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
    // Without the box, the number stays optional.
    expect((await visitor.post('/booking', booking())).location).toBe('/booking?step=2')
  })

  it('ticked: the draft keeps the box between the steps, and the number is opted in when the booking is made', async () => {
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

    const before = Date.now()
    const pay = await visitor.post('/booking?step=2', { intent: 'pay', website_url: '' })
    expect(pay.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
    const after = Date.now()
    // The number's owner sees it on their account once they have one.
    const owner = await register(site, { email: 'booker.account@example.com', name: 'Booker Account', phone: number.typed })
    const consent = (await exportOf(owner)).whatsappConsent!
    expect(consent).toMatchObject({ number: number.e164, optedIn: true, optInSource: 'booking', optInWording: WHATSAPP_OPT_IN_WORDING })
    expect(between(consent.optedInAt, before, after)).toBe(true)
  })
})

/** The swimmers' checkboxes of the signed-in camp form. */
const swimmerValues = (html: string) => [...html.matchAll(/<input[^>]*name="swimmers"[^>]*value="(\d+)"|<input[^>]*value="(\d+)"[^>]*name="swimmers"/g)].map((match) => match[1] ?? match[2]!)

describe('the camp forms', () => {
  it('the guest form: the box unticked; a bad number refused next to the field; ticked, the number is opted in with the registration', async () => {
    const visitor = new Visitor(site.url)
    expect(optInBox((await visitor.get('/onboarding')).html)).toEqual({ checked: false, required: false, type: 'checkbox', label: WHATSAPP_OPT_IN_WORDING })
    const form = { name: 'Camp Guest', email: 'camp.guest@example.com', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '', intent: 'register' }
    const refused = await visitor.post('/onboarding', { ...form, phone_number: '044 2345 6789', whatsappOptIn: 'on' })
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'phone_number')).toEqual({ invalid: true, message: INVALID_PHONE_NUMBER })
    expect(optInBox(refused.html)?.checked).toBe(true)

    const number = newNumber()
    const before = Date.now()
    const submitted = await visitor.post('/onboarding', { ...form, phone_number: `91${number.typed.replace(' ', '')}`, whatsappOptIn: 'on' })
    expect(submitted.status).toBe(302)
    const after = Date.now()
    const owner = await register(site, { email: 'camp.owner@example.com', name: 'Camp Owner', phone: number.typed })
    const consent = (await exportOf(owner)).whatsappConsent!
    expect(consent).toMatchObject({ number: number.e164, optedIn: true, optInSource: 'camp', optInWording: WHATSAPP_OPT_IN_WORDING })
    expect(between(consent.optedInAt, before, after)).toBe(true)
  })

  it("the signed-in parent's form: the box unticked next to the account's number; ticked, the number typed there is opted in", async () => {
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
    expect((await exportOf(parent)).whatsappConsent).toBeNull()

    const submitted = await parent.post('/onboarding', { intent: 'register_swimmers', swimmers: swimmers[0]!, phone_number: number.shown, camp: 'camp1', batch: 'batch1', website_url: '', whatsappOptIn: 'on' })
    expect(submitted.status).toBe(302)
    expect((await exportOf(parent)).whatsappConsent).toMatchObject({ number: number.e164, optedIn: true, optInSource: 'camp', optInWording: WHATSAPP_OPT_IN_WORDING })
  })
})

import { beforeAll, describe, expect, it } from 'vitest'
import { addMonths, labToday } from '~/lib/lab-time'
import { bookAndPay, chooseSlot, bookableDate } from '../support/booking-flow'
import { decodeHtml, text, Visitor } from '../support/visitor'
import { paySummary } from '../support/camp-summary'
import { useTestSite } from '../support/site'

// Who may see and change what: every route that shows or changes a customer's or the business's
// data, asked by a guest, customer A (who owns the bookings), customer B (another customer) and
// staff. A refusal never shows the owner's data, and a refused change changes nothing.

type Who = 'guest' | 'a' | 'b' | 'admin'
/** ok: 200 · login: sent to sign in and back · not found: 404 (the same as for nothing there) · forbidden: 403 · unauthorised: 401 (JSON) · to book-slot, to booking: sent to start a booking · skip: not asked (it would really change the data). */
type Outcome = 'ok' | 'login' | 'not found' | 'forbidden' | 'unauthorised' | 'refused' | 'to book-slot' | 'to booking' | 'skip'
type Row = { name: string; path: () => string; form?: () => Record<string, string>; upload?: () => FormData; expect: Record<Who, Outcome>; secrets?: () => string[]; shows?: () => string[] }

const site = useTestSite()
const A = { name: 'Asha Owner', email: 'owner.a@example.com' }
const B = { name: 'Bala Other', email: 'other.b@example.com' }
const GUEST = { name: 'Gita Guest', email: 'gita.guest@example.com' }
const CAMPER = { name: 'Chetan Camper', email: 'camper.family@example.com' }

const visitors = {} as Record<Who, Visitor>
const the = {
  a: { reference: '', orderId: '', pendingBookingId: '', customerId: '', reportFile: '', swimmerId: '' },
  b: { reference: '', orderId: '' },
  guestBooking: { reference: '', orderId: '', key: '', viewPath: '', receiptPath: '', statusKey: '' },
  camp: { orderId: '', statusPath: '', receiptPath: '', reference: '', key: '' },
  windowId: '',
}

beforeAll(async () => {
  visitors.guest = new Visitor(site.url)
  visitors.a = await site.customer(A.name, A.email)
  visitors.b = await site.customer(B.name, B.email)
  visitors.admin = await site.staff()

  // A and B each pay for a 3-day session; A also holds a second one, not yet paid.
  the.a.orderId = (await bookAndPay(visitors.a, site.url, 'success', 0, { daysAhead: 2 })).orderId
  the.a.reference = /Booking ID (SWP-\d{10})/.exec(text((await visitors.a.get('/my-bookings')).html))![1]!
  the.b.orderId = (await bookAndPay(visitors.b, site.url, 'success', 1, { daysAhead: 2 })).orderId
  the.b.reference = /Booking ID (SWP-\d{10})/.exec(text((await visitors.b.get('/my-bookings')).html))![1]!
  const slot = await chooseSlot(visitors.a, 2, { daysAhead: 2 })
  const held = await visitors.a.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
  the.a.pendingBookingId = /booking=(\d+)/.exec(held.location!)![1]!

  // A guest books a single session on /booking, and gets a private link by e-mail.
  const guest = new Visitor(site.url)
  const date = bookableDate(4)
  expect((await guest.post('/booking', { name: GUEST.name, email: GUEST.email, phone: '', service: 'race', date, time: '10:00', notes: '', intent: 'details', website_url: '' })).location).toBe('/booking?step=2')
  const pay = await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })
  const back = new URL((await guest.post(pay.location!, { outcome: 'success' })).location!)
  the.guestBooking.orderId = back.searchParams.get('orderId')!
  the.guestBooking.statusKey = back.searchParams.get('key')!
  const confirmation = await site.sink.waitForMailTo(GUEST.email, /Booking confirmed/)
  const viewUrl = new URL(/(http:\/\/\S+\/booking\/view\?ref=SWP-\d+&key=[\w-]+)/.exec(confirmation.text)![1]!)
  the.guestBooking.viewPath = `${viewUrl.pathname}${viewUrl.search}`
  the.guestBooking.reference = viewUrl.searchParams.get('ref')!
  the.guestBooking.key = viewUrl.searchParams.get('key')!
  the.guestBooking.receiptPath = /href="(\/receipts\/[^"]+\?key=[^"]+)"/.exec(decodeHtml((await guest.get(the.guestBooking.viewPath)).html))![1]!

  // A parent registers a swimmer for a camp and pays.
  const parent = new Visitor(site.url)
  const submitted = await parent.post('/onboarding', { name: CAMPER.name, email: CAMPER.email, phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '' })
  const campBack = new URL((await parent.post((await paySummary(parent, submitted.location!)).location!, { outcome: 'success' })).location!)
  the.camp.statusPath = `${campBack.pathname}${campBack.search}`
  the.camp.orderId = campBack.searchParams.get('orderId')!
  the.camp.key = campBack.searchParams.get('key')!
  const status = decodeHtml((await parent.get(the.camp.statusPath)).html)
  the.camp.receiptPath = /href="(\/receipts\/[^"]+\?key=[^"]+)"/.exec(status)![1]!
  the.camp.reference = /Registration ID\s*([\w-]+)/.exec(text(status))![1]!

  // Staff deliver a report (a PDF and a video link) on A's booking.
  const report = new FormData()
  report.append('files', new Blob([new TextEncoder().encode('%PDF-1.4\n% A report\n%%EOF\n')], { type: 'application/pdf' }), 'Asha - analysis.pdf')
  report.append('videoLinks', 'Underwater | https://video.example/asha-1')
  expect((await visitors.admin.upload(`/admin/bookings/${the.a.reference}`, report)).status).toBe(302)
  the.a.reportFile = /href="(\/reports\/files\/\d+)"/.exec((await visitors.a.get('/my-bookings')).html)![1]!

  the.a.swimmerId = /href="\/swimmers\/(\d+)\/edit"/.exec((await visitors.a.get('/swimmers')).html)![1]!
  the.a.customerId = /href="\/admin\/customers\/(\d+)"/.exec((await visitors.admin.get(`/admin/customers?q=${encodeURIComponent(A.email)}`)).html)![1]!
  const availability = (await visitors.admin.get('/admin/availability')).html
  the.windowId = /href="\/admin\/availability\/(\d+)"/.exec(availability)![1]!
}, 120_000)

const aSecrets = () => [A.name, A.email, the.a.orderId, the.a.reference]
const guestSecrets = () => [GUEST.name, GUEST.email, the.guestBooking.orderId]
const campSecrets = () => [CAMPER.name, CAMPER.email, the.camp.orderId]
const staffOnly = { guest: 'login', a: 'forbidden', b: 'forbidden', admin: 'ok' } as const
const ownerA = { guest: 'login', a: 'ok', b: 'not found', admin: 'ok' } as const
const linkHolders = { guest: 'ok', a: 'ok', b: 'ok', admin: 'ok' } as const
const nobody = { guest: 'not found', a: 'not found', b: 'not found', admin: 'not found' } as const
const wrongKey = 'k'.repeat(32)
const farMonth = addMonths(labToday().slice(0, 7), 3)

const pages: Row[] = [
  { name: 'My Bookings', path: () => '/my-bookings', expect: { guest: 'login', a: 'ok', b: 'ok', admin: 'ok' } },
  { name: 'My Swimmers', path: () => '/swimmers', expect: { guest: 'login', a: 'ok', b: 'ok', admin: 'ok' } },
  { name: 'adding a swimmer', path: () => '/swimmers/new', expect: { guest: 'login', a: 'ok', b: 'ok', admin: 'ok' } },
  // A swimmer is their account's alone: staff see swimmers in the console, not through the account's pages.
  { name: "A's swimmer's edit page", path: () => `/swimmers/${the.a.swimmerId}/edit`, expect: { guest: 'login', a: 'ok', b: 'not found', admin: 'not found' }, secrets: aSecrets, shows: () => [A.name] },
  { name: 'Your data', path: () => '/account/data', expect: { guest: 'login', a: 'ok', b: 'ok', admin: 'ok' }, secrets: aSecrets },
  { name: 'Deleting your account', path: () => '/account/data/delete', expect: { guest: 'login', a: 'ok', b: 'ok', admin: 'ok' }, secrets: aSecrets },
  { name: "Deleting A's own swimmer profile (only the account can be deleted)", path: () => `/account/data/delete?swimmer=${the.a.swimmerId}`, expect: { guest: 'login', a: 'not found', b: 'not found', admin: 'not found' }, secrets: aSecrets },
  { name: "A's cancel page", path: () => `/bookings/${the.a.reference}/cancel`, expect: ownerA, secrets: aSecrets, shows: () => ['Cancel your booking', the.a.reference] },
  { name: "A's reschedule page", path: () => `/bookings/${the.a.reference}/reschedule`, expect: ownerA, secrets: aSecrets, shows: () => [the.a.reference] },
  { name: "the guest's cancel page, with its link", path: () => `/bookings/${the.guestBooking.reference}/cancel?key=${the.guestBooking.key}`, expect: linkHolders, shows: () => ['Cancel your booking'] },
  { name: "the guest's cancel page, without the link", path: () => `/bookings/${the.guestBooking.reference}/cancel`, expect: { guest: 'login', a: 'not found', b: 'not found', admin: 'ok' }, secrets: guestSecrets },
  { name: "the guest's reschedule page, with a wrong key", path: () => `/bookings/${the.guestBooking.reference}/reschedule?key=${wrongKey}`, expect: nobody, secrets: guestSecrets },
  { name: "A's receipt", path: () => `/receipts/${the.a.orderId}`, expect: { guest: 'not found', a: 'ok', b: 'not found', admin: 'ok' }, secrets: aSecrets },
  { name: "A's receipt with a made-up key", path: () => `/receipts/${the.a.orderId}?key=${wrongKey}`, expect: { guest: 'not found', a: 'ok', b: 'not found', admin: 'ok' }, secrets: aSecrets },
  { name: "the guest booking's receipt, with its link", path: () => the.guestBooking.receiptPath, expect: linkHolders },
  { name: "the guest booking's receipt, without the link", path: () => `/receipts/${the.guestBooking.orderId}`, expect: { guest: 'not found', a: 'not found', b: 'not found', admin: 'ok' }, secrets: guestSecrets },
  { name: 'the camp receipt, with its link', path: () => the.camp.receiptPath, expect: linkHolders },
  { name: 'the camp receipt, without the link', path: () => `/receipts/${the.camp.orderId}`, expect: { guest: 'not found', a: 'not found', b: 'not found', admin: 'ok' }, secrets: campSecrets },
  { name: "A's report file", path: () => the.a.reportFile, expect: { guest: 'not found', a: 'ok', b: 'not found', admin: 'ok' } },
  { name: "A's report file with a made-up key", path: () => `${the.a.reportFile}?key=${wrongKey}`, expect: { guest: 'not found', a: 'ok', b: 'not found', admin: 'ok' } },
  { name: "A's unpaid booking's payment page", path: () => `/slot-payment?booking=${the.a.pendingBookingId}`, expect: { guest: 'login', a: 'ok', b: 'to book-slot', admin: 'to book-slot' }, secrets: aSecrets, shows: () => [A.email] },
  // The payment status pages answer the account that paid; staff see payments in the console.
  { name: "A's payment status", path: () => `/slot-payment-status?orderId=${the.a.orderId}`, expect: { guest: 'login', a: 'ok', b: 'not found', admin: 'not found' }, secrets: () => [A.name, A.email], shows: () => ['Payment Successful!'] },
  { name: "A's payment status check (JSON)", path: () => `/slot-payment-status/check?orderId=${the.a.orderId}`, expect: { guest: 'unauthorised', a: 'ok', b: 'not found', admin: 'not found' }, secrets: aSecrets, shows: () => ['"completed"'] },
  { name: "the guest's payment status, by order id alone", path: () => `/slot-payment-status?orderId=${the.guestBooking.orderId}`, expect: { guest: 'login', a: 'not found', b: 'not found', admin: 'not found' }, secrets: guestSecrets },
  { name: "the guest's booking check, with its link", path: () => `/booking/check?orderId=${the.guestBooking.orderId}&key=${the.guestBooking.statusKey}`, expect: linkHolders, shows: () => ['"completed"'] },
  { name: "the guest's booking check, with a wrong key", path: () => `/booking/check?orderId=${the.guestBooking.orderId}&key=${wrongKey}`, expect: nobody, secrets: guestSecrets },
  { name: "the guest's confirmation step, with its link", path: () => `/booking?step=3&orderId=${the.guestBooking.orderId}&key=${the.guestBooking.statusKey}`, expect: linkHolders, shows: () => ['Booking Confirmed!', the.guestBooking.reference] },
  { name: "the guest's confirmation step, with a wrong key", path: () => `/booking?step=3&orderId=${the.guestBooking.orderId}&key=${wrongKey}`, expect: { guest: 'to booking', a: 'to booking', b: 'to booking', admin: 'to booking' }, secrets: guestSecrets },
  { name: "the guest's private view", path: () => the.guestBooking.viewPath, expect: linkHolders, shows: () => [GUEST.email, 'Confirmed'] },
  { name: "the guest's private view, with a wrong key", path: () => `/booking/view?ref=${the.guestBooking.reference}&key=${wrongKey}`, expect: nobody, secrets: guestSecrets },
  { name: "the guest's private view, without a key", path: () => `/booking/view?ref=${the.guestBooking.reference}`, expect: nobody, secrets: guestSecrets },
  { name: 'the camp payment status, with its link', path: () => the.camp.statusPath, expect: linkHolders, shows: () => ['Registration Complete!', CAMPER.email] },
  { name: 'the camp payment status, with a wrong key', path: () => `/payment-status?orderId=${the.camp.orderId}&key=${wrongKey}`, expect: nobody, secrets: campSecrets },
  { name: 'the camp payment status, without a key', path: () => `/payment-status?orderId=${the.camp.orderId}`, expect: nobody, secrets: campSecrets },
  { name: 'the camp payment check (JSON), with its link', path: () => `/payment-status/check?orderId=${the.camp.orderId}&key=${the.camp.key}`, expect: linkHolders, shows: () => ['"completed"'] },
  { name: 'the camp payment check (JSON), with a wrong key', path: () => `/payment-status/check?orderId=${the.camp.orderId}&key=${wrongKey}`, expect: nobody, secrets: campSecrets },
  { name: 'a waitlist offer, with a made-up key', path: () => `/onboarding/offer?registration=${the.camp.reference}&key=${wrongKey}`, expect: nobody, secrets: campSecrets },
  { name: 'a waitlist place, with a made-up key', path: () => `/onboarding/waitlist?entry=1&key=${wrongKey}`, expect: nobody },
  { name: "A's swimmer's consent page", path: () => `/swimmers/${the.a.swimmerId}/consent`, expect: { guest: 'login', a: 'ok', b: 'not found', admin: 'not found' }, secrets: aSecrets, shows: () => ['no parent needs to agree'] },
  { name: "a parent's consent link, with a made-up token", path: () => `/consent/${'k'.repeat(43)}`, expect: nobody },
  { name: "a parent's link to withdraw consent, with a made-up key", path: () => `/consent/withdraw/1?key=${'k'.repeat(32)}`, expect: nobody },
  { name: "a city alert's confirmation link, with a made-up token", path: () => `/city-alerts/${'k'.repeat(43)}`, expect: nobody },
  { name: "a city alert's stop link, with a made-up token", path: () => `/city-alerts/stop/${'k'.repeat(43)}`, expect: nobody },
  ...[
    '/admin',
    '/admin/availability',
    `/admin/availability/:window`,
    '/admin/venues',
    '/admin/venues/1',
    '/admin/kits',
    '/admin/analysis-days',
    '/admin/bookings',
    '/admin/bookings/new',
    '/admin/bookings.csv',
    '/admin/bookings/:a',
    '/admin/camps',
    '/admin/camps/camp1',
    '/admin/camps/camp1/registrations.csv',
    '/admin/customers',
    '/admin/customers/:a',
    '/admin/settings',
    '/admin/media',
    '/admin/partners',
    '/admin/testimonials',
    '/admin/messages',
    '/admin/audit',
    // Analyses
    '/admin/bookings/:a/analysis',
    '/admin/reference-bands',
    '/admin/sample-analysis',
  ].map((template): Row => ({
    name: template,
    path: () => template.replace(':window', the.windowId).replace(':a', template.includes('customers') ? the.a.customerId : the.a.reference),
    expect: staffOnly,
    secrets: () => [...aSecrets(), ...campSecrets(), ...guestSecrets()],
  })),
  // The lab's day sheet on the guest's date lists the guest: staff see them, nobody else sees anything.
  { name: "the lab's day sheet on the guest's date", path: () => `/admin/venues/1/day/${bookableDate(4)}`, expect: staffOnly, secrets: guestSecrets, shows: () => [the.guestBooking.reference] },
  // No analysis day exists here: staff are told so; everyone else is refused before that.
  { name: 'an analysis day', path: () => '/admin/analysis-days/1', expect: { ...staffOnly, admin: 'not found' } },
]

// Each of these would change a booking, a payment, an account or the business's settings.
const changes: Row[] = [
  { name: "edit A's swimmer", path: () => `/swimmers/${the.a.swimmerId}/edit`, form: () => swimmerForm('Taken Over'), expect: { guest: 'login', a: 'skip', b: 'not found', admin: 'not found' }, secrets: aSecrets },
  { name: 'add a swimmer', path: () => '/swimmers/new', form: () => swimmerForm('Added Stranger'), expect: { guest: 'login', a: 'skip', b: 'skip', admin: 'skip' } },
  { name: 'download the data export', path: () => '/account/data/export', form: () => ({}), expect: { guest: 'login', a: 'skip', b: 'skip', admin: 'skip' } },
  { name: 'delete an account', path: () => '/account/data/delete', form: () => ({ intent: 'delete', password: 'butterfly-2027' }), expect: { guest: 'login', a: 'skip', b: 'skip', admin: 'skip' } },
  { name: "delete A's own swimmer profile", path: () => `/account/data/delete?swimmer=${the.a.swimmerId}`, form: () => ({ intent: 'delete', password: 'butterfly-2027' }), expect: { guest: 'login', a: 'not found', b: 'not found', admin: 'not found' }, secrets: aSecrets },
  { name: "cancel A's booking", path: () => `/bookings/${the.a.reference}/cancel`, form: () => ({ website_url: '' }), expect: { guest: 'login', a: 'skip', b: 'not found', admin: 'skip' }, secrets: aSecrets },
  {
    name: "reschedule A's booking",
    path: () => `/bookings/${the.a.reference}/reschedule`,
    form: () => ({ date: bookableDate(10), time: '10:00', website_url: '' }),
    expect: { guest: 'login', a: 'skip', b: 'not found', admin: 'skip' },
    secrets: aSecrets,
  },
  { name: "cancel the guest's booking without its link", path: () => `/bookings/${the.guestBooking.reference}/cancel`, form: () => ({ website_url: '' }), expect: { guest: 'login', a: 'not found', b: 'not found', admin: 'skip' }, secrets: guestSecrets },
  // The private link alone only e-mails the booking's address a link to confirm (once here: sending is limited per booking).
  { name: "cancel the guest's booking with its link alone", path: () => `/bookings/${the.guestBooking.reference}/cancel?key=${the.guestBooking.key}`, form: () => ({ website_url: '' }), expect: { guest: 'ok', a: 'skip', b: 'skip', admin: 'skip' }, shows: () => ['We have e-mailed a confirmation link'] },
  {
    name: "cancel the guest's booking with its link and a made-up confirmation",
    path: () => `/bookings/${the.guestBooking.reference}/cancel?key=${the.guestBooking.key}&until=${Math.floor(Date.now() / 1000) + 600}&confirm=${wrongKey}`,
    form: () => ({ website_url: '' }),
    expect: { guest: 'refused', a: 'refused', b: 'refused', admin: 'refused' },
  },
  { name: "reschedule the guest's booking with its link alone", path: () => `/bookings/${the.guestBooking.reference}/reschedule?key=${the.guestBooking.key}`, form: () => ({ date: bookableDate(10), time: '10:00', website_url: '' }), expect: { guest: 'ok', a: 'skip', b: 'skip', admin: 'skip' }, shows: () => ['We have e-mailed a confirmation link'] },
  {
    name: "reschedule the guest's booking with its link and a made-up confirmation",
    path: () => `/bookings/${the.guestBooking.reference}/reschedule?${new URLSearchParams({ key: the.guestBooking.key, date: bookableDate(10), time: '10:00', until: String(Math.floor(Date.now() / 1000) + 600), confirm: wrongKey })}`,
    form: () => ({ date: bookableDate(10), time: '10:00', website_url: '' }),
    expect: { guest: 'refused', a: 'refused', b: 'refused', admin: 'refused' },
  },
  { name: "reschedule the guest's booking with a wrong key", path: () => `/bookings/${the.guestBooking.reference}/reschedule?key=${wrongKey}`, form: () => ({ date: bookableDate(10), time: '10:00', website_url: '' }), expect: nobody, secrets: guestSecrets },
  { name: "cancel the guest's booking with a wrong key", path: () => `/bookings/${the.guestBooking.reference}/cancel?key=${wrongKey}`, form: () => ({ website_url: '' }), expect: nobody, secrets: guestSecrets },
  { name: "pay for A's held booking", path: () => `/slot-payment?booking=${the.a.pendingBookingId}`, form: () => ({ website_url: '' }), expect: { guest: 'login', a: 'skip', b: 'to book-slot', admin: 'to book-slot' }, secrets: aSecrets },
  { name: 'take up a waitlist offer with a made-up key', path: () => `/onboarding/offer?registration=${the.camp.reference}&key=${wrongKey}`, form: () => ({ website_url: '' }), expect: nobody, secrets: campSecrets },
  { name: 'confirm a waitlist place with a made-up key', path: () => `/onboarding/waitlist?entry=1&key=${wrongKey}`, form: () => ({ website_url: '' }), expect: nobody },
  { name: "withdraw consent for A's swimmer", path: () => `/swimmers/${the.a.swimmerId}/consent`, form: () => ({ intent: 'withdraw', website_url: '' }), expect: { guest: 'login', a: 'skip', b: 'not found', admin: 'not found' }, secrets: aSecrets },
  { name: "send A's parent a consent link", path: () => `/swimmers/${the.a.swimmerId}/consent`, form: () => ({ intent: 'resend', parentEmail: 'stranger@example.com', website_url: '' }), expect: { guest: 'login', a: 'skip', b: 'not found', admin: 'not found' }, secrets: aSecrets },
  { name: "withdraw consent through a parent's link with a made-up key", path: () => `/consent/withdraw/1?key=${'k'.repeat(32)}`, form: () => ({ intent: 'withdraw', website_url: '' }), expect: nobody },
  { name: "confirm a city alert through a made-up token", path: () => `/city-alerts/${'k'.repeat(43)}`, form: () => ({ website_url: '' }), expect: nobody },
  { name: "stop a city alert through a made-up token", path: () => `/city-alerts/stop/${'k'.repeat(43)}`, form: () => ({ website_url: '' }), expect: nobody },
  { name: "agree through a parent's consent link with a made-up token", path: () => `/consent/${'k'.repeat(43)}`, form: () => ({ intent: 'agree', guardianName: 'Forged Parent', declaration: 'on', website_url: '' }), expect: nobody },
  {
    name: 'open availability',
    path: () => '/admin/availability',
    form: () => ({ intent: 'create', from: `${farMonth}-01`, to: `${farMonth}-10`, weekdays: '1', startTime: '10:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '1' }),
    expect: { ...staffOnly, admin: 'skip' },
  },
  { name: 'add a venue', path: () => '/admin/venues', form: () => ({ name: 'Forged pool', address: 'Nowhere', city: 'Pune', stateCode: '27', travelMinutes: '60' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: 'send a staff member to a venue', path: () => '/admin/venues/1', form: () => ({ intent: 'assign', userId: '1', fromDate: bookableDate(12), fromTime: '09:00', toDate: bookableDate(12), toTime: '10:00' }), expect: { ...staffOnly, admin: 'skip' } },
  {
    name: 'add an analysis day',
    path: () => '/admin/analysis-days',
    form: () => ({ venueId: '1', productCode: 'race_analysis', firstDate: bookableDate(12), lastDate: bookableDate(12), startTime: '09:00', endTime: '12:00', slotMinutes: '20', rigs: '1', price: '1', hostSeats: '0', releaseDate: bookableDate(10), releaseTime: '07:00' }),
    expect: { ...staffOnly, admin: 'skip' },
  },
  { name: 'close an analysis day', path: () => '/admin/analysis-days/1', form: () => ({ intent: 'close' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: "mark attendance from the lab's day sheet", path: () => `/admin/venues/1/day/${bookableDate(4)}`, form: () => ({ intent: 'attendance', booking: '1', attendance: 'no_show' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: 'retire a kit', path: () => '/admin/kits', form: () => ({ intent: 'retire', id: '1' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: 'delete a partner or venue', path: () => '/admin/partners', form: () => ({ intent: 'delete', id: '1' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: 'withdraw a testimonial', path: () => '/admin/testimonials', form: () => ({ intent: 'withdraw', id: '1' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: "agree to a testimonial through a made-up token", path: () => `/testimonials/${'k'.repeat(43)}`, form: () => ({ intent: 'agree', website_url: '' }), expect: nobody },
  { name: 'withdraw a testimonial through a link with a made-up key', path: () => `/testimonials/withdraw/1?key=${'k'.repeat(32)}`, form: () => ({ intent: 'withdraw', website_url: '' }), expect: nobody },
  { name: 'publish a sample analysis', path: () => '/admin/sample-analysis', form: () => ({ intent: 'publish', sampleId: '1' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: 'delete from the media library', path: () => '/admin/media', form: () => ({ intent: 'delete', id: '1' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: 'change a price', path: () => '/admin/settings', form: () => ({ intent: 'price', code: 'biomechanical_package', price: '1', regularPrice: '2' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: "cancel A's booking from the console", path: () => `/admin/bookings/${the.a.reference}`, form: () => ({ intent: 'cancel', refund: 'yes', confirm: 'yes' }), expect: { ...staffOnly, admin: 'skip' }, secrets: aSecrets },
  { name: "replace A's report", path: () => `/admin/bookings/${the.a.reference}`, upload: () => forgedReport(), expect: { ...staffOnly, admin: 'skip' }, secrets: aSecrets },
  { name: 'book a complimentary session', path: () => '/admin/bookings/new', form: () => ({ name: 'Free Rider', email: 'free.rider@example.com', phone: '9845012345', product: 'single_race', date: bookableDate(12), time: '10:00', origin: 'complimentary', amount: '0', paymentMethod: 'Cash', notes: '' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: "disable A's account", path: () => `/admin/customers/${the.a.customerId}`, form: () => ({ intent: 'disable' }), expect: { ...staffOnly, admin: 'skip' }, secrets: aSecrets },
  { name: 'cancel the camp registration', path: () => '/admin/camps/camp1', form: () => ({ intent: 'cancel', reference: the.camp.reference, refund: 'yes' }), expect: { ...staffOnly, admin: 'skip' }, secrets: campSecrets },
  { name: "close A's opening hours", path: () => `/admin/availability/${the.windowId}`, form: () => ({ intent: 'close', start: '10:00' }), expect: { ...staffOnly, admin: 'skip' } },
  { name: 'mark a failed refund repaid by hand', path: () => '/admin?index', form: () => ({ refundId: 'RFND_1234567890123_1_abcdefgh', how: 'Bank transfer' }), expect: { ...staffOnly, admin: 'skip' } },
]

/** A valid swimmer form, for an adult, as the add and edit pages send it. */
function swimmerForm(name: string) {
  return { name, age: '30', birthDate: '', gender: 'male', swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'freestyle', participateInEvents: 'no', howDidYouKnow: 'google' }
}

function forgedReport() {
  const form = new FormData()
  form.append('files', new Blob([new TextEncoder().encode('%PDF-1.4\n% forged\n%%EOF\n')], { type: 'application/pdf' }), 'forged.pdf')
  form.append('note', 'Forged by another customer')
  return form
}

async function ask(who: Who, row: Row) {
  const visitor = visitors[who]
  if (row.upload) return visitor.upload(row.path(), row.upload())
  if (row.form) return visitor.post(row.path(), row.form())
  return visitor.get(row.path())
}

function check(who: Who, row: Row, response: Awaited<ReturnType<Visitor['request']>>) {
  const outcome = row.expect[who]
  const label = `${row.name}, as ${who}`
  switch (outcome) {
    case 'ok':
      expect(response.status, label).toBe(200)
      for (const shown of row.shows?.() ?? []) expect(response.html, label).toContain(shown)
      return
    case 'login':
      expect(response.status, label).toBe(302)
      // An index route's form posts to '?index', which React Router leaves out of the address to come back to.
      expect(response.location, label).toBe(`/login?${new URLSearchParams({ redirectTo: row.path().replace(/\?index$/, '') })}`)
      break
    case 'not found':
      expect(response.status, label).toBe(404)
      break
    case 'refused':
      expect(response.status, label).toBe(400)
      break
    case 'forbidden':
      expect(response.status, label).toBe(403)
      break
    case 'unauthorised':
      expect(response.status, label).toBe(401)
      break
    case 'to book-slot':
      expect(response.status, label).toBe(302)
      expect(response.location, label).toBe('/book-slot')
      break
    case 'to booking':
      expect(response.status, label).toBe(302)
      expect(response.location, label).toBe('/booking')
      break
  }
  // A refusal shows nothing of the owner's (a customer's own name is on every page they see).
  const own = who === 'a' ? aSecrets() : []
  for (const secret of (row.secrets?.() ?? []).filter((secret) => !own.includes(secret))) expect(response.html, `${label} shows ${secret}`).not.toContain(secret)
}

describe('who may see what', () => {
  for (const who of ['guest', 'a', 'b', 'admin'] as const) {
    it(`as ${who}`, async () => {
      for (const row of pages) check(who, row, await ask(who, row))
    })
  }

  // Client-side navigations fetch the same loaders as `<path>.data`: the same answers, the same silence.
  const dataPath = (path: string) => path.replace(/^([^?]*?)\/?(\?|$)/, (_, pathname: string, query: string) => `${pathname || ''}.data${query}`)
  const documents = () => pages.filter((row) => !/^\/(receipts|reports)\/|\/check\b|\.csv/.test(row.path()))
  for (const who of ['guest', 'a', 'b', 'admin'] as const) {
    it(`as ${who}, through data requests`, async () => {
      for (const row of documents()) {
        const response = await visitors[who].get(dataPath(row.path()))
        const outcome = row.expect[who]
        const label = `${row.name} (.data), as ${who}`
        if (outcome === 'ok') expect(response.status, label).toBe(200)
        else expect(response.status, label).not.toBe(200)
        if (outcome === 'ok') continue
        // The way to sign in names the address asked for, with whatever id the asker typed in it.
        const known = [...(who === 'a' ? aSecrets() : []), ...(row.secrets?.() ?? []).filter((secret) => row.path().includes(secret))]
        for (const secret of (row.secrets?.() ?? []).filter((secret) => !known.includes(secret))) expect(response.html, `${label} shows ${secret}`).not.toContain(secret)
      }
    })
  }

  it("My Bookings shows each customer only their own bookings", async () => {
    const mineA = text((await visitors.a.get('/my-bookings')).html)
    expect(mineA).toContain(the.a.reference)
    expect(mineA).toContain('Report ready')
    for (const other of [the.b.reference, B.email, B.name, the.guestBooking.reference, GUEST.email]) expect(mineA).not.toContain(other)
    const mineB = (await visitors.b.get('/my-bookings')).html
    expect(text(mineB)).toContain(the.b.reference)
    for (const other of [the.a.reference, A.email, A.name, the.a.reportFile, the.guestBooking.reference]) expect(mineB).not.toContain(other)
  })
})

describe('who may change what', () => {
  it('refuses every change to someone who may not make it, and nothing changes', async () => {
    const audit = text((await visitors.admin.get('/admin/audit')).html)
    const before = await snapshot()
    for (const row of changes) {
      for (const who of ['guest', 'a', 'b', 'admin'] as const) {
        if (row.expect[who] !== 'skip') check(who, row, await ask(who, row))
      }
    }
    expect(await snapshot()).toEqual(before)
    expect(text((await visitors.admin.get('/admin/audit')).html)).toBe(audit)
  })
})

/** What the owners and staff see of everything the refused requests tried to change. */
async function snapshot() {
  const mine = text((await visitors.a.get('/my-bookings')).html)
  const guestView = text((await visitors.guest.get(the.guestBooking.viewPath)).html)
  const pricing = text((await visitors.guest.get('/pricing')).html)
  return {
    aSignedIn: (await visitors.a.get('/my-bookings')).status,
    aSwimmers: text(/<main[^]*<\/main>/.exec((await visitors.a.get('/swimmers')).html)![0]),
    aBooking: mine.slice(mine.indexOf(the.a.reference) - 300, mine.indexOf(the.a.reference) + 300),
    aDays: /Day 1 ?: [^]*?Day 3 ?: \S+ \S+ \S+/.exec(mine.slice(mine.indexOf(the.a.reference)))?.[0],
    aReport: /Report ready[^]{0,300}/.exec(mine)?.[0],
    aPending: (await visitors.a.get(`/slot-payment?booking=${the.a.pendingBookingId}`)).status,
    guestBooking: /Status (\S+)/.exec(guestView)?.[1],
    camp: /Registration Complete!/.test(text((await visitors.guest.get(the.camp.statusPath)).html)),
    price: /₹[\d,]+/.exec(pricing.slice(pricing.indexOf('Biomechanical')))?.[0],
    farMonthOpen: /href="\/book-slot\?month=[\d-]+&date=/.test(decodeHtml((await visitors.b.get(`/book-slot?month=${farMonth}`)).html)),
    slotTimes: [...decodeHtml((await visitors.admin.get(`/admin/availability/${the.windowId}`)).html).matchAll(/\d\d?:\d\d [AP]M/g)].map((match) => match[0]).join(' '),
    complimentary: text((await visitors.admin.get(`/admin/bookings?q=${encodeURIComponent('free.rider@')}`)).html).includes('Free Rider'),
  }
}

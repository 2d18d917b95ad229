import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { createCookie } from 'react-router'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { addDays, addMinutes, labToday } from '~/lib/lab-time'
import { BOOKABLE_DATE_MESSAGE } from '~/modules/booking/schemas'
import { DATE_RANGE_MESSAGE } from '~/modules/forms/fields'
import { analysisDays, bookingDays, bookings, users } from '~/db/schema'
import { GUEST_BOOKING_LINK, privateLinkPath } from '~/lib/private-links.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { swimmerInput } from '../../tests/support/accounts'
import { analysisDayForm, publishedDay, readyVenue } from '../../tests/support/analysis-days'
import { createAnalysisDay } from '~/modules/booking/analysis-days.server'
import { hashPassword } from '~/modules/accounts/passwords.server'
import { anyValue, hostileQuery, hostileSegment, invalidSubmission, MALFORMED_BODIES, OUT_OF_RANGE_DATES, OUT_OF_RANGE_MONTHS, randomSubmission, type FormSpec } from '../../tests/support/hostile-input'
import { signInUser } from '../../tests/support/booking'
import { useTestDatabase } from '../../tests/support/test-database'
import * as adminAvailability from './admin/availability'
import * as myBookings from './account/my-bookings'
import * as accountData from './account/account.data'
import * as accountDeletion from './account/account.data.delete'
import * as swimmerNew from './account/swimmers.new'
import * as swimmerEdit from './account/swimmers.$id.edit'
import * as swimmerConsent from './account/swimmers.$id.consent'
import * as receipt from './booking/receipts.$orderId'
import * as creditNote from './booking/credit-notes.$refundId'
import * as slotPaymentStatus from './booking/slot-payment-status'
import * as paymentStatus from './camps/payment-status'
import * as bookingView from './booking/booking.view'
import * as adminMessages from './admin/messages'
import * as adminAudit from './admin/audit'
import * as adminCustomers from './admin/customers'
import * as adminBookingsCsv from './admin/bookings.csv'
import * as adminBookings from './admin/bookings'
import * as adminCampCsv from './admin/camp-registrations-csv'
import * as adminBooking from './admin/booking'
import * as adminBookingNew from './admin/booking-new'
import * as adminCamp from './admin/camp'
import * as adminCamps from './admin/camps'
import * as adminCustomer from './admin/customer'
import * as adminSettings from './admin/settings'
import * as adminPromoCodes from './admin/promo-codes'
import * as adminWindow from './admin/window'
import * as adminAnalysisDay from './admin/analysis-day'
import * as adminAnalysisDays from './admin/analysis-days'
import * as adminDaySheet from './admin/day-sheet'
import * as analysisDay from './booking/analysis-day'
import * as analysisDayWaitlist from './booking/analysis-day.waitlist'
import * as analysisDaysList from './booking/analysis-days'
import * as cityAlertConfirm from './booking/city-alerts.$token'
import * as cityAlertStop from './booking/city-alerts.stop.$token'
import * as adminKits from './admin/kits'
import * as adminVenue from './admin/venue'
import * as adminVenues from './admin/venues'
import * as bookSlot from './booking/book-slot'
import * as booking from './booking/booking'
import * as bookingCheck from './booking/booking.check'
import * as bookingTimes from './booking/booking.times'
import * as cancel from './booking/bookings.$reference.cancel'
import * as reschedule from './booking/bookings.$reference.reschedule'
import * as forgotPassword from './account/forgot-password'
import * as login from './account/login'
import * as campRegistration from './camps/camp-registration'
import * as offer from './camps/camp-registration.offer'
import * as waitlistPlace from './camps/camp-registration.waitlist'
import * as paymentStatusCheck from './camps/payment-status.check'
import * as registration from './account/registration'
import * as reportFile from './results/reports.files.$fileId'
import * as slotPayment from './booking/slot-payment'
import * as slotPaymentStatusCheck from './booking/slot-payment-status.check'
import * as verifyEmail from './account/verify-email'

// Every form action (and the JSON endpoints) called the way React Router calls them, with malformed
// and hostile submissions: never a crash or a 5xx, a 4xx always says what is wrong, and nothing in
// the database changes. Rate-limit counters are the one write every attempt may make (counting
// attempts is their job), and instance secrets are created once, on first use, by any signed link.

// Shrinking a case that holds 100 KB strings can take longer than the test may; the first failing case is reported as found.
fc.configureGlobal({ endOnFailure: true })

useTestDatabase()

const UNCHANGED_EXCEPT = new Set(['rate_limit_buckets', 'instance_secrets'])
const RUNS = 20

type Handler = (args: never) => unknown
type Outcome = { status: number; body: unknown; location: string | null; toast: { type: string; title: string } | null }

const toastCookie = createCookie('toast')
const context = { clientIp: '203.0.113.77', cspNonce: '', requestId: 'hostile' }

// Each check's "after" is the next one's "before": one look at the database per case.
let lastContent: Content | undefined

type Content = { wal: string; tables: Record<string, string> }

/**
 * The database's content: where its write-ahead log stands, and each table's rows hashed. Every
 * insert, update or delete is written to the log first, so while the log has not moved since
 * `previous`, nothing has changed and the tables are not read again (reading them all is most of
 * a case's time); when it has moved (a rate-limit counter, say), every table is hashed and compared.
 */
async function contentSince(previous?: Content): Promise<Content> {
  const position = await db().execute<{ wal: string }>(sql`SELECT pg_current_wal_insert_lsn()::text AS wal`)
  const wal = position.rows[0]!.wal
  if (previous?.wal === wal) return previous
  return { wal, tables: await tableHashes() }
}

/** Each table's content, hashed: an insert, update or delete anywhere changes it. */
async function tableHashes() {
  const tables = await db().execute<{ tablename: string }>(sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)
  const watched = tables.rows.map((row) => row.tablename).filter((table) => !UNCHANGED_EXCEPT.has(table))
  const query = watched.map((table) => `SELECT '${table}' AS name, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS hash FROM "${table}" t`).join(' UNION ALL ')
  const result = await db().execute<{ name: string; hash: string }>(sql.raw(query))
  return Object.fromEntries(result.rows.map((row) => [row.name, row.hash]))
}

/** What the handler answered (returned or threw), as the browser would see it; any other throw fails the test. */
async function outcomeOf(handler: Handler, request: Request, params: Record<string, string> = {}): Promise<Outcome> {
  let answer: unknown
  try {
    answer = await handler({ request, params, context } as never)
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isData(thrown)) throw thrown
    answer = thrown
  }
  if (answer instanceof Response) {
    const cookie = answer.headers.getSetCookie().find((value) => value.startsWith('toast='))
    const toast = cookie ? await toastCookie.parse(cookie.split(';')[0]!) : null
    const body = answer.headers.get('Content-Type')?.includes('json') ? await answer.json() : await answer.text()
    return { status: answer.status, body, location: answer.headers.get('Location'), toast }
  }
  if (isData(answer)) return { status: answer.init?.status ?? 200, body: answer.data, location: null, toast: null }
  return { status: 200, body: answer, location: null, toast: null }
}

function isData(value: unknown): value is { data: unknown; init?: { status?: number } } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'DataWithResponseInit'
}

/** Some words for the person: a field message, the form's alert, or the error text of a JSON answer. */
function message(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined
  if (Array.isArray(body)) return body.map(message).find(Boolean)
  if (typeof body !== 'object' || body === null) return undefined
  for (const [key, value] of Object.entries(body)) {
    const found = key === 'error' || key === 'formErrors' ? deepText(value) : message(value)
    if (found) return found
  }
  return undefined
}

function deepText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined
  if (typeof value === 'object' && value !== null) return Object.values(value).map(deepText).find(Boolean)
  return undefined
}

function post(path: string, body: BodyInit | null, headers: Record<string, string> = {}) {
  return new Request(`http://localhost${path}`, { method: 'POST', body, headers })
}

type FormResult = { status: string; initialValue: unknown; error?: Record<string, unknown> | null }

/** The form results (what the form shows again, with its messages) in an answer, wherever the action put them. */
function formResults(body: unknown): FormResult[] {
  if (typeof body !== 'object' || body === null) return []
  if (typeof (body as FormResult).status === 'string' && 'initialValue' in body) return [body as FormResult]
  return Object.values(body).flatMap(formResults)
}

/** The messages a form result shows next to its fields, and above them. */
const formMessages = (result: FormResult) => Object.values(result.error ?? {}).flat().filter((text) => typeof text === 'string' && text.trim() !== '')

/**
 * Every answer to bad input: no crash, no 5xx, a message with a 4xx, and the database as it was.
 * `mustRefuse`: the input cannot be accepted, and the answer says so the ways a refusal looks:
 * a 4xx with its message (a form's messages next to its fields), or a redirect with an error
 * toast, or to where the person must start again (sign in, register, the booking's first step).
 */
async function expectRefusedCleanly(handler: Handler, request: () => Request, params?: Record<string, string>, { mustRefuse = true } = {}) {
  const before = lastContent ?? (await contentSince())
  const outcome = await outcomeOf(handler, request(), params)
  const seen = `${outcome.status} ${outcome.location} ${JSON.stringify(outcome.toast)} ${JSON.stringify(outcome.body)?.slice(0, 500)}`
  expect(outcome.status, seen).toBeLessThan(500)
  if (outcome.status >= 400) expect(message(outcome.body), `status ${outcome.status} without a message`).toBeTruthy()
  const forms = formResults(outcome.body)
  if (outcome.status >= 400 && forms.length > 0) expect(forms.flatMap(formMessages), `a refused form without its messages: ${seen}`).not.toEqual([])
  if (mustRefuse) {
    expect(outcome.status, `accepted: ${seen}`).toBeGreaterThanOrEqual(300)
    if (outcome.status < 400) {
      const startAgain = /^\/(login\?|registration$|booking$)/.test(outcome.location ?? '')
      expect(outcome.toast?.type === 'error' || startAgain, `redirected as if accepted: ${seen}`).toBe(true)
    }
    expect(outcome.toast?.type).not.toBe('success')
  }
  lastContent = await contentSince(before)
  expect(lastContent.tables).toEqual(before.tables)
  return outcome
}

let customerCookie = ''
let adminCookie = ''
let customerId = 0
/** A child of the customer's account, under 18 and without a parent's consent. */
let childId = 0
let windowId = 0
let homeVenueId = 0
// One real password hash for every test: hashing is deliberately slow, and these accounts only need to exist.
const passwordHash = hashPassword('butterfly-2027')

async function signedInAs(email: string, isAdmin: boolean) {
  const [user] = await db().insert(users).values({ name: 'Hostile Tester', email, passwordHash: await passwordHash, phone: '9845012345', isVerified: true, isAdmin }).returning({ id: users.id })
  return { id: user!.id, cookie: (await signInUser(user!.id)).cookie }
}

beforeEach(async () => {
  lastContent = undefined
  const customer = await signedInAs('hostile.customer@example.com', false)
  customerId = customer.id
  customerCookie = customer.cookie
  childId = (await insertSwimmer(db(), customer.id, 'Kavya Rao', swimmerInput(), { isAccountHolder: false, now: new Date() })).id
  adminCookie = (await signedInAs('hostile.staff@lab.example', true)).cookie
  const window = await db().execute<{ id: number }>(sql`SELECT id FROM availability_windows WHERE NOT is_holiday ORDER BY id LIMIT 1`)
  windowId = window.rows[0]!.id
  const home = await db().execute<{ id: number }>(sql`SELECT id FROM venues WHERE is_home`)
  homeVenueId = home.rows[0]!.id
})

const future = addDays(labToday(), 20)

/** A guest's confirmed, paid-for booking (a week or more ahead, on the seeded opening hours), with its private link's key. */
async function confirmedGuestBooking() {
  const window = await db().execute<{ id: number; date: string; start: string; end: string }>(
    sql`SELECT id, date::text AS date, to_char(start_time, 'HH24:MI') AS start, to_char(start_time + interval '1 hour', 'HH24:MI') AS end FROM availability_windows WHERE NOT is_holiday AND date >= ${addDays(labToday(), 7)} ORDER BY date LIMIT 1`,
  )
  const day = window.rows[0]!
  const reference = 'SWP-7000000001'
  const [booking] = await db()
    .insert(bookings)
    .values({ reference, productCode: 'single_race', swimmerName: 'Gita Guest', customerName: 'Gita Guest', customerEmail: 'gita.guest@example.com', startTime: day.start, endTime: day.end, amountPaise: 5_000_00, status: 'confirmed', confirmedAt: new Date() })
    .returning({ id: bookings.id })
  await db().insert(bookingDays).values({ bookingId: booking!.id, dayNumber: 1, windowId: day.id, date: day.date, startTime: day.start, endTime: day.end })
  const key = new URL(await privateLinkPath(GUEST_BOOKING_LINK, reference), 'http://localhost').searchParams.get('key')!
  return { reference, key, date: day.date, time: day.start }
}

type FormCase = { name: string; path: string; handler: Handler; spec: FormSpec; who: 'guest' | 'customer' | 'admin'; params?: () => Record<string, string> }

/** A swimmer's fields as the add and edit forms send them, and the kind of each that must refuse bad input. */
const SWIMMER_FORM: FormSpec = {
  valid: { name: 'Meera Rao', age: '12', birthDate: '', gender: 'female', swimmingExperience: 'intermediate', academyName: 'NA', coachName: 'NA', specialization: 'freestyle', otherSpecialization: '', participateInEvents: 'no', strokeBestTime: '', guardianDeclaration: 'on' },
  strict: { name: 'name', age: 'count', gender: 'choice', swimmingExperience: 'choice', specialization: 'choice', participateInEvents: 'choice' },
}

/** An analysis day's fields as the add and edit forms send them (the venue, id 2, is not one: a typed field is always broken). */
const ANALYSIS_DAY_FORM: FormSpec = {
  valid: { venueId: '2', productCode: 'race_analysis', firstDate: future, lastDate: future, startTime: '09:00', endTime: '17:00', slotMinutes: '20', rigs: '1', price: '1,500', hostSeats: '3', releaseDate: addDays(future, -3), releaseTime: '07:00', whatToBring: '' },
  strict: { venueId: 'choice', productCode: 'choice', firstDate: 'date', lastDate: 'date', startTime: 'time', endTime: 'time', slotMinutes: 'count', rigs: 'count', price: 'rupees', hostSeats: 'count', releaseDate: 'date', releaseTime: 'time' },
}

const FORMS: FormCase[] = [
  { name: 'add a swimmer', path: '/swimmers/new', handler: swimmerNew.action, who: 'customer', spec: SWIMMER_FORM },
  { name: 'edit a swimmer', path: '/swimmers/1/edit', handler: swimmerEdit.action, who: 'customer', params: () => ({ id: String(childId) }), spec: SWIMMER_FORM },
  { name: "a parent's consent given again", path: '/swimmers/1/consent', handler: swimmerConsent.action, who: 'customer', params: () => ({ id: String(childId) }), spec: { valid: { declaration: 'on' }, strict: { declaration: 'choice' }, fixed: { intent: 'give' } } },
  { name: 'your data: deleting the account', path: '/account/data/delete', handler: accountDeletion.action, who: 'customer', spec: { valid: { password: 'butterfly-2027', code: '' }, strict: { password: 'password' }, fixed: { intent: 'delete' } } },
  { name: 'your data: correcting your details', path: '/account/data', handler: accountData.action, who: 'customer', spec: { valid: { name: 'Ravi Kumar', phone: '9845012345', currentLocation: 'Bengaluru' }, strict: { name: 'name', phone: 'phone' }, fixed: { intent: 'profile' } } },
  { name: 'login', path: '/login', handler: login.action, who: 'guest', spec: { valid: { email: 'hostile.customer@example.com', password: 'butterfly-2027', redirectTo: '/my-bookings' }, strict: { email: 'email', password: 'password' } } },
  {
    name: 'registration',
    path: '/registration',
    handler: registration.action,
    who: 'guest',
    spec: {
      valid: { name: 'Ravi Kumar', email: 'ravi@example.com', password: 'butterfly-2027', phone: '9845012345', age: '26', currentLocation: 'Bengaluru', gender: 'male', swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'butterfly', otherSpecialization: '', participateInEvents: 'yes', strokeBestTime: '', howDidYouKnow: 'google', otherSource: '' },
      strict: { name: 'name', email: 'email', password: 'password', phone: 'phone', age: 'count', gender: 'choice', swimmingExperience: 'choice', specialization: 'choice', participateInEvents: 'choice', howDidYouKnow: 'choice' },
    },
  },
  { name: 'verify-email', path: '/verify-email', handler: verifyEmail.action, who: 'guest', spec: { valid: { email: 'hostile.customer@example.com', code: '123456' }, strict: { email: 'email', code: 'code6' } } },
  { name: 'verify-email resend', path: '/verify-email', handler: verifyEmail.action, who: 'guest', spec: { valid: { email: 'ravi@example.com' }, strict: { email: 'email' }, fixed: { intent: 'resend' } } },
  { name: 'forgot-password request', path: '/forgot-password', handler: forgotPassword.action, who: 'guest', spec: { valid: { email: 'hostile.customer@example.com' }, strict: { email: 'email' }, fixed: { intent: 'request' } } },
  {
    name: 'forgot-password reset',
    path: '/forgot-password',
    handler: forgotPassword.action,
    who: 'guest',
    spec: { valid: { email: 'hostile.customer@example.com', code: '123456', password: 'new-password-1', confirmPassword: 'new-password-1' }, strict: { email: 'email', code: 'code6', password: 'password' }, fixed: { intent: 'reset' } },
  },
  { name: 'booking', path: '/booking', handler: booking.action, who: 'guest', spec: { valid: { name: 'Ravi Kumar', email: 'ravi@example.com', phone: '9845012345', service: 'race', date: future, time: '10:00', notes: '' }, strict: { name: 'name', email: 'email', service: 'choice', date: 'date', time: 'time' } } },
  {
    name: 'booking for someone else',
    path: '/booking',
    handler: booking.action,
    who: 'guest',
    spec: {
      valid: { name: 'Ravi Kumar', email: 'ravi@example.com', phone: '9845012345', service: 'race', date: future, time: '10:00', notes: '', whoSwims: 'someone_else', swimmerName: 'Kavya Kumar', swimmerAge: '12', guardianDeclaration: 'on' },
      strict: { name: 'name', email: 'email', swimmerName: 'name', swimmerAge: 'count' },
    },
  },
  { name: 'camp registration', path: '/onboarding', handler: campRegistration.action, who: 'guest', spec: { valid: { name: 'Ravi Kumar', email: 'ravi@example.com', phone_number: '9845012345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1' }, strict: { name: 'name', email: 'email', phone_number: 'phone' } } },
  { name: 'camp registration waitlist', path: '/onboarding', handler: campRegistration.action, who: 'guest', spec: { valid: { name: 'Ravi Kumar', email: 'ravi@example.com', phone_number: '9845012345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1' }, strict: { name: 'name', email: 'email', phone_number: 'phone' }, fixed: { intent: 'waitlist' } } },
  { name: 'book-slot', path: '/book-slot', handler: bookSlot.action, who: 'customer', spec: { valid: { date: future, time: '09:00' }, strict: { date: 'date', time: 'time' } } },
  {
    name: 'admin availability create',
    path: '/admin/availability',
    handler: adminAvailability.action,
    who: 'admin',
    spec: { valid: { from: future, to: future, weekdays: '1', startTime: '10:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '1' }, strict: { from: 'date', startTime: 'time', endTime: 'time', slotDurationMinutes: 'count', capacity: 'count' }, fixed: { intent: 'create' } },
  },
  { name: 'admin availability holiday', path: '/admin/availability', handler: adminAvailability.action, who: 'admin', spec: { valid: { from: future, to: future, weekdays: '1' }, strict: { from: 'date' }, fixed: { intent: 'holiday' } } },
  { name: 'admin availability unholiday', path: '/admin/availability', handler: adminAvailability.action, who: 'admin', spec: { valid: { date: future }, strict: { date: 'date' }, fixed: { intent: 'unholiday' } } },
  {
    name: 'admin window hours',
    path: '/admin/availability/1',
    handler: adminWindow.action,
    who: 'admin',
    params: () => ({ windowId: String(windowId) }),
    spec: { valid: { startTime: '09:00', endTime: '12:00', slotDurationMinutes: '60', capacity: '2' }, strict: { startTime: 'time', endTime: 'time', slotDurationMinutes: 'count', capacity: 'count' } },
  },
  {
    name: 'admin new venue',
    path: '/admin/venues',
    handler: adminVenues.action,
    who: 'admin',
    spec: { valid: { name: 'Balewadi pool', address: 'Baner, Pune', city: 'Pune', stateCode: '27', mapUrl: '', photoId: '', hostName: '', hostEmail: '', hostPhone: '', travelMinutes: '180' }, strict: { stateCode: 'choice', travelMinutes: 'count' } },
  },
  {
    name: 'admin staff sent to a venue',
    path: '/admin/venues/1',
    handler: adminVenue.action,
    who: 'admin',
    params: () => ({ venueId: String(homeVenueId) }),
    spec: { valid: { userId: '1', fromDate: future, fromTime: '09:00', toDate: future, toTime: '12:00', note: '' }, strict: { userId: 'choice', fromDate: 'date', fromTime: 'time', toDate: 'date', toTime: 'time' }, fixed: { intent: 'assign' } },
  },
  {
    name: 'admin kit placed',
    path: '/admin/kits',
    handler: adminKits.action,
    who: 'admin',
    spec: { valid: { kitId: '1', venueId: '2', fromDate: future, fromTime: '09:00', toDate: future, toTime: '12:00', note: '' }, strict: { kitId: 'choice', venueId: 'choice', fromDate: 'date', fromTime: 'time', toDate: 'date', toTime: 'time' }, fixed: { intent: 'place' } },
  },
  {
    name: 'admin day sheet attendance',
    path: `/admin/venues/1/day/${future}`,
    handler: adminDaySheet.action,
    who: 'admin',
    params: () => ({ venueId: String(homeVenueId), date: future }),
    spec: { valid: { booking: '1', attendance: 'attended' }, strict: { attendance: 'choice' }, fixed: { intent: 'attendance' } },
  },
  { name: 'admin new analysis day', path: '/admin/analysis-days', handler: adminAnalysisDays.action, who: 'admin', spec: ANALYSIS_DAY_FORM },
  { name: 'city alert', path: '/analysis-days', handler: analysisDaysList.action, who: 'customer', spec: { valid: { email: 'hostile.customer@example.com', city: 'Pune', whatsapp: 'on' }, strict: { email: 'email', city: 'name' } } },
  { name: 'admin window close', path: '/admin/availability/1', handler: adminWindow.action, who: 'admin', params: () => ({ windowId: String(windowId) }), spec: { valid: { start: '09:00' }, strict: { start: 'time' }, fixed: { intent: 'close' } } },
  {
    name: 'admin new booking',
    path: '/admin/bookings/new',
    handler: adminBookingNew.action,
    who: 'admin',
    spec: { valid: { name: 'Ravi Kumar', email: 'ravi@example.com', phone: '9845012345', product: 'single_race', date: future, time: '09:00', origin: 'offline', amount: '3,499', paymentMethod: 'Cash', notes: '' }, strict: { name: 'name', email: 'email', product: 'choice', date: 'date', time: 'time', origin: 'choice', amount: 'rupees', paymentMethod: 'choice' } },
  },
  {
    name: 'admin new camp',
    path: '/admin/camps',
    handler: adminCamps.action,
    who: 'admin',
    spec: {
      valid: { code: 'camp9', name: 'Camp 9', startsOn: addDays(future, 30), endsOn: addDays(future, 35), venue: 'Pool', earlyBirdPrice: '30,000', regularPrice: '35,000', earlyBirdDeadline: addDays(future, 10), registration: 'open', 'batches[0].name': 'Batch 1', 'batches[0].code': 'b1', 'batches[0].start1': '09:00', 'batches[0].end1': '10:00', 'batches[0].capacity': '10' },
      strict: { startsOn: 'date', endsOn: 'date', earlyBirdPrice: 'rupees', regularPrice: 'rupees', earlyBirdDeadline: 'date', registration: 'choice', 'batches[0].start1': 'time', 'batches[0].capacity': 'count' },
    },
  },
  {
    name: 'admin camp update',
    path: '/admin/camps/camp1',
    handler: adminCamp.action,
    who: 'admin',
    params: () => ({ code: 'camp1' }),
    spec: { valid: { name: 'Camp 1', startsOn: addDays(future, 30), endsOn: addDays(future, 35), venue: 'Pool', earlyBirdPrice: '30,000', regularPrice: '35,000', earlyBirdDeadline: addDays(future, 10), registration: 'open' }, strict: { startsOn: 'date', endsOn: 'date', earlyBirdPrice: 'rupees', regularPrice: 'rupees', registration: 'choice' }, fixed: { intent: 'update-camp' } },
  },
  {
    name: 'admin camp add batch',
    path: '/admin/camps/camp1',
    handler: adminCamp.action,
    who: 'admin',
    params: () => ({ code: 'camp1' }),
    spec: { valid: { name: 'Batch 9', code: 'batch9', start1: '16:00', end1: '17:00', capacity: '10' }, strict: { start1: 'time', end1: 'time', capacity: 'count' }, fixed: { intent: 'add-batch' } },
  },
  { name: 'admin camp move', path: '/admin/camps/camp1', handler: adminCamp.action, who: 'admin', params: () => ({ code: 'camp1' }), spec: { valid: { reference: 'CMP-0000000001', toBatch: 'batch2' }, strict: { reference: 'choice' }, fixed: { intent: 'move' } } },
  { name: 'admin camp cancel', path: '/admin/camps/camp1', handler: adminCamp.action, who: 'admin', params: () => ({ code: 'camp1' }), spec: { valid: { reference: 'CMP-0000000001', refund: 'yes' }, strict: { refund: 'choice' }, fixed: { intent: 'cancel' } } },
  { name: 'admin price', path: '/admin/settings', handler: adminSettings.action, who: 'admin', spec: { valid: { code: 'single_race', price: '3,999', regularPrice: '4,999' }, strict: { price: 'rupees' }, fixed: { intent: 'price' } } },
  { name: 'admin gst', path: '/admin/settings', handler: adminSettings.action, who: 'admin', spec: { valid: { legalName: 'Lab', gstin: '', gstRate: '18' }, strict: { gstRate: 'percent' }, fixed: { intent: 'gst' } } },
  { name: 'admin grievance officer', path: '/admin/settings', handler: adminSettings.action, who: 'admin', spec: { valid: { grievanceOfficerName: 'Asha Rao', grievanceOfficerEmail: 'grievance@lab.example' }, strict: { grievanceOfficerName: 'name', grievanceOfficerEmail: 'email' }, fixed: { intent: 'grievance' } } },
  { name: 'admin banner', path: '/admin/settings', handler: adminSettings.action, who: 'admin', spec: { valid: { visible: 'true' }, strict: { visible: 'choice' }, fixed: { intent: 'banner' } } },
  {
    name: 'admin contact',
    path: '/admin/settings',
    handler: adminSettings.action,
    who: 'admin',
    spec: {
      valid: { sessionLocation: 'Bengaluru', venueName: 'Pool', postalAddress: '1 Road', phone: '+91 98450 12345', phoneHours: '9-5', supportEmail: 'help@lab.example', infoEmail: 'info@lab.example', websiteUrl: '', whatsappNumber: '', linkedin: '', instagram: '', twitter: '' },
      strict: { supportEmail: 'contactEmail', infoEmail: 'contactEmail' },
      fixed: { intent: 'contact' },
    },
  },
  {
    name: 'admin new promo code',
    path: '/admin/promo-codes',
    handler: adminPromoCodes.action,
    who: 'admin',
    spec: { valid: { code: 'HOSTILE10', description: '', discountKind: 'percent', discountValue: '10', products: 'camp', validFrom: '', validUntil: '', maxUses: '', maxUsesPerCustomer: '' }, strict: { code: 'note', discountKind: 'choice', discountValue: 'percent' } },
  },
  { name: 'admin customer', path: '/admin/customers/1', handler: adminCustomer.action, who: 'admin', params: () => ({ id: String(customerId) }), spec: { valid: { intent: 'disable' }, strict: { intent: 'choice' } } },
]

const cookieFor = (who: FormCase['who']) => (who === 'customer' ? customerCookie : who === 'admin' ? adminCookie : '')
const formRequest = (path: string, who: FormCase['who'], form: URLSearchParams) => post(path, form, { Cookie: cookieFor(who) })

describe('every form refuses malformed input cleanly', () => {
  for (const form of FORMS) {
    it(form.name, async () => {
      const send = (submission: URLSearchParams) => expectRefusedCleanly(form.handler, () => formRequest(form.path, form.who, submission), form.params?.())
      // A typed field made invalid, other fields dropped, mangled, repeated, and fields added.
      await fc.assert(fc.asyncProperty(invalidSubmission(form.spec), async (submission) => void (await send(submission))), { numRuns: RUNS })
      // Random fields rarely make a valid submission, but a form with only optional fields could be one.
      const randomFields = randomSubmission.map((submission) => {
        for (const [field, value] of Object.entries(form.spec.fixed ?? {})) submission.set(field, value)
        return submission
      })
      await fc.assert(
        fc.asyncProperty(randomFields, async (submission) => void (await expectRefusedCleanly(form.handler, () => formRequest(form.path, form.who, submission), form.params?.(), { mustRefuse: false }))),
        { numRuns: Math.ceil(RUNS / 3) },
      )
      for (const body of MALFORMED_BODIES.filter((body) => body.label !== 'an empty form' && body.label !== 'a form with broken percent-encoding')) {
        const headers: Record<string, string> = { Cookie: cookieFor(form.who) }
        if (body.contentType) headers['Content-Type'] = body.contentType
        const outcome = await expectRefusedCleanly(form.handler, () => post(form.path, body.body, headers), form.params?.())
        expect([400, 415], body.label).toContain(outcome.status)
      }
    })
  }

  it('admin analysis day edit', async () => {
    const [staff] = await db().select({ id: users.id, email: users.email }).from(users).where(eq(users.email, 'hostile.staff@lab.example'))
    const venueId = await readyVenue(staff!, future, new Date())
    const dayId = String(await createAnalysisDay(staff!, analysisDayForm(venueId, future, { releaseDate: addDays(future, -3) })))
    const spec: FormSpec = { ...ANALYSIS_DAY_FORM, valid: { ...ANALYSIS_DAY_FORM.valid, venueId: String(venueId) }, fixed: { intent: 'edit' } }
    await fc.assert(
      fc.asyncProperty(invalidSubmission(spec), async (submission) => void (await expectRefusedCleanly(adminAnalysisDay.action, () => formRequest(`/admin/analysis-days/${dayId}`, 'admin', submission), { dayId }))),
      { numRuns: RUNS },
    )
  })
})

describe('the booking form of an analysis day refuses malformed input cleanly', () => {
  it('holds no seat for it, whatever is sent', async () => {
    const [staff] = await db().select({ id: users.id, email: users.email }).from(users).where(eq(users.email, 'hostile.staff@lab.example'))
    const now = new Date()
    const { dayId } = await publishedDay(staff!, future, now, { releaseDate: addDays(future, -3) })
    await db().update(analysisDays).set({ releaseAt: addMinutes(now, -1) }).where(eq(analysisDays.id, dayId))
    const spec: FormSpec = { valid: { name: 'Kavya Nair', email: 'kavya@example.com', phone: '', whoSwims: 'myself', slot: `${future}|09:00`, notes: '' }, strict: { name: 'name', email: 'email', slot: 'choice' }, fixed: { intent: 'book' } }
    const send = (submission: URLSearchParams) => expectRefusedCleanly(analysisDay.action, () => formRequest(`/analysis-days/${dayId}`, 'guest', submission), { dayId: String(dayId) })
    // The day is there to book: a form without a name is refused by its form, not as a page not found.
    expect((await send(new URLSearchParams({ ...spec.valid, ...spec.fixed, name: '' }))).status).toBe(400)
    await fc.assert(fc.asyncProperty(invalidSubmission(spec), async (submission) => void (await send(submission))), { numRuns: RUNS })
  })
})

describe('the waitlist form of an analysis day refuses malformed input cleanly', () => {
  it('puts nobody on the waitlist for it, whatever is sent', async () => {
    const [staff] = await db().select({ id: users.id, email: users.email }).from(users).where(eq(users.email, 'hostile.staff@lab.example'))
    const now = new Date()
    const { dayId } = await publishedDay(staff!, future, now, { releaseDate: addDays(future, -3) })
    await db().update(analysisDays).set({ releaseAt: addMinutes(now, -1) }).where(eq(analysisDays.id, dayId))
    const spec: FormSpec = { valid: { swimmerName: 'Kavya Nair', email: 'kavya@example.com', phone: '' }, strict: { swimmerName: 'name', email: 'email' } }
    const send = (submission: URLSearchParams) => expectRefusedCleanly(analysisDayWaitlist.action, () => formRequest(`/analysis-days/${dayId}/waitlist`, 'guest', submission), { dayId: String(dayId) })
    expect((await send(new URLSearchParams({ ...spec.valid, swimmerName: '' }))).status).toBe(400)
    // A slot of the day is free: even a well-formed form is refused.
    expect((await send(new URLSearchParams(spec.valid))).status).toBe(409)
    await fc.assert(fc.asyncProperty(invalidSubmission(spec), async (submission) => void (await send(submission))), { numRuns: RUNS })
  })
})

const get = (path: string, who: FormCase['who']) => new Request(`http://localhost${path}`, { headers: { Cookie: cookieFor(who) } })

describe('hostile addresses', () => {
  const endpoints: Array<{ path: string; names: string[]; handler: Handler; who: FormCase['who'] }> = [
    { path: '/booking/times', names: ['date'], handler: bookingTimes.loader, who: 'guest' },
    { path: '/booking/check', names: ['orderId', 'key'], handler: bookingCheck.loader, who: 'guest' },
    { path: '/payment-status/check', names: ['orderId', 'key'], handler: paymentStatusCheck.loader, who: 'guest' },
    { path: '/slot-payment-status/check', names: ['orderId'], handler: slotPaymentStatusCheck.loader, who: 'customer' },
  ]
  it.each(endpoints)('$path: any query is answered, a 4xx with its error, and nothing is written', async ({ path, names, handler, who }) => {
    await fc.assert(
      fc.asyncProperty(hostileQuery(names), async (query) => {
        const outcome = await expectRefusedCleanly(handler, () => get(`${path}?${query}`, who), {}, { mustRefuse: false })
        if (outcome.status >= 400) expect(outcome.body).toHaveProperty('error')
      }),
      { numRuns: RUNS },
    )
  })

  it('a date that is not a date is refused: 400 from /booking/times, "No time slot selected" from /book-slot', async () => {
    for (const date of ['abc', '', '2026-02-32', '%zz']) {
      const times = await expectRefusedCleanly(bookingTimes.loader, () => get(`/booking/times?${new URLSearchParams({ date })}`, 'guest'))
      expect(times.status).toBe(400)
      const held = await expectRefusedCleanly(bookSlot.action, () => formRequest('/book-slot', 'customer', new URLSearchParams({ date, time: '09:00' })))
      expect(held.toast).toMatchObject({ type: 'error', title: 'No time slot selected' })
    }
  })

  it('dates and months out of range (year 0, after 9999-11), in addresses and forms, are refused with a message or fall back to this month', async () => {
    const failures: string[] = []
    const attempt = async (label: string, handler: Handler, request: () => Request, params: Record<string, string> = {}, { mustRefuse = true } = {}) => {
      try {
        return await expectRefusedCleanly(handler, request, params, { mustRefuse })
      } catch (error) {
        failures.push(`${label}: ${String(error).slice(0, 300)}`)
        return undefined
      }
    }
    const form = (values: Record<string, string>) => new URLSearchParams(values)
    const says = (outcome: Outcome | undefined, text: string) => outcome && JSON.stringify(outcome.body).includes(text)
    for (const date of OUT_OF_RANGE_DATES) {
      const times = await attempt(`/booking/times ${date}`, bookingTimes.loader, () => get(`/booking/times?date=${date}`, 'guest'))
      if (times && times.status !== 400) failures.push(`/booking/times ${date}: ${times.status}`)
      const page = await attempt(`/book-slot?date=${date}`, bookSlot.loader, () => get(`/book-slot?date=${date}`, 'customer'), {}, { mustRefuse: false })
      // Refused, the page opens as without a date (on the first date that can be booked).
      if (page && (page.body as { date: unknown }).date === date) failures.push(`/book-slot?date=${date} chose the date`)
      await attempt(`/admin/venues/1/day/${date}`, adminDaySheet.loader, () => get(`/admin/venues/${homeVenueId}/day/${date}`, 'admin'), { venueId: String(homeVenueId), date })
      await attempt(`/admin/venues/1/day?date=${date}`, adminDaySheet.loader, () => get(`/admin/venues/${homeVenueId}/day/${future}?date=${date}`, 'admin'), { venueId: String(homeVenueId), date: future })
      await attempt(`POST /admin/venues/1/day/${date}`, adminDaySheet.action, () => formRequest(`/admin/venues/${homeVenueId}/day/${date}`, 'admin', form({ intent: 'attendance', booking: '1', attendance: 'attended' })), { venueId: String(homeVenueId), date })
      await attempt(`/admin/bookings ${date}`, adminBookings.loader, () => get(`/admin/bookings?from=${date}&to=${date}`, 'admin'), {}, { mustRefuse: false })
      await attempt(`/admin/bookings.csv ${date}`, adminBookingsCsv.loader, () => get(`/admin/bookings.csv?from=${date}&to=${date}`, 'admin'), {}, { mustRefuse: false })
      await attempt(`POST /book-slot ${date}`, bookSlot.action, () => formRequest('/book-slot', 'customer', form({ date, time: '09:00' })))
      const booked = await attempt(`POST /booking ${date}`, booking.action, () => formRequest('/booking', 'guest', form({ name: 'Ravi Kumar', email: 'ravi@example.com', phone: '9845012345', service: 'race', date, time: '10:00', notes: '' })))
      if (date.length === 10 && !says(booked, BOOKABLE_DATE_MESSAGE)) failures.push(`POST /booking ${date}: no message`)
      for (const intent of ['create', 'holiday']) {
        const values = { intent, from: date, to: date, weekdays: '1', startTime: '10:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '1' }
        const opened = await attempt(`POST /admin/availability ${intent} ${date}`, adminAvailability.action, () => formRequest('/admin/availability', 'admin', form(values)))
        if (date.length === 10 && !says(opened, DATE_RANGE_MESSAGE)) failures.push(`POST /admin/availability ${intent} ${date}: no message`)
        const ending = await attempt(`POST /admin/availability ${intent} to ${date}`, adminAvailability.action, () => formRequest('/admin/availability', 'admin', form({ ...values, from: future })))
        if (ending && ending.status !== 400) failures.push(`POST /admin/availability ${intent} to ${date}: ${ending.status}`)
      }
      await attempt(`POST /admin/availability unholiday ${date}`, adminAvailability.action, () => formRequest('/admin/availability', 'admin', form({ intent: 'unholiday', date })))
      const staffBooking = { name: 'Ravi Kumar', email: 'ravi@example.com', phone: '', product: 'single_race', date, time: '09:00', origin: 'complimentary', notes: '' }
      const staffBooked = await attempt(`POST /admin/bookings/new ${date}`, adminBookingNew.action, () => formRequest('/admin/bookings/new', 'admin', form(staffBooking)))
      if (date.length === 10 && !says(staffBooked, DATE_RANGE_MESSAGE)) failures.push(`POST /admin/bookings/new ${date}: no message`)
      const camp = { name: 'Camp 1', startsOn: date, endsOn: date, venue: 'Pool', earlyBirdPrice: '30,000', regularPrice: '35,000', earlyBirdDeadline: date, registration: 'open' }
      await attempt(`POST /admin/camps/camp1 ${date}`, adminCamp.action, () => formRequest('/admin/camps/camp1', 'admin', form({ intent: 'update-camp', ...camp })), { code: 'camp1' })
      const newCamp = { ...camp, code: 'camp9', 'batches[0].name': 'Batch 1', 'batches[0].code': 'b1', 'batches[0].start1': '09:00', 'batches[0].end1': '10:00', 'batches[0].capacity': '10' }
      const created = await attempt(`POST /admin/camps ${date}`, adminCamps.action, () => formRequest('/admin/camps', 'admin', form(newCamp)))
      if (date.length === 10 && !says(created, DATE_RANGE_MESSAGE)) failures.push(`POST /admin/camps ${date}: no message`)
    }
    const thisMonth = labToday().slice(0, 7)
    for (const month of OUT_OF_RANGE_MONTHS) {
      const staffCalendar = await attempt(`/admin/availability?month=${month}`, adminAvailability.loader, () => get(`/admin/availability?month=${month}`, 'admin'), {}, { mustRefuse: false })
      if (staffCalendar && (staffCalendar.body as { month: string }).month !== thisMonth) failures.push(`/admin/availability?month=${month} shows ${(staffCalendar.body as { month: string }).month}`)
      await attempt(`/book-slot?month=${month}`, bookSlot.loader, () => get(`/book-slot?month=${month}`, 'customer'), {}, { mustRefuse: false })
    }
    expect(failures).toEqual([])
  })

  it('numbers beyond what the database holds, in addresses, are refused cleanly, never a 5xx', async () => {
    for (const id of ['2147483648', '99999999999', '9007199254740993', '-1', '0']) {
      await expectRefusedCleanly(adminWindow.action, () => formRequest(`/admin/availability/${id}`, 'admin', new URLSearchParams({ intent: 'delete' })), { windowId: id })
      await expectRefusedCleanly(adminWindow.loader, () => get(`/admin/availability/${id}`, 'admin'), { windowId: id })
      await expectRefusedCleanly(adminCustomer.action, () => formRequest(`/admin/customers/${id}`, 'admin', new URLSearchParams({ intent: 'disable' })), { id })
      await expectRefusedCleanly(adminVenue.action, () => formRequest(`/admin/venues/${id}`, 'admin', new URLSearchParams({ intent: 'close' })), { venueId: id })
      await expectRefusedCleanly(adminVenue.loader, () => get(`/admin/venues/${id}`, 'admin'), { venueId: id })
      await expectRefusedCleanly(adminAnalysisDay.action, () => formRequest(`/admin/analysis-days/${id}`, 'admin', new URLSearchParams({ intent: 'publish' })), { dayId: id })
      await expectRefusedCleanly(adminAnalysisDay.loader, () => get(`/admin/analysis-days/${id}`, 'admin'), { dayId: id })
      await expectRefusedCleanly(adminAvailability.loader, () => get(`/admin/availability?venue=${id}`, 'admin'))
      await expectRefusedCleanly(adminDaySheet.loader, () => get(`/admin/venues/${id}/day/${future}`, 'admin'), { venueId: id, date: future })
      const mark = new URLSearchParams({ intent: 'attendance', booking: id, attendance: 'attended' })
      await expectRefusedCleanly(adminDaySheet.action, () => formRequest(`/admin/venues/${id}/day/${future}`, 'admin', mark), { venueId: id, date: future })
      await expectRefusedCleanly(adminDaySheet.action, () => formRequest(`/admin/venues/${homeVenueId}/day/${future}`, 'admin', mark), { venueId: String(homeVenueId), date: future })
      for (const intent of ['retire', 'unplace']) await expectRefusedCleanly(adminKits.action, () => formRequest('/admin/kits', 'admin', new URLSearchParams({ intent, id })))
      await expectRefusedCleanly(slotPayment.action, () => formRequest(`/slot-payment?booking=${id}`, 'customer', new URLSearchParams({ website_url: '' })))
      await expectRefusedCleanly(slotPayment.loader, () => get(`/slot-payment?booking=${id}`, 'customer'))
      await expectRefusedCleanly(reportFile.loader, () => get(`/reports/files/${id}`, 'customer'), { fileId: id })
      const batch = new URLSearchParams({ intent: 'update-batch', batchId: id, name: 'Batch 1', code: 'batch1', start1: '09:00', end1: '10:30', capacity: '30' })
      await expectRefusedCleanly(adminCamp.action, () => formRequest('/admin/camps/camp1', 'admin', batch), { code: 'camp1' }, { mustRefuse: false })
    }
  })

  it('a NUL character (which PostgreSQL cannot take in text) in any address is refused cleanly, never a 5xx', async () => {
    const nul = '\u0000'
    const query = (names: string[]) => `?${new URLSearchParams(names.map((name) => [name, `a${nul}b`]))}`
    const reads: Array<[Handler, string, FormCase['who'], Record<string, string>?]> = [
      [adminBooking.loader, '/admin/bookings/x', 'admin', { reference: nul }],
      [adminCamp.loader, '/admin/camps/x', 'admin', { code: nul }],
      [adminCampCsv.loader, '/admin/camps/x/registrations.csv', 'admin', { code: nul }],
      [adminCustomer.loader, '/admin/customers/x', 'admin', { id: nul }],
      [adminWindow.loader, '/admin/availability/x', 'admin', { windowId: nul }],
      [adminVenue.loader, '/admin/venues/x', 'admin', { venueId: nul }],
      [adminAnalysisDay.loader, '/admin/analysis-days/x', 'admin', { dayId: nul }],
      [adminDaySheet.loader, '/admin/venues/1/day/x', 'admin', { venueId: nul, date: future }],
      [adminDaySheet.loader, '/admin/venues/1/day/x', 'admin', { venueId: '1', date: nul }],
      [adminDaySheet.loader, `/admin/venues/1/day/${future}${query(['date'])}`, 'admin', { venueId: '1', date: future }],
      [adminBookings.loader, `/admin/bookings${query(['q', 'status', 'from', 'to', 'product', 'page'])}`, 'admin'],
      [adminBookingsCsv.loader, `/admin/bookings.csv${query(['q', 'status', 'from', 'to', 'product'])}`, 'admin'],
      [adminCustomers.loader, `/admin/customers${query(['q', 'page', 'status'])}`, 'admin'],
      [adminAudit.loader, `/admin/audit${query(['type', 'before', 'page', 'entity', 'actor', 'action'])}`, 'admin'],
      [adminMessages.loader, `/admin/messages${query(['page', 'to'])}`, 'admin'],
      [adminAvailability.loader, `/admin/availability${query(['month', 'venue'])}`, 'admin'],
      [cancel.loader, '/bookings/x/cancel', 'customer', { reference: nul }],
      [reschedule.loader, `/bookings/x/reschedule${query(['key', 'date', 'time', 'month', 'until', 'confirm'])}`, 'customer', { reference: nul }],
      [receipt.loader, `/receipts/x${query(['key'])}`, 'customer', { orderId: nul }],
      [creditNote.loader, `/credit-notes/x${query(['key'])}`, 'customer', { refundId: nul }],
      [reportFile.loader, `/reports/files/1${query(['key'])}`, 'customer', { fileId: nul }],
      [bookingView.loader, `/booking/view${query(['ref', 'key'])}`, 'guest'],
      [booking.loader, `/booking${query(['step', 'orderId', 'key', 'payment'])}`, 'guest'],
      [paymentStatus.loader, `/payment-status${query(['orderId', 'key'])}`, 'guest'],
      [slotPaymentStatus.loader, `/slot-payment-status${query(['orderId'])}`, 'customer'],
      [paymentStatusCheck.loader, `/payment-status/check${query(['orderId', 'key'])}`, 'guest'],
      [slotPaymentStatusCheck.loader, `/slot-payment-status/check${query(['orderId'])}`, 'customer'],
      [bookingCheck.loader, `/booking/check${query(['orderId', 'key'])}`, 'guest'],
      [verifyEmail.loader, `/verify-email${query(['email', 'code'])}`, 'guest'],
      [forgotPassword.loader, `/forgot-password${query(['email', 'code'])}`, 'guest'],
      [offer.loader, `/onboarding/offer${query(['registration', 'key'])}`, 'guest'],
      [waitlistPlace.loader, `/onboarding/waitlist${query(['entry', 'key'])}`, 'guest'],
      [campRegistration.loader, `/onboarding${query(['email', 'phone'])}`, 'guest'],
      [login.loader, `/login${query(['redirectTo'])}`, 'guest'],
      [bookSlot.loader, `/book-slot${query(['month', 'date', 'time'])}`, 'customer'],
      [myBookings.loader, `/my-bookings${query(['tab'])}`, 'customer'],
    ]
    const failures: string[] = []
    for (const [handler, path, who, params] of reads) {
      try {
        await expectRefusedCleanly(handler, () => get(path, who), params ?? {}, { mustRefuse: false })
      } catch (error) {
        failures.push(`${path} ${JSON.stringify(params ?? {})}: ${String(error).slice(0, 200)}`)
      }
    }
    expect(failures).toEqual([])
  })

  it('a city alert’s link with a made-up, altered or malformed token confirms nothing and stops nothing', async () => {
    const tokens = ['A'.repeat(43), 'A'.repeat(42), 'A'.repeat(44), `${'A'.repeat(42)}=`, '../../etc/passwd', '%00', '\u0000', ' '.repeat(43), 'x'.repeat(5000)]
    for (const [route, path] of [[cityAlertConfirm, '/city-alerts'], [cityAlertStop, '/city-alerts/stop']] as const) {
      for (const token of tokens) {
        const where = `${path}/${encodeURIComponent(token)}`
        expect((await expectRefusedCleanly(route.loader, () => get(where, 'guest'), { token })).status, where).toBe(404)
        expect((await expectRefusedCleanly(route.action, () => formRequest(where, 'guest', new URLSearchParams({ website_url: '' })), { token })).status, where).toBe(404)
      }
    }
  })

  it("a guest's own link with a made-up, altered or malformed confirmation neither cancels nor moves the booking, nor sends anything", async () => {
    const { reference, key, date, time } = await confirmedGuestBooking()
    const filled = anyValue.filter((value) => value !== '')
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('cancel', 'reschedule'),
        fc.oneof(fc.integer({ min: 0, max: 999_999_999_999 }).map(String), fc.constantFrom(String(Math.floor(Date.now() / 1000) + 600), '000000000000', '999999999999')),
        filled,
        fc.oneof(fc.constant(date), filled),
        fc.oneof(fc.constant(time), filled),
        async (change, until, confirm, linkDate, linkTime) => {
          const query = new URLSearchParams({ key, until, confirm, date: linkDate, time: linkTime })
          const form = new URLSearchParams({ date: future, time: '09:00', website_url: '' })
          const handler = change === 'cancel' ? cancel.action : reschedule.action
          const outcome = await expectRefusedCleanly(handler, () => formRequest(`/bookings/${reference}/${change}?${query}`, 'guest', form), { reference })
          // Refused as a confirmation that does not work, the booking and its link being real; an
          // address holding a NUL character, which no link makes, is refused as not found.
          expect(outcome.status).toBe([linkDate, linkTime, confirm, until].some((value) => value.includes('\u0000')) ? 404 : 400)
        },
      ),
      { numRuns: RUNS * 2 },
    )
  })

  it('a field naming the 100-millionth item of a list is refused with 400 before it is parsed', async () => {
    const outcome = await expectRefusedCleanly(adminSettings.action, () => formRequest('/admin/settings', 'admin', new URLSearchParams({ intent: 'banner', visible: 'x', 'batches[99999999].code': 'y' })))
    expect(outcome.status).toBe(400)
  })

  it('changing, paying or taking up an offer: any reference, key or booking number', async () => {
    const changes: Array<{ handler: Handler; path: (segment: string) => string; params: (segment: string) => Record<string, string> }> = [
      { handler: cancel.action, path: (ref) => `/bookings/${encodeURIComponent(ref)}/cancel`, params: (reference) => ({ reference }) },
      { handler: reschedule.action, path: (ref) => `/bookings/${encodeURIComponent(ref)}/reschedule`, params: (reference) => ({ reference }) },
      { handler: adminBooking.action, path: (ref) => `/admin/bookings/${encodeURIComponent(ref)}`, params: (reference) => ({ reference }) },
      { handler: adminWindow.action, path: (id) => `/admin/availability/${encodeURIComponent(id)}`, params: (windowId) => ({ windowId }) },
      { handler: adminCamp.action, path: (code) => `/admin/camps/${encodeURIComponent(code)}`, params: (code) => ({ code }) },
      { handler: adminCustomer.action, path: (id) => `/admin/customers/${encodeURIComponent(id)}`, params: (id) => ({ id }) },
      { handler: adminVenue.action, path: (id) => `/admin/venues/${encodeURIComponent(id)}`, params: (venueId) => ({ venueId }) },
      { handler: adminAnalysisDay.action, path: (id) => `/admin/analysis-days/${encodeURIComponent(id)}`, params: (dayId) => ({ dayId }) },
    ]
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...changes), hostileSegment, fc.constantFrom<FormCase['who']>('guest', 'customer', 'admin'), hostileQuery(['key', 'date', 'time', 'until', 'confirm']), async (change, segment, who, query) => {
        const form = new URLSearchParams({ intent: 'cancel', date: future, time: '09:00', start: '09:00' })
        await expectRefusedCleanly(change.handler, () => formRequest(`${change.path(segment)}?${query}`, who, form), change.params(segment), { mustRefuse: false })
      }),
      { numRuns: RUNS * 2 },
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<Handler>(slotPayment.action, offer.action, waitlistPlace.action), hostileQuery(['booking', 'registration', 'entry', 'key']), async (handler, query) => {
        await expectRefusedCleanly(handler, () => formRequest(`/slot-payment?${query}`, 'customer', new URLSearchParams({ website_url: '' })))
      }),
      { numRuns: RUNS },
    )
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { config, loadConfig, setConfig } from '~/config.server'
import { db } from '~/db/client.server'
import { analyses, bookingDays, bookings, campBatches, campRegistrations, camps, catalogueItems, outboxMessages, payments, refunds, siteSettings, swimmers, users } from '~/db/schema'
import { addHours, addMinutes, formatDateRange, formatLabDateTime, formatLongDate, formatTimeRange, formatWeekdayDate, labInstant } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { firstNameOf } from '~/lib/person-name'
import { toE164 } from '~/lib/phone'
import { GUEST_BOOKING_LINK, isLinkKey, privateLinkUrl, WAITLIST_OFFER_LINK } from '~/lib/private-links.server'
import { publishAnalysis } from '~/modules/analyses/publishing.server'
import { saveFinding, startAnalysis } from '~/modules/analyses/editing.server'
import { inviteBackForNextAnalysis } from '~/modules/analyses/invitations.server'
import { holdSession, type Customer } from '~/modules/booking/holds.server'
import { cancelBooking } from '~/modules/booking/changes.server'
import { createStaffBooking } from '~/modules/booking/staff.server'
import { cancelRegistration } from '~/modules/camps/staff-registrations.server'
import { holdFamilySeats } from '~/modules/camps/groups.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { confirmWaitlistPlace, joinWaitlist, offerFreedSeats } from '~/modules/camps/waitlist.server'
import { abandonOrder } from '~/modules/payments/checkout.server'
import { newOrderId } from '~/modules/payments/gateway-contract.server'
import { applyOrderStatus } from '~/modules/payments/payments.server'
import { applyRefundStatus } from '~/modules/payments/refunds.server'
import { sendDueReminders } from '~/modules/reminders/reminders.server'
import { deliverReport } from '~/modules/reports/reports.server'
import { diskStorage, useReportStorage } from '~/modules/reports/storage.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { processOutbox } from '~/modules/mail/outbox.server'
import { confirmedBookings, recordedAnalysis } from '../../../tests/support/analyses'
import { createCustomers, createStaff, setWindows } from '../../../tests/support/booking'
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../tests/support/fake-whatsapp'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { lettersFor } from '../../../tests/support/visitor'
import { cloudApiSender } from './cloud-api.server'
import { optInToWhatsApp, optOutOfWhatsApp, requestWhatsAppMessages } from './consent.server'
import { NAME_NOT_SHOWN } from './notify.server'
import type { WhatsAppTemplateName } from './templates'

useTestDatabase()

// Each event of the site that e-mails a family also queues its WhatsApp message, in the same
// transaction: once, to the right number, with the template's parameters filled in from the event;
// and only while WhatsApp is on and the number opted in by its owner. The e-mail goes out the same in
// every case. The message is then sent to a fake of Meta's Cloud API, as the phone receives it.

const reportsDirectory = mkdtempSync(path.join(tmpdir(), 'swimlab-wa-reports-'))
let fake: FakeWhatsApp
beforeAll(async () => {
  fake = await startFakeWhatsApp()
})
let before: ReturnType<typeof config>
beforeEach(() => {
  before = config()
  useReportStorage(diskStorage(reportsDirectory))
})
afterEach(() => setConfig(before))
afterAll(async () => {
  useReportStorage(undefined)
  rmSync(reportsDirectory, { recursive: true, force: true })
  await fake?.close()
})

function turnWhatsAppOn() {
  setConfig({ ...loadConfig({ ...process.env, ...fake.env }), SEAT_HOLD_MINUTES: before.SEAT_HOLD_MINUTES })
}

/** Sends what the outbox holds for WhatsApp through the fake Cloud API, and what the number received. */
async function receivedBy(phone: string) {
  await fake.reset()
  // Events here happen on days ahead (2030): the outbox is worked as on a day after all of them, and
  // once more an hour later, as it retries a message whose connection the fake dropped while idle.
  const sender = cloudApiSender({ accessToken: fake.accessToken, phoneNumberId: fake.phoneNumberId, appSecret: fake.appSecret, verifyToken: fake.verifyToken, apiUrl: fake.apiUrl })
  await processOutbox(sender, () => new Date('2099-01-01T00:00:00Z'))
  await processOutbox(sender, () => new Date('2099-01-01T01:00:00Z'))
  return fake.sentTo(toE164(phone)!)
}

/** A link of this site as a kept message may hold it: without a private link's key or a form's filled-in details. */
function withoutPrivateParts(parameter: string) {
  if (!parameter.startsWith(`${config().SITE_URL}/`)) return parameter
  const url = new URL(parameter)
  for (const name of ['key', 'email', 'phone']) url.searchParams.delete(name)
  return url.toString()
}

const whatsappMessages = () => db().select().from(outboxMessages).where(eq(outboxMessages.channel, 'whatsapp')).orderBy(asc(outboxMessages.id))
const emailSubjects = async () => (await db().select({ subject: outboxMessages.subject }).from(outboxMessages).where(eq(outboxMessages.channel, 'email')).orderBy(asc(outboxMessages.id))).map((row) => row.subject)

/** A payment under way for a booking or camp registration, as startPayment leaves it at the gateway. */
async function pendingPayment(payable: { bookingId: number } | { campRegistrationId: number }, amountPaise: number, expiresAt = addMinutes(new Date(), 20)) {
  const orderId = newOrderId('bookingId' in payable ? 'SLOT' : 'CAMP', new Date())
  await db()
    .insert(payments)
    .values({ orderId, ...payable, gateway: 'sandbox', amountPaise, state: 'pending', expiresAt, createdAt: new Date(), updatedAt: new Date() })
  return orderId
}

const completed = (orderId: string, amountPaise: number) => applyOrderStatus(orderId, { state: 'completed', amountPaise, transactionId: `T${orderId}`, paymentMode: 'UPI' })
const declined = (orderId: string) => applyOrderStatus(orderId, { state: 'failed', amountPaise: null, transactionId: null, paymentMode: null })

async function productName(code: string) {
  const [row] = await db().select({ name: catalogueItems.name }).from(catalogueItems).where(eq(catalogueItems.code, code))
  return row!.name
}

/** The booking's days as the confirmation names them, read back from what was stored. */
async function storedDays(bookingId: number) {
  const days = await db().select().from(bookingDays).where(eq(bookingDays.bookingId, bookingId)).orderBy(asc(bookingDays.dayNumber))
  const lines = days.map((day) => `${formatWeekdayDate(day.date)}, ${formatTimeRange(day.startTime, day.endTime)}`)
  return lines.length === 1 ? lines[0]! : lines.map((line, index) => `Day ${index + 1}: ${line}`).join('; ')
}

async function bookingOf(bookingId: number) {
  const [row] = await db().select().from(bookings).where(eq(bookings.id, bookingId))
  return row!
}

async function registrationOf(id: number) {
  const [row] = await db().select().from(campRegistrations).where(eq(campRegistrations.id, id))
  return row!
}

// Sessions on 4, 5 and 6 March 2030 (Monday to Wednesday), 9:00 AM in Bangalore; payments run on the clock, so far ahead.
const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']
const THREE_DAYS = [
  'Day 1: Monday, 4 March 2030, 9:00 AM - 10:00 AM',
  'Day 2: Tuesday, 5 March 2030, 9:00 AM - 10:00 AM',
  'Day 3: Wednesday, 6 March 2030, 9:00 AM - 10:00 AM',
].join('; ')
/** Where the messages of a booking at the lab say it is, as they always did. */
const AT_THE_LAB = 'the Swimming Sport Science Lab'

/** A customer as the forms now name them, in letters (the factory numbers its names): the account holder swims. */
async function namedCustomer(prefix: string) {
  const [customer] = await createCustomers(1, prefix)
  const name = `${prefix.charAt(0).toUpperCase()}${prefix.slice(1)} Parent`
  await db().update(users).set({ name }).where(eq(users.id, customer!.userId!))
  await db().update(swimmers).set({ name }).where(eq(swimmers.id, customer!.swimmerId!))
  return { ...customer!, name, swimmerName: name }
}

/** A signed-in customer whose account number (users.phone) differs from the one on the booking. */
async function accountCustomer(prefix = 'wa') {
  const customer = await namedCustomer(prefix)
  await db().update(users).set({ phone: '9845000001' }).where(eq(users.id, customer.userId!))
  return { customer, phone: '+91 98450 00001' }
}

async function heldSession(customer: Customer, { now = new Date(), capacity = 1 } = {}) {
  await setWindows(DATES.map((date) => ({ date, capacity })))
  return holdSession({ customer, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3, now })
}

const GUEST: Customer = { userId: null, swimmerId: null, swimmerName: 'Meera Iyer', name: 'Meera Iyer', email: 'meera@example.com', phone: '98450 22222', swimmingExperience: null }

async function heldGuestSession() {
  await setWindows([{ date: DATES[0]! }])
  return holdSession({ customer: GUEST, productCode: 'single_race', date: DATES[0]!, start: '09:00', days: 1 })
}

// Camps seeded for August 2030: camp1 runs 8-16 August, registration open now.
async function campsInAugust() {
  await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
}

async function setCapacity(capacity: number, batch = 'batch1') {
  const [target] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, 'camp1'), eq(campBatches.code, batch)))
  await db().update(campBatches).set({ capacity }).where(eq(campBatches.id, target!.id))
}

let parents = 0
function campParent(swimmerName?: string) {
  parents += 1
  return { swimmerName: swimmerName ?? `Kavya Rao ${lettersFor(parents)}`, email: `camp-parent${parents}@example.com`, phone: `98450 3${String(parents).padStart(4, '0')}` }
}
const heldCampSeat = (applicant = campParent(), now = new Date()) =>
  holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant, holder: visitor({ network: `198.51.100.${parents}`, email: applicant.email }), now })

/** A signed-in family: the parent and a consented child of 10, held together in batch 1. */
async function heldFamily() {
  const parent = await namedCustomer('family')
  const [child] = await db()
    .insert(swimmers)
    .values({ accountId: parent!.userId!, name: 'Asha Family', ageYears: 10, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })
    .returning()
  await recordConsent(db(), { swimmerId: child!.id, guardianName: parent.name, guardianEmail: parent.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: new Date() })
  const held = await holdFamilySeats({
    accountId: parent!.userId!,
    swimmerIds: [parent!.swimmerId!, child!.id],
    campCode: 'camp1',
    batchCode: 'batch1',
    contact: { email: parent!.email, phone: '98450 44444' },
    holder: visitor({ userId: parent!.userId, email: parent!.email }),
  })
  return { ...held, parent: parent!, child: child!, phone: '98450 44444', names: `${parent!.name} and Asha Family` }
}

async function campDetails() {
  const [camp] = await db().select().from(camps).where(eq(camps.code, 'camp1'))
  const [batch] = await db().select().from(campBatches).where(and(eq(campBatches.campId, camp!.id), eq(campBatches.code, 'batch1')))
  return { campName: camp!.name, dates: formatDateRange(camp!.startsOn, camp!.endsOn), batchLine: `${batch!.name}, ${batch!.timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' and ')}`, batchName: batch!.name }
}

/** A registration whose hold ran out while the batch filled up: its payment arriving now goes back. */
async function lateCampPayment() {
  await campsInAugust()
  await setCapacity(1)
  const late = await heldCampSeat()
  const lateRow = await registrationOf(late.id)
  await db().update(campRegistrations).set({ status: 'expired', holdExpiresAt: addMinutes(new Date(), -1) }).where(eq(campRegistrations.id, late.id))
  const taker = await heldCampSeat()
  await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(campRegistrations.id, taker.id))
  const orderId = await pendingPayment({ campRegistrationId: late.id }, lateRow.amountPaise)
  return { registration: lateRow, orderId }
}

/** A booking whose hold ran out while its slot was booked by someone else: its payment arriving now goes back. */
async function lateSessionPayment() {
  const { customer, phone } = await accountCustomer('late')
  const held = await heldSession(customer)
  await db().update(bookings).set({ status: 'expired', holdExpiresAt: addMinutes(new Date(), -1) }).where(eq(bookings.id, held.bookingId))
  const [other] = await createCustomers(1, 'other')
  const taken = await holdSession({ customer: other!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 })
  await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, taken.bookingId))
  const booking = await bookingOf(held.bookingId)
  const orderId = await pendingPayment({ bookingId: held.bookingId }, booking.amountPaise)
  return { customer, phone, booking, orderId }
}

async function refundPolicy() {
  const [row] = await db().select({ refundPolicy: siteSettings.refundPolicy }).from(siteSettings)
  return row!.refundPolicy
}

async function completeRefundOf(orderId: string) {
  const [refund] = await db().select({ refundId: refunds.refundId, amountPaise: refunds.amountPaise }).from(refunds).innerJoin(payments, eq(payments.id, refunds.paymentId)).where(eq(payments.orderId, orderId))
  return applyRefundStatus(refund!.refundId, { state: 'completed', gatewayRefundId: 'GW-REFUND-1', amountPaise: refund!.amountPaise })
}

/**
 * An event as a test drives it: `prepare` sets up what comes before (nothing WhatsApp hears of),
 * `fire` is the event itself and `replay` it happening (or being reported) again. `expected` is the
 * number the message goes to, its template and parameters, and the e-mail that goes beside it.
 */
type Prepared = {
  fire(): Promise<unknown>
  replay(): Promise<unknown>
  phone: string
  template: WhatsAppTemplateName
  /** What the phone receives, or how to tell from what it receives (read after the event). */
  parameters: string[] | ((sent: string[]) => Promise<string[]>)
  /** The e-mail's subject (read after the event), or null for an event without one. */
  email: string | RegExp | null | (() => string)
}
type Scenario = { prepare(): Promise<Prepared> }

const SCENARIOS: Record<string, Scenario> = {
  'a signed-in booking is paid': {
    async prepare() {
      const { customer, phone } = await accountCustomer()
      const held = await heldSession(customer)
      const booking = await bookingOf(held.bookingId)
      const orderId = await pendingPayment({ bookingId: held.bookingId }, booking.amountPaise)
      const title = await productName('biomechanical_package')
      return {
        fire: () => completed(orderId, booking.amountPaise),
        replay: () => completed(orderId, booking.amountPaise),
        phone,
        template: 'booking_confirmed',
        parameters: [customer.name, title, customer.swimmerName, THREE_DAYS, AT_THE_LAB, held.reference],
        email: `Booking confirmed: ${title} (${held.reference})`,
      }
    },
  },
  "a guest's booking made before names were letters only is paid": {
    async prepare() {
      await setWindows([{ date: DATES[0]! }])
      const held = await holdSession({ customer: { ...GUEST, name: 'Pay Rs 500 By GPay To 9812345678', swimmerName: 'Pay Rs ५०० to ९८१२३४५६७८' }, productCode: 'single_race', date: DATES[0]!, start: '09:00', days: 1 })
      const booking = await bookingOf(held.bookingId)
      const orderId = await pendingPayment({ bookingId: held.bookingId }, booking.amountPaise)
      const title = await productName('single_race')
      return {
        fire: () => completed(orderId, booking.amountPaise),
        replay: () => completed(orderId, booking.amountPaise),
        phone: GUEST.phone!,
        template: 'booking_confirmed',
        parameters: [NAME_NOT_SHOWN, title, NAME_NOT_SHOWN, await storedDays(held.bookingId), AT_THE_LAB, held.reference],
        email: `Booking confirmed: ${title} (${held.reference})`,
      }
    },
  },
  "a guest's booking is paid": {
    async prepare() {
      const held = await heldGuestSession()
      const booking = await bookingOf(held.bookingId)
      const orderId = await pendingPayment({ bookingId: held.bookingId }, booking.amountPaise)
      const title = await productName('single_race')
      return {
        fire: () => completed(orderId, booking.amountPaise),
        replay: () => completed(orderId, booking.amountPaise),
        phone: GUEST.phone!,
        template: 'booking_confirmed',
        parameters: [GUEST.name, title, GUEST.swimmerName, await storedDays(held.bookingId), AT_THE_LAB, held.reference],
        email: `Booking confirmed: ${title} (${held.reference})`,
      }
    },
  },
  'staff book a session for a customer': {
    async prepare() {
      await setWindows([{ date: DATES[0]! }])
      const staff = await createStaff()
      const title = await productName('single_race')
      let booking: { id: number; reference: string } | undefined
      return {
        fire: async () => {
          booking = await createStaffBooking(staff, { productCode: 'single_race', days: 1, date: DATES[0]!, start: '09:00', customer: { name: 'Asha Rao', email: 'asha@example.com', phone: '98450 55555' }, origin: 'offline', amountPaise: 250_000, paymentMethod: 'UPI', notes: null })
        },
        // Staff make a booking once: nothing repeats it.
        replay: async () => {},
        phone: '98450 55555',
        template: 'booking_confirmed',
        parameters: async () => ['Asha Rao', title, 'Asha Rao', await storedDays(booking!.id), AT_THE_LAB, booking!.reference],
        email: () => `Booking confirmed: ${title} (${booking!.reference})`,
      }
    },
  },
  "a signed-in customer's payment fails": {
    async prepare() {
      const { customer, phone } = await accountCustomer()
      const held = await heldSession(customer)
      const booking = await bookingOf(held.bookingId)
      const orderId = await pendingPayment({ bookingId: held.bookingId }, booking.amountPaise)
      const title = await productName('biomechanical_package')
      return {
        fire: () => declined(orderId),
        replay: () => declined(orderId),
        phone,
        template: 'payment_failed',
        parameters: [formatRupees(booking.amountPaise), `${title} for ${customer.swimmerName}`, held.reference, `${config().SITE_URL}/book-slot?date=${DATES[0]}&swimmer=${customer.swimmerId}`],
        email: `Payment failed: ${title} (${held.reference})`,
      }
    },
  },
  "a guest's payment fails": {
    async prepare() {
      const held = await heldGuestSession()
      const booking = await bookingOf(held.bookingId)
      const orderId = await pendingPayment({ bookingId: held.bookingId }, booking.amountPaise)
      return {
        fire: () => declined(orderId),
        replay: () => declined(orderId),
        phone: GUEST.phone!,
        template: 'payment_failed',
        parameters: [formatRupees(booking.amountPaise), `${await productName('single_race')} for ${GUEST.swimmerName}`, held.reference, `${config().SITE_URL}/booking?service=race`],
        email: `Payment failed: ${await productName('single_race')} (${held.reference})`,
      }
    },
  },
  "a camp registration's payment fails": {
    async prepare() {
      await campsInAugust()
      const applicant = campParent()
      const held = await heldCampSeat(applicant)
      const registration = await registrationOf(held.id)
      const orderId = await pendingPayment({ campRegistrationId: held.id }, registration.amountPaise)
      const { campName } = await campDetails()
      return {
        fire: () => declined(orderId),
        replay: () => declined(orderId),
        phone: applicant.phone,
        template: 'payment_failed',
        parameters: [formatRupees(registration.amountPaise), `${campName} for ${applicant.swimmerName}`, registration.reference, `${config().SITE_URL}/onboarding?${new URLSearchParams({ email: applicant.email, phone: applicant.phone })}`],
        email: `Payment failed: ${campName} for ${applicant.swimmerName} (${registration.reference})`,
      }
    },
  },
  "a family's camp payment fails": {
    async prepare() {
      await campsInAugust()
      const family = await heldFamily()
      const orderId = await pendingPayment({ campRegistrationId: family.leadId }, family.amountPaise)
      const lead = await registrationOf(family.leadId)
      const { campName } = await campDetails()
      return {
        fire: () => declined(orderId),
        replay: () => declined(orderId),
        phone: family.phone,
        template: 'payment_failed',
        parameters: [formatRupees(family.amountPaise), `${campName} for ${family.names}`, lead.reference, `${config().SITE_URL}/onboarding?${new URLSearchParams({ email: family.parent.email, phone: family.phone })}`],
        email: `Payment failed: ${campName} for ${family.names} (${lead.reference})`,
      }
    },
  },
  "a booking's payment arrives too late and is refunded": {
    async prepare() {
      const { customer, phone, booking, orderId } = await lateSessionPayment()
      const title = await productName('biomechanical_package')
      return {
        fire: () => completed(orderId, booking.amountPaise),
        replay: () => completed(orderId, booking.amountPaise),
        phone,
        template: 'refund_started',
        parameters: [
          `${title} for ${customer.swimmerName}`,
          booking.reference,
          `your payment reached us after the ${config().SEAT_HOLD_MINUTES}-minute hold on the time slot had ended, and meanwhile the slot was booked by someone else`,
          formatRupees(booking.amountPaise),
          await refundPolicy(),
        ],
        email: `Your payment is being refunded (${booking.reference})`,
      }
    },
  },
  'a paid booking is cancelled with a refund': {
    async prepare() {
      const { customer, phone } = await accountCustomer('cancelled')
      const held = await heldSession(customer)
      const booking = await bookingOf(held.bookingId)
      await completed(await pendingPayment({ bookingId: held.bookingId }, booking.amountPaise), booking.amountPaise)
      await db().delete(outboxMessages)
      const cancel = () => cancelBooking({ bookingId: held.bookingId, refund: true, enforceDeadline: false })
      return {
        fire: cancel,
        // Cancelling again is refused: the booking is no longer confirmed.
        replay: () => cancel().catch(() => undefined),
        phone,
        template: 'cancelled_refund_started',
        parameters: [`${await productName('biomechanical_package')} for ${customer.swimmerName}`, held.reference, formatRupees(booking.amountPaise), await refundPolicy()],
        email: /^Booking cancelled: /,
      }
    },
  },
  'staff cancel a paid camp registration with a refund': {
    async prepare() {
      await campsInAugust()
      const held = await heldCampSeat()
      const registration = await registrationOf(held.id)
      await completed(await pendingPayment({ campRegistrationId: held.id }, registration.amountPaise), registration.amountPaise)
      await db().delete(outboxMessages)
      const staff = await createStaff()
      const cancel = () => cancelRegistration({ id: staff.id, email: staff.email }, { campCode: 'camp1', reference: registration.reference, refund: true })
      const { campName } = await campDetails()
      return {
        fire: cancel,
        replay: () => cancel().catch(() => undefined),
        phone: registration.phone,
        template: 'cancelled_refund_started',
        parameters: [`${campName} for ${registration.swimmerName}`, registration.reference, formatRupees(registration.amountPaise), await refundPolicy()],
        email: /^Camp registration cancelled: /,
      }
    },
  },
  "a booking's refund completes": {
    async prepare() {
      const { customer, phone, booking, orderId } = await lateSessionPayment()
      await completed(orderId, booking.amountPaise)
      await db().delete(outboxMessages)
      return {
        fire: () => completeRefundOf(orderId),
        replay: () => completeRefundOf(orderId),
        phone,
        template: 'refund_completed',
        parameters: [formatRupees(booking.amountPaise), `${await productName('biomechanical_package')} for ${customer.swimmerName}`, booking.reference, 'our payment provider has paid it back, and depending on your bank it can take a few days to show in your account'],
        email: `Refund completed (${booking.reference})`,
      }
    },
  },
  "a camp registration's payment arrives too late and is refunded": {
    async prepare() {
      const { registration, orderId } = await lateCampPayment()
      const { campName } = await campDetails()
      return {
        fire: () => completed(orderId, registration.amountPaise),
        replay: () => completed(orderId, registration.amountPaise),
        phone: registration.phone,
        template: 'refund_started',
        parameters: [
          `${campName} for ${registration.swimmerName}`,
          registration.reference,
          `your payment reached us after the ${config().SEAT_HOLD_MINUTES}-minute seat hold had ended, and meanwhile the batch filled up`,
          formatRupees(registration.amountPaise),
          await refundPolicy(),
        ],
        email: `Your payment is being refunded (${registration.reference})`,
      }
    },
  },
  "a camp registration's refund completes": {
    async prepare() {
      const { registration, orderId } = await lateCampPayment()
      await completed(orderId, registration.amountPaise)
      await db().delete(outboxMessages)
      const { campName } = await campDetails()
      return {
        fire: () => completeRefundOf(orderId),
        replay: () => completeRefundOf(orderId),
        phone: registration.phone,
        template: 'refund_completed',
        parameters: [formatRupees(registration.amountPaise), `${campName} for ${registration.swimmerName}`, registration.reference, 'our payment provider has paid it back, and depending on your bank it can take a few days to show in your account'],
        email: `Refund completed (${registration.reference})`,
      }
    },
  },
  "a family's late camp payment is refunded, and the refund completes": {
    async prepare() {
      await campsInAugust()
      await setCapacity(2)
      const family = await heldFamily()
      await db().update(campRegistrations).set({ status: 'expired', holdExpiresAt: addMinutes(new Date(), -1) }).where(eq(campRegistrations.groupId, family.leadId))
      const taker = await heldCampSeat()
      await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(campRegistrations.id, taker.id))
      const orderId = await pendingPayment({ campRegistrationId: family.leadId }, family.amountPaise)
      await completed(orderId, family.amountPaise)
      await db().delete(outboxMessages)
      const lead = await registrationOf(family.leadId)
      const { campName } = await campDetails()
      return {
        fire: () => completeRefundOf(orderId),
        replay: () => completeRefundOf(orderId),
        phone: family.phone,
        template: 'refund_completed',
        parameters: [formatRupees(family.amountPaise), `${campName} for ${family.names}`, lead.reference, 'our payment provider has paid it back, and depending on your bank it can take a few days to show in your account'],
        email: `Refund completed (${lead.reference})`,
      }
    },
  },
  'a waitlist seat is offered': {
    async prepare() {
      await campsInAugust()
      await setCapacity(1)
      const now = new Date()
      const first = await heldCampSeat(campParent(), now)
      const waiting = campParent('Tara Nair')
      const joined = await joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant: waiting, ip: '203.0.113.77', now })
      await confirmWaitlistPlace(joined.entryId, now)
      await db().update(campRegistrations).set({ status: 'expired', holdExpiresAt: addMinutes(now, -1) }).where(eq(campRegistrations.id, first.id))
      await db().delete(outboxMessages)
      const offeredAt = addMinutes(now, 1)
      const { campName, batchName } = await campDetails()
      const offered = async () => (await db().select().from(campRegistrations).where(eq(campRegistrations.email, waiting.email)))[0]!
      return {
        fire: () => offerFreedSeats(offeredAt),
        replay: () => offerFreedSeats(addMinutes(offeredAt, 1)),
        phone: waiting.phone,
        template: 'waitlist_seat_offered',
        parameters: async (sent) => {
          // The link carries a key of its own: checked by whether the offer page takes it.
          const url = new URL(sent[4]!)
          const registration = await offered()
          expect(`${url.origin}${url.pathname}`).toBe(`${config().SITE_URL}/onboarding/offer`)
          expect(url.searchParams.get('registration')).toBe(registration.reference)
          expect(await isLinkKey(WAITLIST_OFFER_LINK, registration.reference, url.searchParams.get('key'))).toBe(true)
          return [`${batchName} of ${campName}`, 'Tara Nair', formatLabDateTime(addHours(offeredAt, config().WAITLIST_OFFER_HOURS)), formatRupees(registration.amountPaise), sent[4]!]
        },
        email: `A seat is free: ${campName}, ${batchName}`,
      }
    },
  },
  'a camp registration is paid': {
    async prepare() {
      await campsInAugust()
      const applicant = campParent()
      const held = await heldCampSeat(applicant)
      const registration = await registrationOf(held.id)
      const orderId = await pendingPayment({ campRegistrationId: held.id }, registration.amountPaise)
      const { campName, dates, batchLine } = await campDetails()
      return {
        fire: () => completed(orderId, registration.amountPaise),
        replay: () => completed(orderId, registration.amountPaise),
        phone: applicant.phone,
        template: 'camp_confirmed',
        parameters: [applicant.swimmerName, campName, dates, batchLine, registration.reference],
        email: `Camp registration confirmed: ${applicant.swimmerName}, ${campName} (${registration.reference})`,
      }
    },
  },
  "a family's camp registrations are paid together": {
    async prepare() {
      await campsInAugust()
      const family = await heldFamily()
      const orderId = await pendingPayment({ campRegistrationId: family.leadId }, family.amountPaise)
      const lead = await registrationOf(family.leadId)
      const { campName, dates, batchLine } = await campDetails()
      return {
        fire: () => completed(orderId, family.amountPaise),
        replay: () => completed(orderId, family.amountPaise),
        phone: family.phone,
        template: 'camp_confirmed',
        parameters: [family.names, campName, dates, batchLine, lead.reference],
        email: `Camp registration confirmed: ${family.names}, ${campName} (${lead.reference})`,
      }
    },
  },
  'the day before Day 1 of a session': {
    async prepare() {
      const { customer, phone } = await accountCustomer()
      const held = await heldSession(customer, { now: labInstant('2030-02-01', '10:00') })
      await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, held.bookingId))
      return {
        fire: () => sendDueReminders(labInstant('2030-03-03', '09:00')),
        // Another run that day, and the reminders before Day 2 and Day 3 (e-mail only).
        replay: async () => {
          await sendDueReminders(labInstant('2030-03-03', '18:00'))
          await sendDueReminders(labInstant('2030-03-04', '09:00'))
          await sendDueReminders(labInstant('2030-03-05', '09:00'))
        },
        phone,
        template: 'session_reminder',
        parameters: [customer.name, (await productName('biomechanical_package')).toLowerCase(), customer.swimmerName, held.reference, 'Monday, 4 March 2030, 9:00 AM - 10:00 AM', AT_THE_LAB],
        email: /^Reminder: Day 1 of your/,
      }
    },
  },
  'the day before a camp': {
    async prepare() {
      await campsInAugust()
      const applicant = campParent()
      const held = await heldCampSeat(applicant)
      await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(campRegistrations.id, held.id))
      const registration = await registrationOf(held.id)
      const { campName, batchLine } = await campDetails()
      const [camp] = await db().select({ venue: camps.venue }).from(camps).where(eq(camps.code, 'camp1'))
      return {
        fire: () => sendDueReminders(labInstant('2030-08-07', '10:00')),
        replay: () => sendDueReminders(labInstant('2030-08-07', '11:00')),
        phone: applicant.phone,
        template: 'camp_reminder',
        parameters: [campName, formatLongDate('2030-08-08'), applicant.swimmerName, registration.reference, batchLine, camp!.venue || 'PDCSE, Bangalore'],
        email: `Reminder: ${campName} starts tomorrow`,
      }
    },
  },
  'an analysis is published': {
    async prepare() {
      const { customer, phone } = await accountCustomer('analysed')
      const { bookings: [booking] } = await confirmedBookings(['2030-03-04'], customer)
      const actor = await createStaff()
      const analysisId = await startAnalysis(actor, booking!.bookingId)
      await saveFinding(actor, analysisId, { title: 'Early breathing on the turn', whyItMatters: '', priority: 'high' })
      return {
        fire: () => publishAnalysis({ actor, analysisId, tellFamily: false, now: new Date('2030-03-08T06:00:00Z') }),
        // Published again without telling the family.
        replay: () => publishAnalysis({ actor, analysisId, tellFamily: false, now: new Date('2030-03-09T06:00:00Z') }),
        phone,
        template: 'report_ready',
        parameters: [customer.name, firstNameOf(customer.swimmerName), 'biomechanical analysis', booking!.reference, `${config().SITE_URL}/analyses/${analysisId}`],
        email: `${firstNameOf(customer.swimmerName)}'s biomechanical analysis is ready (${booking!.reference})`,
      }
    },
  },
  'an analysis is published again, telling the family': {
    async prepare() {
      const { customer, phone } = await accountCustomer('analysed')
      const { bookings: [booking] } = await confirmedBookings(['2030-03-04'], customer)
      const actor = await createStaff()
      const analysisId = await startAnalysis(actor, booking!.bookingId)
      await saveFinding(actor, analysisId, { title: 'Early breathing on the turn', whyItMatters: '', priority: 'high' })
      await publishAnalysis({ actor, analysisId, tellFamily: false, now: new Date('2030-03-08T06:00:00Z') })
      await db().delete(outboxMessages)
      return {
        fire: () => publishAnalysis({ actor, analysisId, tellFamily: true, now: new Date('2030-03-09T06:00:00Z') }),
        replay: () => publishAnalysis({ actor, analysisId, tellFamily: false, now: new Date('2030-03-10T06:00:00Z') }),
        phone,
        template: 'results_updated',
        parameters: [customer.name, firstNameOf(customer.swimmerName), 'biomechanical analysis', booking!.reference, `${config().SITE_URL}/analyses/${analysisId}`],
        email: `${firstNameOf(customer.swimmerName)}'s biomechanical analysis has been updated (${booking!.reference})`,
      }
    },
  },
  "a guest booking's report is delivered": {
    async prepare() {
      const held = await heldGuestSession()
      await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, held.bookingId))
      return {
        fire: () => deliverReport({ bookingId: held.bookingId, note: 'Well swum.', videoLinks: [], files: [], staffId: null }),
        // Adding to the report is another message (results_updated); delivering it is told once.
        replay: async () => {},
        phone: GUEST.phone!,
        template: 'report_ready',
        parameters: [GUEST.name, firstNameOf(GUEST.swimmerName), 'race analysis', held.reference, await privateLinkUrl(GUEST_BOOKING_LINK, held.reference)],
        email: `Your personalised report is ready (${held.reference})`,
      }
    },
  },
  "something is added to a signed-in customer's report": {
    async prepare() {
      const { customer, phone } = await accountCustomer('reported')
      const { bookings: [booking] } = await confirmedBookings(['2030-03-04'], customer)
      await deliverReport({ bookingId: booking!.bookingId, note: 'Well swum.', videoLinks: [], files: [], staffId: null })
      await db().delete(outboxMessages)
      return {
        fire: () => deliverReport({ bookingId: booking!.bookingId, note: 'Well swum. The turn video is added.', videoLinks: [{ label: 'Turns', url: 'https://video.example/turns' }], files: [], staffId: null }),
        replay: async () => {},
        phone,
        template: 'results_updated',
        parameters: [customer.name, firstNameOf(customer.swimmerName), 'biomechanical analysis', booking!.reference, `${config().SITE_URL}/my-bookings`],
        email: `Your report has been updated (${booking!.reference})`,
      }
    },
  },
  'the next analysis is due': {
    async prepare() {
      const { customer, phone } = await accountCustomer('invited')
      const { bookings: [booking] } = await confirmedBookings(['2030-03-04'], customer)
      await recordedAnalysis(booking!.bookingId, { metrics: { final_time: 31.2 }, publishedAt: new Date('2030-03-10T06:00:00Z') })
      await db().update(analyses).set({ nextAnalysisOn: '2030-06-01' })
      const first = customer.swimmerName.split(' ')[0]!
      return {
        fire: () => inviteBackForNextAnalysis(labInstant('2030-06-01', '09:00')),
        replay: () => inviteBackForNextAnalysis(labInstant('2030-06-02', '09:00')),
        phone,
        template: 'next_analysis_due',
        parameters: [customer.name, first, '4 March 2030', `${config().SITE_URL}/book-slot?swimmer=${customer.swimmerId}`],
        email: `Time for ${first}'s next analysis`,
      }
    },
  },
}

async function expectEmail(email: Prepared['email']) {
  if (email === null) return
  const wanted = typeof email === 'function' ? email() : email
  const subjects = await emailSubjects()
  expect(subjects.filter((subject) => (typeof wanted === 'string' ? subject === wanted : wanted.test(subject)))).toHaveLength(1)
}

describe.each(Object.entries(SCENARIOS))('when %s', (_, scenario) => {
  it('the opted-in number gets its WhatsApp message once, beside the e-mail; the message kept holds no private link, the one sent does', async () => {
    turnWhatsAppOn()
    const prepared = await scenario.prepare()
    await optInToWhatsApp({ phone: prepared.phone, source: 'booking' })
    await prepared.fire()
    await prepared.replay()
    const messages = await whatsappMessages()
    expect(messages.map((message) => message.templateName)).toEqual([prepared.template])
    const [message] = messages
    expect(message!.to).toBe(toE164(prepared.phone))
    expect(message!.status).toBe('queued')
    await expectEmail(prepared.email)

    const [received, ...more] = await receivedBy(prepared.phone)
    expect(more).toEqual([])
    expect(received, `not sent: ${(await whatsappMessages())[0]?.lastError}`).toMatchObject({ type: 'template', template: prepared.template })
    expect(received!.parameters).toEqual(typeof prepared.parameters === 'function' ? await prepared.parameters(received!.parameters) : prepared.parameters)
    // What is kept (for staff, the data export, a retry) opens nothing: no key, no one's address or number in a link.
    const [kept] = await whatsappMessages()
    expect(kept!.templateParams).toEqual(received!.parameters.map(withoutPrivateParts))
    expect(JSON.stringify([kept!.templateParams, kept!.text])).not.toMatch(/[?&](key|email|phone)=/)
  })

  it.each([
    ['WhatsApp is off', { on: false, consent: 'in' }],
    ['the number never opted in', { on: true, consent: 'none' }],
    ['the number opted out', { on: true, consent: 'out' }],
  ] as const)('nothing is sent on WhatsApp when %s, and the e-mail is the same', async (_, { on, consent }) => {
    if (on) turnWhatsAppOn()
    const prepared = await scenario.prepare()
    if (consent !== 'none') await optInToWhatsApp({ phone: prepared.phone, source: 'booking' })
    if (consent === 'out') await optOutOfWhatsApp({ phone: prepared.phone, source: 'reply' })
    await prepared.fire()
    await prepared.replay()
    expect(await whatsappMessages()).toEqual([])
    await expectEmail(prepared.email)
  })

  it('a number a form asked for, whose owner has not confirmed, hears nothing of it but the one request to confirm', async () => {
    turnWhatsAppOn()
    const prepared = await scenario.prepare()
    await requestWhatsAppMessages({ phone: prepared.phone, source: 'booking' })
    await prepared.fire()
    await prepared.replay()
    expect((await whatsappMessages()).map((message) => message.templateName)).toEqual(['confirm_whatsapp_messages'])
    await expectEmail(prepared.email)
  })
})

describe('an order given up before any payment started (its promo code refused on the form)', () => {
  it('is released without telling the customer, who is on the form, that a payment failed', async () => {
    turnWhatsAppOn()
    const { customer, phone } = await accountCustomer('gaveup')
    await optInToWhatsApp({ phone, source: 'booking' })
    const held = await heldSession(customer)
    await abandonOrder({ payable: { kind: 'booking', id: held.bookingId } })
    expect((await bookingOf(held.bookingId)).status).toBe('payment_failed')
    expect(await whatsappMessages()).toEqual([])
    expect((await emailSubjects()).filter((subject) => subject.startsWith('Payment failed'))).toEqual([])
  })
})

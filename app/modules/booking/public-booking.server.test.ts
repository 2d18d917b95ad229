import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, catalogueItems, consentRequests, guardianConsents, outboxMessages, payments, swimmers as swimmersTable } from '~/db/schema'
import { addMinutes, labInstant } from '~/lib/lab-time'
import { ConsentNeededError, PRIVACY_NOTICE_VERSION } from '~/modules/swimmers/consent.server'
import { GuardianDeclarationRefusedError } from '~/modules/swimmers/consent.server'
import { GuardianDeclarationNeededError, insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { swimmerInput } from '../../../tests/support/accounts'
import { createCustomers, createStaff, setWindows } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { saveFinding, startAnalysis } from '~/modules/analyses/editing.server'
import { publishAnalysis } from '~/modules/analyses/publishing.server'
import { newOrderId } from '~/modules/payments/gateway-contract.server'
import { applyOrderStatus } from '~/modules/payments/payments.server'
import { sendDueReminders } from '~/modules/reminders/reminders.server'
import { optInToWhatsApp } from '~/modules/whatsapp/consent.server'
import { useWhatsAppOn } from '../../../tests/support/whatsapp-on'
import { cancelBooking } from './changes.server'
import { customerBookings } from './bookings.server'
import { holdSession, SlotUnavailableError } from './holds.server'
import { bookingSwimmerChoices, bookingTimesOn, holdSingleSession, singleServicePrices } from './public-booking.server'
import { PublicBookingSchema, type PublicBookingInput } from './schemas'
import { ChooseSwimmerError } from './swimmer-choice.server'

useTestDatabase()

const MORNING = new Date('2026-12-01T04:30:00Z') // 10:00 in Bangalore on 1 December
const holdAsGuest = (input: PublicBookingInput) => holdSingleSession(input, visitor({ email: input.email }), MORNING)
const details = (overrides: Partial<PublicBookingInput> = {}): PublicBookingInput => ({ name: 'Kavya Nair', email: 'kavya@example.com', phone: '', service: 'race', date: '2026-12-02', time: '10:00', notes: '', ...overrides })

describe('the times /booking offers', () => {
  it('are nine, 9:00 AM to 5:00 PM, each free only where a window offers it and it has not begun', async () => {
    await setWindows([{ date: '2026-12-01', start: '09:00', end: '18:00', capacity: 1 }, { date: '2026-12-02', start: '11:00', end: '15:00', capacity: 1 }])
    const today = await bookingTimesOn('2026-12-01', MORNING)
    expect(today.map((slot) => slot.time)).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00'])
    expect(today.map((slot) => slot.state)).toEqual(['not_available', 'not_available', 'available', 'available', 'available', 'available', 'available', 'available', 'available'])
    const tomorrow = await bookingTimesOn('2026-12-02', MORNING)
    expect(tomorrow.filter((slot) => slot.state === 'available').map((slot) => slot.time)).toEqual(['11:00', '12:00', '13:00', '14:00'])
  })

  it('share their seats with the 3-day sessions: a time held by either is Booked for the other', async () => {
    await setWindows(['2026-12-02', '2026-12-03', '2026-12-04'].map((date) => ({ date, start: '09:00', end: '18:00', capacity: 1 })))
    const [customer] = await createCustomers(1)
    await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: '2026-12-02', start: '10:00', days: 3, now: MORNING })
    expect((await bookingTimesOn('2026-12-03', MORNING)).find((slot) => slot.time === '10:00')?.state).toBe('full')
    await holdAsGuest(details({ date: '2026-12-04', time: '11:00' }))
    await expect(holdSession({ customer: customer!, productCode: 'biomechanical_package', date: '2026-12-02', start: '11:00', days: 3, now: MORNING })).rejects.toThrow(SlotUnavailableError)
  })

  it('are named, described and priced from the catalogue', async () => {
    await db().update(catalogueItems).set({ pricePaise: 3_999_00, name: 'Race and Stroke Session', duration: '60 minutes' }).where(eq(catalogueItems.code, 'single_both'))
    expect((await singleServicePrices()).map(({ description, ...rest }) => ({ ...rest, described: description.length > 20 }))).toEqual([
      { value: 'race', label: 'Race Analysis Session', duration: '45-60 minutes', pricePaise: 3_499_00, described: true },
      { value: 'biomechanical', label: 'Biomechanical Analysis Session', duration: '45-60 minutes', pricePaise: 3_499_00, described: true },
      { value: 'both', label: 'Race and Stroke Session', duration: '60 minutes', pricePaise: 3_999_00, described: true },
    ])
  })
})

describe('holding a single session', () => {
  it('holds one seat for a guest at the service’s price, under an SWP- booking id', async () => {
    await setWindows([{ date: '2026-12-02', start: '09:00', end: '18:00' }])
    const held = await holdAsGuest(details({ service: 'both', email: 'Kavya@Example.com', notes: 'Left shoulder niggle' }))
    expect(held.days).toHaveLength(1)
    const [row] = await db().select().from(bookings).where(eq(bookings.id, held.bookingId))
    expect(row).toMatchObject({ userId: null, productCode: 'single_both', amountPaise: 5_999_00, customerEmail: 'kavya@example.com', notes: 'Left shoulder niggle', status: 'pending' })
    expect(row!.reference).toMatch(/^SWP-\d{10}$/)
  })

  it(`of 200 guests trying at once for the last seat, exactly one gets it (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await setWindows([{ date: '2026-12-02', start: '09:00', end: '18:00', capacity: 2 }])
    await holdAsGuest(details({ email: 'first@example.com' }))
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, index) => holdAsGuest(details({ email: `guest${index}@example.com` }))))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(results.every((result) => result.status === 'fulfilled' || result.reason instanceof SlotUnavailableError)).toBe(true)
  })
})

describe('who swims', () => {
  const forChild = (overrides: Partial<PublicBookingInput> = {}) => details({ name: 'Ravi Kumar', email: 'Ravi@Example.com', whoSwims: 'someone_else', swimmerName: 'Kavya Kumar', swimmerAge: '12', ...overrides })
  // In the order they were made: without ORDER BY the database may hand rows back in any order.
  const rows = async () => ({
    bookings: await db().select({ userId: bookings.userId, swimmerId: bookings.swimmerId, swimmerName: bookings.swimmerName, swimmerAge: bookings.swimmerAge, customerName: bookings.customerName }).from(bookings).orderBy(asc(bookings.id)),
    consents: await db().select().from(guardianConsents).orderBy(asc(guardianConsents.id)),
  })

  it('is the account’s swimmer it chose, as on /book-slot; the account holder stays the one who books', async () => {
    await setWindows([{ date: '2026-12-02', start: '09:00', end: '18:00' }])
    const [parent, stranger] = await createCustomers(2)
    const child = await insertSwimmer(db(), parent!.userId!, 'Dev Rao', swimmerInput({ name: 'Dev Rao', age: '19' }), { isAccountHolder: false, now: MORNING })
    const holder = visitor({ userId: parent!.userId, email: parent!.email })
    const asParent = (whoSwims?: string) => details({ name: parent!.name, email: parent!.email, whoSwims })
    await expect(holdSingleSession(asParent(String(stranger!.swimmerId)), holder, MORNING)).rejects.toBeInstanceOf(ChooseSwimmerError)
    // Two swimmers and none named: the family is asked, not booked for someone.
    await expect(holdSingleSession(asParent(), holder, MORNING)).rejects.toBeInstanceOf(ChooseSwimmerError)
    const held = await holdSingleSession(asParent(String(child.id)), holder, MORNING)
    expect(held.swimmerName).toBe('Dev Rao')
    expect((await rows()).bookings).toEqual([{ userId: parent!.userId, swimmerId: child.id, swimmerName: 'Dev Rao', swimmerAge: null, customerName: parent!.name }])
  })

  it('a swimmer of the account under 18 needs a parent’s consent in force, and an account of a minor waiting for it cannot book someone else as their guardian', async () => {
    await setWindows([{ date: '2026-12-02', start: '09:00', end: '18:00' }])
    const [minor] = await createCustomers(1)
    const [own] = await db().update(swimmersTable).set({ ageYears: 15 }).where(eq(swimmersTable.id, minor!.swimmerId!)).returning({ id: swimmersTable.id })
    await db().insert(consentRequests).values({ swimmerId: own!.id, parentEmail: 'parent@example.com', tokenHash: 'b'.repeat(64), expiresAt: new Date(MORNING.getTime() + 86_400_000) })
    const holder = visitor({ userId: minor!.userId, email: minor!.email })
    await expect(holdSingleSession(details({ email: minor!.email }), holder, MORNING)).rejects.toBeInstanceOf(ConsentNeededError)
    await expect(holdSingleSession(forChild({ email: minor!.email, guardianDeclaration: 'on' }), holder, MORNING)).rejects.toBeInstanceOf(GuardianDeclarationRefusedError)
    expect((await bookingSwimmerChoices(minor!.userId!, MORNING)).someoneElse).toBe(false)
    expect(await rows()).toEqual({ bookings: [], consents: [] })
  })

  it('for a guest, is themselves, or someone else named with their age (kept with the name): under 18 only with their declaration as parent or guardian, kept with the booking', async () => {
    await setWindows([{ date: '2026-12-02', start: '09:00', end: '18:00', capacity: 3 }])
    await expect(holdAsGuest(forChild())).rejects.toBeInstanceOf(GuardianDeclarationNeededError)
    // A guest has no swimmer profiles to name.
    const [family] = await createCustomers(1)
    await expect(holdAsGuest(details({ whoSwims: String(family!.swimmerId) }))).rejects.toBeInstanceOf(ChooseSwimmerError)
    expect(await rows()).toEqual({ bookings: [], consents: [] })

    const declared = await holdAsGuest(forChild({ guardianDeclaration: 'on' }))
    await holdAsGuest(forChild({ email: 'meera@example.com', name: 'Meera Das', swimmerName: 'Arjun Das', swimmerAge: '18' }))
    await holdAsGuest(details({ email: 'asha@example.com', name: 'Asha Menon' }))
    const { bookings: booked, consents } = await rows()
    expect(booked).toEqual([
      { userId: null, swimmerId: null, swimmerName: 'Kavya Kumar', swimmerAge: 12, customerName: 'Ravi Kumar' },
      { userId: null, swimmerId: null, swimmerName: 'Arjun Das', swimmerAge: 18, customerName: 'Meera Das' },
      { userId: null, swimmerId: null, swimmerName: 'Asha Menon', swimmerAge: null, customerName: 'Asha Menon' },
    ])
    expect(consents).toEqual([
      expect.objectContaining({ bookingId: declared.bookingId, swimmerId: null, campRegistrationId: null, guardianName: 'Ravi Kumar', guardianEmail: 'ravi@example.com', emailVerifiedBy: 'unverified', method: 'booking_form', noticeVersion: PRIVACY_NOTICE_VERSION, givenAt: MORNING, withdrawnAt: null }),
    ])
  })

  it('keeps no declaration when the seat cannot be held', async () => {
    await setWindows([{ date: '2026-12-02', start: '09:00', end: '18:00', capacity: 1 }])
    await holdAsGuest(details({ email: 'first@example.com' }))
    await expect(holdAsGuest(forChild({ guardianDeclaration: 'on' }))).rejects.toBeInstanceOf(SlotUnavailableError)
    expect((await rows()).consents).toEqual([])
  })
})

describe('a session a guest booked for their child', () => {
  useWhatsAppOn()

  it("names the child on WhatsApp wherever a message speaks of who swims, and greets the parent who booked", async () => {
    await setWindows([{ date: '2026-12-02', start: '09:00', end: '18:00' }])
    await optInToWhatsApp({ phone: '98450 12345', source: 'booking' })
    const held = await holdAsGuest(details({ name: 'Ravi Kumar', email: 'ravi@example.com', phone: '98450 12345', whoSwims: 'someone_else', swimmerName: 'Kavya Kumar', swimmerAge: '12', guardianDeclaration: 'on' }))
    const orderId = newOrderId('SLOT', MORNING)
    await db().insert(payments).values({ orderId, bookingId: held.bookingId, gateway: 'sandbox', amountPaise: 3_499_00, state: 'pending', expiresAt: addMinutes(MORNING, 20), createdAt: MORNING, updatedAt: MORNING })
    await applyOrderStatus(orderId, { state: 'completed', amountPaise: 3_499_00, transactionId: `T${orderId}`, paymentMode: 'UPI' })
    await sendDueReminders(labInstant('2026-12-01', '18:00'))
    const actor = await createStaff()
    const analysisId = await startAnalysis(actor, held.bookingId)
    await saveFinding(actor, analysisId, { title: 'Kick from the hips', whyItMatters: '', priority: 'medium' })
    await publishAnalysis({ actor, analysisId, tellFamily: false, now: labInstant('2026-12-03', '10:00') })
    await cancelBooking({ bookingId: held.bookingId, enforceDeadline: false, now: MORNING })

    const messages = await db().select({ template: outboxMessages.templateName, parameters: outboxMessages.templateParams }).from(outboxMessages).where(eq(outboxMessages.channel, 'whatsapp')).orderBy(asc(outboxMessages.id))
    expect(messages).toEqual([
      { template: 'booking_confirmed', parameters: ['Ravi Kumar', 'Race Analysis Session', 'Kavya Kumar', 'Wednesday, 2 December 2026, 10:00 AM - 11:00 AM', 'the Swimming Sport Science Lab', held.reference] },
      { template: 'session_reminder', parameters: ['Ravi Kumar', 'race analysis session', 'Kavya Kumar', held.reference, 'Wednesday, 2 December 2026, 10:00 AM - 11:00 AM', 'the Swimming Sport Science Lab'] },
      { template: 'report_ready', parameters: ['Ravi Kumar', 'Kavya', 'race analysis', held.reference, expect.stringContaining('/booking/view?ref=') ] },
      { template: 'cancelled_refund_started', parameters: ['Race Analysis Session for Kavya Kumar', held.reference, '₹3,499.00', expect.any(String)] },
    ])
  })
})

describe('a guest’s booking and their account', () => {
  it('appears in My Bookings of the account verified for the same address, and not in anyone else’s', async () => {
    await setWindows([{ date: '2026-12-02', start: '09:00', end: '18:00' }])
    const held = await holdAsGuest(details({ email: 'kavya@example.com' }))
    await db().update(bookings).set({ status: 'confirmed' }).where(eq(bookings.id, held.bookingId))
    const [kavya, other] = await createCustomers(2)
    expect((await customerBookings(kavya!.userId!, 'Kavya@example.com')).map((booking) => booking.reference)).toEqual([held.reference])
    expect(await customerBookings(other!.userId!, other!.email)).toEqual([])
  })
})

describe('the details form', () => {
  const errors = (values: Record<string, unknown>) => {
    const result = PublicBookingSchema.safeParse(values)
    return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
  }

  it('needs name, email, service, date and time; phone and notes are optional', () => {
    expect(errors({ name: 'Kavya Nair', email: 'kavya@example.com', service: 'race', date: '2026-12-02', time: '10:00' })).toEqual({})
    expect(Object.keys(errors({}))).toEqual(['name', 'email', 'service', 'date', 'time'])
  })

  it("asks someone else's name and age, and under 18 the declaration as parent or guardian, each next to its field", () => {
    const base = { name: 'Ravi Kumar', email: 'ravi@example.com', service: 'race', date: '2026-12-02', time: '10:00', whoSwims: 'someone_else' }
    expect(errors(base)).toEqual({ swimmerName: "Swimmer's name must be at least 2 characters", swimmerAge: "Please enter the swimmer's age in years" })
    expect(errors({ ...base, swimmerName: 'Kavya Kumar', swimmerAge: 'twelve' })).toEqual({ swimmerAge: "Please enter the swimmer's age in years" })
    expect(errors({ ...base, swimmerName: 'Kavya Kumar', swimmerAge: '12' })).toEqual({ guardianDeclaration: "Please confirm that you are the swimmer's parent or guardian and agree to the Privacy Policy" })
    expect(errors({ ...base, swimmerName: 'Kavya Kumar', swimmerAge: '12', guardianDeclaration: 'yes' })).toEqual({ guardianDeclaration: "Please confirm that you are the swimmer's parent or guardian and agree to the Privacy Policy" })
    expect(errors({ ...base, swimmerName: 'Kavya Kumar', swimmerAge: '12', guardianDeclaration: 'on' })).toEqual({})
    expect(errors({ ...base, swimmerName: 'Arjun Das', swimmerAge: '18' })).toEqual({})
    // Myself, or nothing said (a guest's default): the name given is the swimmer's.
    expect(errors({ ...base, whoSwims: 'myself' })).toEqual({})
    expect(errors({ ...base, whoSwims: 'everyone' })).toEqual({ whoSwims: 'Please choose who will swim' })
  })

  it('refuses a time outside the nine, a date that does not exist, and a short phone number', () => {
    const base = { name: 'Kavya Nair', email: 'kavya@example.com', service: 'race', date: '2026-12-02', time: '10:00' }
    expect(errors({ ...base, time: '18:00' })).toEqual({ time: 'Please choose a time' })
    expect(errors({ ...base, date: '2026-02-30' })).toEqual({ date: 'Please choose a date' })
    expect(errors({ ...base, phone: '12345' })).toEqual({ phone: 'Phone number must be at least 10 digits' })
    expect(errors({ ...base, service: 'massage' })).toEqual({ service: 'Please choose a service' })
  })
})

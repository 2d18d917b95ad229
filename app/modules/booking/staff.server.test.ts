import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, bookingDays, bookings, payments, receipts, refunds } from '~/db/schema'
import { overview } from '~/modules/overview/overview.server'
import { createCustomers, createStaff, mailTo, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { swimmerInput } from '../../../tests/support/accounts'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { cancelBooking, NotChangeableError } from './changes.server'
import { SlotUnavailableError } from './holds.server'
import { createStaffBooking, setAttendance, staffBookings, type StaffBookingInput } from './staff.server'

useTestDatabase()

// 1 March 2030, 10:00 in Bangalore.
const NOW = new Date('2030-03-01T04:30:00Z')

const walkIn = (overrides: Partial<StaffBookingInput> = {}): StaffBookingInput => ({
  productCode: 'single_race',
  days: 1,
  date: '2030-03-04',
  start: '09:00',
  customer: { name: 'Asha Rao', email: 'Asha@Example.com', phone: '9845012345' },
  origin: 'offline',
  amountPaise: 250_000,
  paymentMethod: 'UPI',
  notes: null,
  ...overrides,
})

describe('bookings staff make', () => {
  it('paid at the lab: confirmed, with a completed offline payment, its receipt, the confirmation e-mail and an audit entry', async () => {
    await setWindows([{ date: '2030-03-04', capacity: 1 }])
    const actor = await createStaff()
    const booking = await createStaffBooking(actor, walkIn(), NOW)
    const [row] = await db().select().from(bookings).where(eq(bookings.id, booking.id))
    expect(row).toMatchObject({ status: 'confirmed', origin: 'offline', amountPaise: 250_000, customerEmail: 'asha@example.com', userId: null })
    const [payment] = await db().select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment).toMatchObject({ gateway: 'offline', state: 'completed', amountPaise: 250_000, paymentMode: 'UPI' })
    expect(payment!.orderId).toMatch(/^OFFL/)
    const [receipt] = await db().select().from(receipts).where(eq(receipts.paymentId, payment!.id))
    expect(receipt!.number).toBe('SSL/29-30/000001')
    expect((await mailTo('asha@example.com')).map((mail) => mail.subject)).toEqual([expect.stringContaining(booking.reference)])
    const [entry] = await db().select().from(auditLog)
    expect(entry).toMatchObject({ actorEmail: 'staff@lab.example', action: 'booking.create', entityId: booking.reference })
    // The customer's name, address and number are kept apart from what the entry says, for erasure to replace.
    expect(entry).toMatchObject({ summary: `Booked ${booking.reference} for {customer} on 2030-03-04 at 09:00 (paid at the lab, ₹2,500.00)`, personal: { customer: 'Asha Rao', email: 'Asha@Example.com', phone: '9845012345' }, bookingId: booking.id })
    expect(JSON.stringify([entry!.summary, entry!.before, entry!.after])).not.toMatch(/asha|9845012345/i)
  })

  it('complimentary: amount 0 and no payment, linked to the customer’s verified account so it shows in My Bookings', async () => {
    await setWindows([{ date: '2030-03-04', capacity: 1 }])
    const [customer] = await createCustomers(1, 'asha')
    const booking = await createStaffBooking(await createStaff(), walkIn({ origin: 'complimentary', amountPaise: 0, paymentMethod: null, customer: { name: 'Asha', email: customer!.email, phone: null } }), NOW)
    const [row] = await db().select().from(bookings).where(eq(bookings.id, booking.id))
    expect(row).toMatchObject({ status: 'confirmed', origin: 'complimentary', amountPaise: 0, userId: customer!.userId })
    expect(await db().select().from(payments)).toEqual([])
  })

  it("for a family: the account's swimmer named on the form gets the booking; with no name, the account's only swimmer; a name no profile has is kept as typed", async () => {
    await setWindows([{ date: '2030-03-04', capacity: 5 }])
    const actor = await createStaff()
    const [parent] = await createCustomers(1, 'lakshmi')
    const account = { name: 'Lakshmi Rao', email: parent!.email, phone: null }
    const complimentary = { origin: 'complimentary' as const, amountPaise: 0, paymentMethod: null }
    const swimmerOfBooking = async (id: number) => (await db().select({ swimmerId: bookings.swimmerId, swimmerName: bookings.swimmerName, customerName: bookings.customerName }).from(bookings).where(eq(bookings.id, id)))[0]

    // The account has one swimmer: the holder (its fixture's name), booked with their own name.
    const only = await createStaffBooking(actor, walkIn({ ...complimentary, customer: account }), NOW)
    expect(await swimmerOfBooking(only.id)).toEqual({ swimmerId: parent!.swimmerId, swimmerName: parent!.name, customerName: 'Lakshmi Rao' })

    const kavya = await insertSwimmer(db(), parent!.userId!, 'Kavya Rao', swimmerInput({ name: 'Kavya Rao', age: '20' }), { isAccountHolder: false, now: NOW })
    const forKavya = await createStaffBooking(actor, walkIn({ ...complimentary, customer: account, swimmerName: 'kavya rao' }), NOW)
    expect(await swimmerOfBooking(forKavya.id)).toEqual({ swimmerId: kavya.id, swimmerName: 'Kavya Rao', customerName: 'Lakshmi Rao' })
    const unknown = await createStaffBooking(actor, walkIn({ ...complimentary, customer: account, swimmerName: 'Meera Rao' }), NOW)
    expect(await swimmerOfBooking(unknown.id)).toEqual({ swimmerId: null, swimmerName: 'Meera Rao', customerName: 'Lakshmi Rao' })
    const unnamed = await createStaffBooking(actor, walkIn({ ...complimentary, customer: account }), NOW)
    expect(await swimmerOfBooking(unnamed.id)).toEqual({ swimmerId: null, swimmerName: 'Lakshmi Rao', customerName: 'Lakshmi Rao' })
  })

  it('a 3-day package takes three days in a row, and staff cannot overbook a full time slot or book one that has begun', async () => {
    await setWindows([{ date: '2030-03-04' }, { date: '2030-03-05' }, { date: '2030-03-06' }])
    const actor = await createStaff()
    const booking = await createStaffBooking(actor, walkIn({ productCode: 'biomechanical_package', days: 3 }), NOW)
    expect((await db().select({ date: bookingDays.date }).from(bookingDays).where(eq(bookingDays.bookingId, booking.id))).map((day) => day.date).sort()).toEqual(['2030-03-04', '2030-03-05', '2030-03-06'])
    await expect(createStaffBooking(actor, walkIn({ date: '2030-03-05' }), NOW)).rejects.toBeInstanceOf(SlotUnavailableError)
    await expect(createStaffBooking(actor, walkIn({ date: '2030-03-05', start: '10:00' }), NOW)).resolves.toBeTruthy()
    await expect(createStaffBooking(actor, walkIn({ date: '2030-03-04', start: '11:00' }), new Date('2030-03-04T05:31:00Z'))).rejects.toBeInstanceOf(SlotUnavailableError)
    expect(await db().select().from(bookings)).toHaveLength(2)
  })

  it('attendance is marked on confirmed bookings only, and each mark is audited', async () => {
    await setWindows([{ date: '2030-03-04', capacity: 2 }])
    const actor = await createStaff()
    const booking = await createStaffBooking(actor, walkIn(), NOW)
    await setAttendance(actor, booking.id, 'no_show', NOW)
    await setAttendance(actor, booking.id, 'attended', NOW)
    expect((await db().select().from(bookings))[0]!.attendance).toBe('attended')
    const marks = await db().select().from(auditLog).where(eq(auditLog.action, 'booking.attendance'))
    expect(marks.map((mark) => mark.summary)).toEqual([`Marked ${booking.reference} as a no-show`, `Marked ${booking.reference} as attended`])
    await cancelBooking({ bookingId: booking.id, refund: false, actor, now: NOW })
    await expect(setAttendance(actor, booking.id, null, NOW)).rejects.toBeInstanceOf(NotChangeableError)
  })

  it('staff find bookings by date range, status, product and any of name, e-mail, phone, reference or order ID', async () => {
    await setWindows([{ date: '2030-03-04', capacity: 3 }, { date: '2030-03-11', capacity: 3 }])
    const actor = await createStaff()
    const asha = await createStaffBooking(actor, walkIn(), NOW)
    const ravi = await createStaffBooking(actor, walkIn({ date: '2030-03-11', customer: { name: 'Ravi 50%_off', email: 'ravi@example.com', phone: '+919000000001' }, origin: 'complimentary', amountPaise: 0 }), NOW)
    const refs = async (filters: Parameters<typeof staffBookings>[0]) => (await staffBookings(filters)).map((row) => row.reference)
    expect(await refs({})).toEqual([ravi.reference, asha.reference])
    expect(await refs({ from: '2030-03-05' })).toEqual([ravi.reference])
    expect(await refs({ to: '2030-03-05' })).toEqual([asha.reference])
    expect(await refs({ search: 'ASHA' })).toEqual([asha.reference])
    expect(await refs({ search: '9000000001' })).toEqual([ravi.reference])
    // However the number is typed.
    expect(await refs({ search: '+91 90000-00001' })).toEqual([ravi.reference])
    expect(await refs({ search: ravi.reference.toLowerCase() })).toEqual([ravi.reference])
    const [payment] = await db().select().from(payments)
    expect(await refs({ search: payment!.orderId })).toEqual([asha.reference])
    // LIKE wildcards are matched literally.
    expect(await refs({ search: '50%_' })).toEqual([ravi.reference])
    expect(await refs({ search: '%' })).toEqual([ravi.reference])
    await cancelBooking({ bookingId: ravi.id, refund: false, actor, now: NOW })
    expect(await refs({ status: 'cancelled' })).toEqual([ravi.reference])
    expect(await refs({ status: 'confirmed', product: 'single_race' })).toEqual([asha.reference])
    expect(await refs({ product: 'biomechanical_package' })).toEqual([])
  })
})

describe('overview', () => {
  it('counts today’s and this week’s sessions and the money in by Bangalore week, net of refunds', async () => {
    await setWindows([{ date: '2030-03-04', capacity: 3 }, { date: '2030-03-06', capacity: 3 }])
    const actor = await createStaff()
    // Sunday 3 March, 23:00 in Bangalore (17:30 UTC): still the week of 25 February.
    const sunday = new Date('2030-03-03T17:30:00Z')
    await createStaffBooking(actor, walkIn({ amountPaise: 100_000 }), sunday)
    // Monday 4 March, 00:30 in Bangalore (Sunday 19:00 UTC): the week of 4 March.
    const monday = new Date('2030-03-03T19:00:00Z')
    const refunded = await createStaffBooking(actor, walkIn({ amountPaise: 250_000, start: '10:00' }), monday)
    await createStaffBooking(actor, walkIn({ date: '2030-03-06', origin: 'complimentary', amountPaise: 0 }), monday)
    const [payment] = await db().select().from(payments).where(eq(payments.bookingId, refunded.id))
    await db().insert(refunds).values({ refundId: 'R1', paymentId: payment!.id, amountPaise: 50_000, reason: 'Partial', state: 'completed', completedAt: new Date('2030-03-05T06:00:00Z') })

    const view = await overview(new Date('2030-03-04T06:00:00Z'))
    expect(view.today).toBe('2030-03-04')
    expect(view.todaysSessions.map((session) => session.start)).toEqual(['09:00:00', '10:00:00'])
    expect(view.week.map((day) => day.sessions)).toEqual([2, 0, 1, 0, 0, 0, 0])
    expect(view.revenueByWeek.slice(-2)).toEqual([
      { monday: '2030-02-25', paise: 100_000 },
      { monday: '2030-03-04', paise: 200_000 },
    ])
    expect(view.revenueByWeek).toHaveLength(8)
    expect(view.revenueByProduct).toEqual([{ product: 'Race Analysis Session', paise: 300_000 }])
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { refunds } from '~/db/schema'
import type { Customer } from '~/modules/booking/holds.server'
import { bookingRow, createCustomers, setWindows } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { cancelFutureBookings, futureBookingsOf } from './future-bookings.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

const DATES = ['2030-03-04', '2030-03-05', '2030-03-06', '2030-03-07', '2030-03-08']
// 09:00 on 4 March 2030 in Bangalore is 03:30 UTC: a day and a half before, and half a day before.
const EARLY = new Date('2030-03-02T15:30:00Z')
const LATE = new Date('2030-03-03T15:30:00Z')

const confirmedBooking = (customer: Customer, start: string) => sandbox.confirmedSession(customer, { date: DATES[0]!, start })

async function family() {
  await setWindows(DATES.map((date) => ({ date, capacity: 2 })))
  const [parent] = await createCustomers(1, 'parent')
  const child = await insertSwimmer(db(), parent!.userId!, 'Kiran Rao', { age: 12, birthDate: null, gender: 'male', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle', participateInEvents: 'no', howDidYouKnow: 'google' }, { isAccountHolder: false, now: new Date() })
  const forParent = await confirmedBooking(parent!, '09:00')
  const forChild = await confirmedBooking({ ...parent!, swimmerId: child.id, swimmerName: child.name }, '10:00')
  return { parent: parent!, child, forParent, forChild }
}

describe("a swimmer's or an account's future bookings", () => {
  it('are listed with whether cancelling now is refunded: 24 hours or more before the start', async () => {
    const { parent, child } = await family()
    expect(await futureBookingsOf({ accountId: parent.userId!, email: parent.email, swimmerId: child.id }, EARLY)).toMatchObject([{ kind: 'session', swimmerName: 'Kiran Rao', refundable: true }])
    expect(await futureBookingsOf({ accountId: parent.userId!, email: parent.email }, LATE)).toMatchObject([
      { swimmerName: 'parent 1', refundable: false },
      { swimmerName: 'Kiran Rao', refundable: false },
    ])
  })

  it("of one swimmer are cancelled, refunded in full when early enough, and the other swimmer's stay", async () => {
    const { parent, child, forParent, forChild } = await family()
    const cancelled = await cancelFutureBookings({ accountId: parent.userId!, email: parent.email, swimmerId: child.id }, { person: { id: parent.userId, email: parent.email }, reason: 'Consent was withdrawn.', now: EARLY })
    expect(cancelled.map((booking) => booking.reference)).toEqual([forChild.reference])
    expect((await bookingRow(forChild.bookingId)).status).toBe('cancelled')
    expect((await bookingRow(forParent.bookingId)).status).toBe('confirmed')
    expect(await db().select({ amountPaise: refunds.amountPaise }).from(refunds)).toHaveLength(1)
  })

  it('of the whole account are cancelled without a refund inside 24 hours', async () => {
    const { parent, forParent, forChild } = await family()
    await cancelFutureBookings({ accountId: parent.userId!, email: parent.email }, { person: { id: parent.userId, email: parent.email }, reason: 'The account was deleted.', now: LATE })
    expect((await bookingRow(forParent.bookingId)).status).toBe('cancelled')
    expect((await bookingRow(forChild.bookingId)).status).toBe('cancelled')
    expect(await db().select().from(refunds)).toHaveLength(0)
  })
})

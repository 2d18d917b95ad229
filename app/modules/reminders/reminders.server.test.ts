import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, campRegistrations, camps, outboxMessages } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { holdSession } from '~/modules/booking/holds.server'
import { createCustomers, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { sendDueReminders } from './reminders.server'

useTestDatabase()

// Sessions on 4, 5 and 6 March 2030 at 9:00 AM in Bangalore.
const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']

async function confirmedBooking(name = 'swimmer') {
  await setWindows(DATES.map((date) => ({ date })))
  const [customer] = await createCustomers(1, name)
  const held = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3, now: labInstant('2030-02-01', '10:00') })
  await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, held.bookingId))
  return { customer: customer!, held }
}

const reminders = () => db().select().from(outboxMessages).where(eq(outboxMessages.subject, 'Reminder: Day 2 of your 3-day biomechanical analysis is tomorrow, 9:00 AM - 10:00 AM'))

describe('session reminders', () => {
  it('go out the day before each session day, from 9 AM in Bangalore, with time, place and what to bring', async () => {
    const { customer, held } = await confirmedBooking()
    expect(await sendDueReminders(labInstant('2030-03-04', '08:59'))).toBe(0)
    expect(await sendDueReminders(labInstant('2030-03-04', '09:00'))).toBe(1)
    const [mail] = await reminders()
    expect(mail!.to).toBe(customer.email)
    expect(mail!.text).toMatch(new RegExp(`Swimmer:\\s+${customer.swimmerName}\n`))
    expect(mail!.text).toMatch(/When:\s+Tuesday, 5 March 2030, 9:00 AM - 10:00 AM/)
    expect(mail!.text).toMatch(/Where:\s+PDCSE, Bangalore/)
    expect(mail!.text).toContain(held.reference)
    expect(mail!.text).toContain('Bring your swimming gear and a towel.')
  })

  it('are sent once, however often and by however many instances the job runs', async () => {
    await confirmedBooking()
    const at = labInstant('2030-03-03', '18:00')
    const runs = await Promise.all(Array.from({ length: 8 }, () => sendDueReminders(at)))
    expect(runs.reduce((sum, sent) => sum + sent, 0)).toBe(1)
    expect(await sendDueReminders(labInstant('2030-03-03', '23:00'))).toBe(0)
    const subjects = (await db().select({ subject: outboxMessages.subject }).from(outboxMessages)).map((row) => row.subject)
    expect(subjects.filter((subject) => subject.startsWith('Reminder: Day 1'))).toHaveLength(1)
  })

  it('are not sent for a booking that is not confirmed', async () => {
    const { held } = await confirmedBooking()
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, held.bookingId))
    expect(await sendDueReminders(labInstant('2030-03-03', '12:00'))).toBe(0)
  })
})

describe('camp reminders', () => {
  it('go out the day before the camp starts, to each confirmed registration', async () => {
    await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16' }).where(eq(camps.code, 'camp1'))
    const held = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch2', applicant: { swimmerName: 'Arjun Menon', email: 'menon@example.com', phone: '9845012345' }, now: labInstant('2030-06-01', '10:00') })
    await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(campRegistrations.id, held.id))
    expect(await sendDueReminders(labInstant('2030-08-07', '10:00'))).toBe(1)
    const [mail] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, 'menon@example.com'))
    expect(mail!.subject).toBe('Reminder: Camp 1 starts tomorrow')
    expect(mail!.text).toMatch(/Batch:\s+Batch 2: 10:30 AM - 12:00 PM and 2:30 PM - 4:00 PM, every day/)
    expect(await sendDueReminders(labInstant('2030-08-07', '11:00'))).toBe(0)
  })
})

import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookingDays, bookings, refunds } from '~/db/schema'
import { addHours, addMinutes } from '~/lib/lab-time'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { bookingRow, createCustomers, mailTo, setWindows } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { AlreadyAtThisTimeError, BookingChangedError, NotChangeableError, rescheduleBooking } from './changes.server'
import { SlotUnavailableError } from './holds.server'
import { cancellationLinkOf, ConfirmationLinkInvalidError, cancelThroughLink, guestLinkEnd, guestLinkOpen, guestLinkOpenFor, rescheduleLinkOf, rescheduleThroughLink, sendCancellationLink, sendRescheduleLink } from './guest-links.server'
import type { Customer } from './holds.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

const DATES = ['2030-03-04', '2030-03-05', '2030-03-06', '2030-03-07', '2030-03-08']
const BEFORE = new Date('2030-02-01T06:00:00Z')

/** A guest's booking: the customer's details without their account. */
const confirmedBooking = (customer: Customer) => sandbox.confirmedSession({ ...customer, userId: null }, { date: DATES[0]!, start: '09:00' })

/** The confirmation link in the newest e-mail to `email`, as the parameters the cancel page reads. */
async function linkIn(email: string) {
  const mail = (await mailTo(email)).filter((message) => message.subject.startsWith('Confirm the cancellation')).at(-1)!
  const url = new URL(/https?:\/\/\S+\/bookings\/SWP-\d+\/cancel\?\S+/.exec(mail.text)![0])
  return { url, link: cancellationLinkOf(url.searchParams)! }
}

/** The confirmation link to move the booking in the newest e-mail to `email`, as the parameters the reschedule page reads. */
async function moveLinkIn(email: string) {
  const mail = (await mailTo(email)).filter((message) => message.subject.startsWith('Confirm the new time')).at(-1)!
  const url = new URL(/https?:\/\/\S+\/bookings\/SWP-\d+\/reschedule\?\S+/.exec(mail.text)![0])
  return { mail, url, link: rescheduleLinkOf(url.searchParams)! }
}

/** The booking's days as they stand: first date and start of each. */
async function daysOf(bookingId: number) {
  return (await db().select({ date: bookingDays.date, start: bookingDays.startTime }).from(bookingDays).where(eq(bookingDays.bookingId, bookingId)).orderBy(bookingDays.dayNumber)).map((day) => `${day.date} ${day.start.slice(0, 5)}`)
}

describe('the end of a guest link', () => {
  it('is the end of the 90th day after the last session day in Bangalore, whatever the server zone', () => {
    const booking = { confirmedAt: new Date('2030-01-10T00:00:00Z'), createdAt: new Date('2030-01-10T00:00:00Z'), days: [{ date: '2030-03-06' }, { date: '2030-03-04' }] }
    // 90 days after 6 March is 4 June; midnight at its end in Bangalore is 18:30 UTC on 4 June.
    expect(guestLinkEnd(booking)).toEqual(new Date('2030-06-04T18:30:00Z'))
    expect(guestLinkOpen(booking, new Date('2030-06-04T18:29:59Z'))).toBe(true)
    expect(guestLinkOpen(booking, new Date('2030-06-04T18:30:00Z'))).toBe(false)
  })

  it('is 30 days after it was made for a booking never confirmed', () => {
    const booking = { confirmedAt: null, createdAt: new Date('2030-01-10T12:00:00Z'), days: [{ date: '2030-03-04' }] }
    expect(guestLinkEnd(booking)).toEqual(new Date('2030-02-09T12:00:00Z'))
    expect(guestLinkOpen(booking, new Date('2030-02-09T11:59:59Z'))).toBe(true)
    expect(guestLinkOpen(booking, new Date('2030-02-09T12:00:00Z'))).toBe(false)
  })

  it('follows the booking in the database (its receipt and report files use it)', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    // Days 4, 5 and 6 March.
    expect(await guestLinkOpenFor(booking.bookingId, new Date('2030-06-04T18:29:59Z'))).toBe(true)
    expect(await guestLinkOpenFor(booking.bookingId, new Date('2030-06-04T18:30:00Z'))).toBe(false)
    expect(await guestLinkOpenFor(booking.bookingId + 1000)).toBe(false)
  })
})

describe('cancelling through a guest link', () => {
  it('e-mails the booking a 30-minute link; the link cancels with a refund once', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    await sendCancellationLink({ bookingId: booking.bookingId, ip: '203.0.113.7', now: BEFORE })
    expect((await bookingRow(booking.bookingId)).status).toBe('confirmed')
    const { url, link } = await linkIn(customer!.email)
    expect(url.pathname).toBe(`/bookings/${booking.reference}/cancel`)
    expect(url.searchParams.get('key')).toMatch(/^[\w-]{32}$/)
    expect(link.until).toBe(BEFORE.getTime() / 1000 + 30 * 60)

    await cancelThroughLink({ bookingId: booking.bookingId, link, now: addMinutes(BEFORE, 29) })
    expect((await bookingRow(booking.bookingId)).status).toBe('cancelled')
    await expect(cancelThroughLink({ bookingId: booking.bookingId, link, now: addMinutes(BEFORE, 29) })).rejects.toThrow(ConfirmationLinkInvalidError)
    expect(await db().select().from(refunds)).toHaveLength(1)
  })

  it('refuses an altered, an expired or an outdated link, and two uses at once cancel once', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    await sendCancellationLink({ bookingId: booking.bookingId, ip: '203.0.113.7', now: BEFORE })
    const { link } = await linkIn(customer!.email)
    const soon = addMinutes(BEFORE, 1)
    await expect(cancelThroughLink({ bookingId: booking.bookingId, link: { ...link, confirm: `${link.confirm.slice(0, -1)}${link.confirm.endsWith('A') ? 'B' : 'A'}` }, now: soon })).rejects.toThrow(ConfirmationLinkInvalidError)
    await expect(cancelThroughLink({ bookingId: booking.bookingId, link: { ...link, until: link.until + 3600 }, now: soon })).rejects.toThrow(ConfirmationLinkInvalidError)
    await expect(cancelThroughLink({ bookingId: booking.bookingId, link, now: new Date(link.until * 1000) })).rejects.toThrow(ConfirmationLinkInvalidError)
    expect((await bookingRow(booking.bookingId)).status).toBe('confirmed')

    // Rescheduled after the link was sent: the link no longer applies.
    await rescheduleBooking({ bookingId: booking.bookingId, date: DATES[1]!, start: '10:00', now: soon })
    await expect(cancelThroughLink({ bookingId: booking.bookingId, link, now: soon })).rejects.toThrow(ConfirmationLinkInvalidError)

    await sendCancellationLink({ bookingId: booking.bookingId, ip: '203.0.113.7', now: soon })
    const fresh = (await linkIn(customer!.email)).link
    const results = await Promise.allSettled([cancelThroughLink({ bookingId: booking.bookingId, link: fresh, now: soon }), cancelThroughLink({ bookingId: booking.bookingId, link: fresh, now: soon })])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    for (const result of results) if (result.status === 'rejected') expect([NotChangeableError, BookingChangedError, ConfirmationLinkInvalidError].some((kind) => result.reason instanceof kind)).toBe(true)
    expect(await db().select().from(refunds)).toHaveLength(1)
    expect((await db().select({ status: bookings.status }).from(bookings).where(eq(bookings.id, booking.bookingId)))[0]!.status).toBe('cancelled')
  })

  it('sends at most 3 links an hour per booking and 10 per client address, and none for a booking that cannot be cancelled', async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 20 })))
    const customers = await createCustomers(5)
    const [first, ...others] = await Promise.all(customers.map((customer) => confirmedBooking(customer)))
    for (let i = 0; i < 3; i += 1) await sendCancellationLink({ bookingId: first!.bookingId, ip: `203.0.113.${i}`, now: BEFORE })
    await expect(sendCancellationLink({ bookingId: first!.bookingId, ip: '203.0.113.99', now: BEFORE })).rejects.toThrow(RateLimitedError)
    expect((await mailTo(customers[0]!.email)).filter((message) => message.subject.startsWith('Confirm the cancellation'))).toHaveLength(3)

    for (const booking of others) for (let i = 0; i < 2; i += 1) await sendCancellationLink({ bookingId: booking.bookingId, ip: '198.51.100.1', now: BEFORE })
    for (const booking of others.slice(0, 2)) await sendCancellationLink({ bookingId: booking.bookingId, ip: '198.51.100.1', now: BEFORE })
    await expect(sendCancellationLink({ bookingId: others[2]!.bookingId, ip: '198.51.100.1', now: BEFORE })).rejects.toThrow(RateLimitedError)
    // An hour later both limits have room again.
    await sendCancellationLink({ bookingId: first!.bookingId, ip: '198.51.100.1', now: addHours(BEFORE, 1) })

    // Too late (within 24 hours of Day 1): no link is sent.
    const late = new Date('2030-03-03T04:00:00Z')
    await expect(sendCancellationLink({ bookingId: others[3]!.bookingId, ip: '192.0.2.1', now: late })).rejects.toThrow(/up to 24 hours before/)
  })
})

describe('rescheduling through a guest link', () => {
  it('e-mails the booking a 30-minute link to the chosen time; the link moves it there once', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    const before = await daysOf(booking.bookingId)
    await sendRescheduleLink({ bookingId: booking.bookingId, date: DATES[1]!, start: '10:00', ip: '203.0.113.7', now: BEFORE })
    expect(await daysOf(booking.bookingId)).toEqual(before)
    const { mail, url, link } = await moveLinkIn(customer!.email)
    expect(mail.text).toContain('Tuesday, 5 March 2030, 10:00 AM - 11:00 AM')
    expect(url.pathname).toBe(`/bookings/${booking.reference}/reschedule`)
    expect(url.searchParams.get('key')).toMatch(/^[\w-]{32}$/)
    expect(link).toMatchObject({ date: DATES[1], time: '10:00', until: BEFORE.getTime() / 1000 + 30 * 60 })

    await rescheduleThroughLink({ bookingId: booking.bookingId, link, now: addMinutes(BEFORE, 29) })
    expect(await daysOf(booking.bookingId)).toEqual(['2030-03-05 10:00', '2030-03-06 10:00', '2030-03-07 10:00'])
    await expect(rescheduleThroughLink({ bookingId: booking.bookingId, link, now: addMinutes(BEFORE, 29) })).rejects.toThrow(ConfirmationLinkInvalidError)
    expect((await mailTo(customer!.email)).filter((message) => message.subject.startsWith('Booking rescheduled'))).toHaveLength(1)
  })

  it('moves the booking nowhere else: another date or time, an altered, expired or outdated link, or a cancellation link, are refused; two uses at once move it once', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    const before = await daysOf(booking.bookingId)
    await sendRescheduleLink({ bookingId: booking.bookingId, date: DATES[1]!, start: '10:00', ip: '203.0.113.7', now: BEFORE })
    const { link } = await moveLinkIn(customer!.email)
    const soon = addMinutes(BEFORE, 1)
    for (const altered of [{ ...link, time: '11:00' }, { ...link, date: DATES[2]! }, { ...link, until: link.until + 3600 }, { ...link, confirm: `${link.confirm.slice(0, -1)}${link.confirm.endsWith('A') ? 'B' : 'A'}` }]) {
      await expect(rescheduleThroughLink({ bookingId: booking.bookingId, link: altered, now: soon })).rejects.toThrow(ConfirmationLinkInvalidError)
    }
    await expect(rescheduleThroughLink({ bookingId: booking.bookingId, link, now: new Date(link.until * 1000) })).rejects.toThrow(ConfirmationLinkInvalidError)
    // A link that confirms a cancellation moves nothing.
    await sendCancellationLink({ bookingId: booking.bookingId, ip: '203.0.113.7', now: BEFORE })
    const cancellation = (await linkIn(customer!.email)).link
    await expect(rescheduleThroughLink({ bookingId: booking.bookingId, link: { ...cancellation, date: DATES[1]!, time: '10:00' }, now: soon })).rejects.toThrow(ConfirmationLinkInvalidError)
    expect(await daysOf(booking.bookingId)).toEqual(before)

    // Moved by its owner after the link was sent: the link no longer applies.
    await rescheduleBooking({ bookingId: booking.bookingId, date: DATES[0]!, start: '11:00', now: soon })
    await expect(rescheduleThroughLink({ bookingId: booking.bookingId, link, now: soon })).rejects.toThrow(ConfirmationLinkInvalidError)

    await sendRescheduleLink({ bookingId: booking.bookingId, date: DATES[1]!, start: '10:00', ip: '203.0.113.7', now: soon })
    const fresh = (await moveLinkIn(customer!.email)).link
    const results = await Promise.allSettled([rescheduleThroughLink({ bookingId: booking.bookingId, link: fresh, now: soon }), rescheduleThroughLink({ bookingId: booking.bookingId, link: fresh, now: soon })])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    for (const result of results) if (result.status === 'rejected') expect([BookingChangedError, ConfirmationLinkInvalidError].some((kind) => result.reason instanceof kind)).toBe(true)
    expect(await daysOf(booking.bookingId)).toEqual(['2030-03-05 10:00', '2030-03-06 10:00', '2030-03-07 10:00'])
  })

  it('shares the cancellation links’ limits, and sends nothing for a time the booking cannot move to', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    const ask = (date: string, start: string, now = BEFORE) => sendRescheduleLink({ bookingId: booking.bookingId, date, start, ip: '203.0.113.7', now })
    // Where it already is; a 3-day session from the last open day; beyond the months a customer can book; within 24 hours of Day 1 (each in an hour of its own, as every request counts).
    await expect(ask(DATES[0]!, '09:00', addHours(BEFORE, -4))).rejects.toThrow(AlreadyAtThisTimeError)
    await expect(ask(DATES[4]!, '09:00', addHours(BEFORE, -3))).rejects.toThrow(SlotUnavailableError)
    await expect(ask('2031-06-02', '09:00', addHours(BEFORE, -2))).rejects.toThrow(SlotUnavailableError)
    await expect(ask(DATES[1]!, '10:00', new Date('2030-03-03T04:00:00Z'))).rejects.toThrow(/up to 24 hours before/)
    expect((await mailTo(customer!.email)).filter((message) => message.subject.startsWith('Confirm'))).toHaveLength(0)

    await ask(DATES[1]!, '10:00')
    await sendCancellationLink({ bookingId: booking.bookingId, ip: '198.51.100.1', now: BEFORE })
    await ask(DATES[1]!, '11:00')
    await expect(ask(DATES[1]!, '12:00')).rejects.toThrow(RateLimitedError)
    await expect(sendCancellationLink({ bookingId: booking.bookingId, ip: '198.51.100.2', now: BEFORE })).rejects.toThrow(RateLimitedError)
    expect((await mailTo(customer!.email)).filter((message) => message.subject.startsWith('Confirm'))).toHaveLength(3)
  })
})

import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { analysisDayWaitlist, bookings, outboxMessages } from '~/db/schema'
import { addHours, addMinutes } from '~/lib/lab-time'
import { soldOutDay } from '../../../tests/support/analysis-days'
import { bookingRow, mailTo, refusal } from '../../../tests/support/booking'
import { confirmDayWaitlistPlace, DaySlotsFreeError, DayWaitlistNetworkLimitError, dayWaitlistForStaff, dayWaitlistPlace, declineDayOffer, expireUnconfirmedDayWaitlist, joinDayWaitlist, offerFreedDaySlots, type DayApplicant } from './analysis-day-waitlist.server'
import { useTestDatabase } from '../../../tests/support/test-database'

useTestDatabase()

// The day is Saturday 7 December 2030, 09:00-10:00 in three 20-minute slots with one kit, all
// booked (soldOutDay), released at 7 AM on Friday 6 December; the tests start half an hour after.
const NOW = new Date('2030-12-06T02:00:00Z')

let networks = 0
const applicant = (name: string, over: Partial<DayApplicant> = {}): DayApplicant => ({ swimmerName: name, email: `${name.toLowerCase().replace(/ /g, '.')}@example.com`, phone: null, ...over })
const nextIp = () => `198.51.100.${(networks += 1)}`

const cancel = (bookingId: number) => db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, bookingId))

async function join(dayId: number, person: DayApplicant, { ip = nextIp(), now = NOW } = {}) {
  return joinDayWaitlist({ dayId, applicant: person, ip, now })
}

/** Joins and confirms the address: the entry's id. */
async function queue(dayId: number, person: DayApplicant, at = NOW) {
  await join(dayId, person, { now: at })
  const [entry] = await db().select({ id: analysisDayWaitlist.id }).from(analysisDayWaitlist).where(eq(analysisDayWaitlist.email, person.email))
  await confirmDayWaitlistPlace(entry!.id, at)
  return entry!.id
}

const entryOf = async (email: string) => (await db().select().from(analysisDayWaitlist).where(eq(analysisDayWaitlist.email, email)))[0]!

describe('joining the waitlist of an analysis day', () => {
  it('is refused while a slot is free, and once sold out e-mails a link that must be pressed to join the queue', async () => {
    const { dayId, booked } = await soldOutDay()
    await cancel(booked['09:20']!)
    expect(await refusal(join(dayId, applicant('Asha Rao')))).toBeInstanceOf(DaySlotsFreeError)
    await db().update(bookings).set({ status: 'confirmed' }).where(eq(bookings.id, booked['09:20']!))

    const answer = await join(dayId, applicant('Asha Rao', { phone: '+919845012345' }))
    expect(answer).toMatchObject({ email: 'asha.rao@example.com', confirmBy: addHours(NOW, 24) })
    const [mail] = await mailTo('asha.rao@example.com')
    expect(mail!.subject).toBe('Please confirm your waitlist place: Competition Race Analysis at Balewadi Aquatics')
    expect(mail!.text).toContain('/analysis-days/waitlist/place?entry=')
    const entry = await entryOf('asha.rao@example.com')
    expect(await dayWaitlistPlace(entry.id, NOW)).toMatchObject({ state: 'unconfirmed', confirmBy: addHours(NOW, 24) })
    // Unconfirmed, it is offered nothing.
    await cancel(booked['09:40']!)
    expect(await offerFreedDaySlots(NOW)).toBe(0)

    expect(await confirmDayWaitlistPlace(entry.id, addMinutes(NOW, 1))).toMatchObject({ state: 'queued', position: 1 })
  })

  it('answers the same for a swimmer already waiting, keeping one place and sending no second e-mail', async () => {
    const { dayId } = await soldOutDay()
    const first = await join(dayId, applicant('Asha Rao'))
    const again = await join(dayId, applicant('ASHA RAO', { email: 'Asha.Rao@example.com' }))
    expect(again).toEqual(first)
    expect(await db().select().from(analysisDayWaitlist)).toHaveLength(1)
    expect(await mailTo('asha.rao@example.com')).toHaveLength(1)
  })

  it('keeps at most three places per network', async () => {
    const { dayId } = await soldOutDay()
    const ip = '203.0.113.9'
    for (const name of ['Asha Rao', 'Bina Das', 'Chitra Iyer']) await join(dayId, applicant(name), { ip })
    expect(await refusal(join(dayId, applicant('Deepa Nair'), { ip }))).toBeInstanceOf(DayWaitlistNetworkLimitError)
    expect(new DayWaitlistNetworkLimitError().message).toBe('Your internet connection already holds 3 places on our analysis day waitlists, the most we allow. Please try again once one of them has ended.')
  })

  it('lapses unconfirmed after a day: the link then confirms nothing', async () => {
    const { dayId } = await soldOutDay()
    await join(dayId, applicant('Asha Rao'))
    const entry = await entryOf('asha.rao@example.com')
    expect(await expireUnconfirmedDayWaitlist(addHours(NOW, 23))).toBe(0)
    expect(await expireUnconfirmedDayWaitlist(addHours(NOW, 24))).toBe(1)
    expect(await confirmDayWaitlistPlace(entry.id, addHours(NOW, 25))).toMatchObject({ state: 'ended' })
    expect((await entryOf('asha.rao@example.com')).confirmedAt).toBeNull()
  })
})

describe('offering a freed slot', () => {
  it('goes to the first who confirmed, as a pending booking held for the offer hours, with an e-mail to pay', async () => {
    const { dayId, booked } = await soldOutDay()
    // Bina joined second but confirmed first.
    await join(dayId, applicant('Asha Rao'))
    const bina = await queue(dayId, applicant('Bina Das'), addMinutes(NOW, 1))
    await confirmDayWaitlistPlace((await entryOf('asha.rao@example.com')).id, addMinutes(NOW, 2))
    await cancel(booked['09:20']!)
    const at = addMinutes(NOW, 3)
    expect(await offerFreedDaySlots(at)).toBe(1)
    const entry = await entryOf('bina.das@example.com')
    expect(entry).toMatchObject({ id: bina, status: 'offered', offeredAt: at })
    expect(await bookingRow(entry.bookingId!)).toMatchObject({ status: 'pending', holdExpiresAt: addHours(at, 12), swimmerName: 'Bina Das', customerEmail: 'bina.das@example.com', amountPaise: 1_500_00, startTime: '09:20:00', userId: null })
    const offer = (await mailTo('bina.das@example.com')).at(-1)!
    expect(offer.subject).toBe('A slot is free: Competition Race Analysis at Balewadi Aquatics')
    expect(offer.text).toContain('9:20 AM')
    expect(offer.text).toContain('/analysis-days/waitlist/offer?booking=')
    expect(await dayWaitlistPlace((await entryOf('asha.rao@example.com')).id, at)).toMatchObject({ state: 'queued', position: 1 })
    expect(await dayWaitlistForStaff(dayId, at)).toEqual({ inLine: ['Asha Rao'], offered: ['Bina Das'], unconfirmed: 0 })
    // Run again, nothing is offered twice.
    expect(await offerFreedDaySlots(addMinutes(at, 1))).toBe(0)
  })

  it('skips someone booked on the day already: paid, they leave the queue', async () => {
    const { dayId, booked } = await soldOutDay()
    await queue(dayId, applicant('Asha Rao'))
    await queue(dayId, applicant('Bina Das'), addMinutes(NOW, 1))
    await db().update(bookings).set({ swimmerName: 'Asha Rao', customerEmail: 'asha.rao@example.com' }).where(eq(bookings.id, booked['09:00']!))
    await cancel(booked['09:40']!)
    expect(await offerFreedDaySlots(addMinutes(NOW, 2))).toBe(1)
    expect(await entryOf('asha.rao@example.com')).toMatchObject({ status: 'cancelled', bookingId: null })
    expect(await entryOf('bina.das@example.com')).toMatchObject({ status: 'offered' })
  })

  it('passes an offer that ran out unpaid, or was given up, on to the next in line', async () => {
    const { dayId, booked } = await soldOutDay()
    for (const [index, name] of ['Asha Rao', 'Bina Das', 'Chitra Iyer'].entries()) await queue(dayId, applicant(name), addMinutes(NOW, index))
    await cancel(booked['09:40']!)
    await offerFreedDaySlots(addMinutes(NOW, 5))
    const asha = await entryOf('asha.rao@example.com')
    const runOut = addHours(NOW, 13)
    expect(await offerFreedDaySlots(runOut)).toBe(1)
    expect(await entryOf('asha.rao@example.com')).toMatchObject({ status: 'expired' })
    expect(await dayWaitlistPlace(asha.id, runOut)).toMatchObject({ state: 'ended' })
    const bina = await entryOf('bina.das@example.com')
    expect(bina).toMatchObject({ status: 'offered' })

    const [{ reference } = { reference: '' }] = await db().select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, bina.bookingId!))
    expect(await declineDayOffer(reference, addMinutes(runOut, 1))).toBe(true)
    expect(await entryOf('bina.das@example.com')).toMatchObject({ status: 'declined' })
    expect(await bookingRow(bina.bookingId!)).toMatchObject({ status: 'expired' })
    expect(await entryOf('chitra.iyer@example.com')).toMatchObject({ status: 'offered' })
    expect(await declineDayOffer(reference, addMinutes(runOut, 2))).toBe(false)
  })

  it('holds a slot never past its start, and offers none that begins within the hour', async () => {
    const { dayId, booked } = await soldOutDay()
    await queue(dayId, applicant('Asha Rao'))
    await queue(dayId, applicant('Bina Das'), addMinutes(NOW, 1))
    await cancel(booked['09:00']!)
    await cancel(booked['09:40']!)
    // 08:30 on the day (03:00 UTC): 09:00 begins in half an hour, 09:40 in 70 minutes.
    const morning = new Date('2030-12-07T03:00:00Z')
    expect(await offerFreedDaySlots(morning)).toBe(1)
    const asha = await entryOf('asha.rao@example.com')
    expect(await bookingRow(asha.bookingId!)).toMatchObject({ startTime: '09:40:00', holdExpiresAt: new Date('2030-12-07T04:10:00Z') })
    expect(await entryOf('bina.das@example.com')).toMatchObject({ status: 'waiting' })
    const offers = await db().select().from(outboxMessages).where(eq(outboxMessages.to, 'bina.das@example.com'))
    expect(offers.map((mail) => mail.subject)).not.toContain('A slot is free: Competition Race Analysis at Balewadi Aquatics')
  })
})

describe('instances offering side by side', () => {
  it(`never offer one slot twice, nor one person two (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    // Two dates, each its own window (and lock of its seats): one slot frees up on each.
    const { dayId, booked } = await soldOutDay({ twoDates: true })
    const people = ['Asha Rao', 'Bina Das', 'Chitra Iyer']
    for (const [index, name] of people.entries()) await queue(dayId, applicant(name), addMinutes(NOW, index))
    await cancel(booked['2030-12-07 09:20']!)
    await cancel(booked['2030-12-08 09:40']!)
    const at = addMinutes(NOW, 10)
    const rounds = await Promise.all(Array.from({ length: 8 }, () => offerFreedDaySlots(at)))
    expect(rounds.reduce((sum, offered) => sum + offered, 0)).toBe(2)
    const offered = await db().select().from(analysisDayWaitlist).where(eq(analysisDayWaitlist.status, 'offered')).orderBy(analysisDayWaitlist.confirmedAt)
    expect(offered.map((entry) => entry.swimmerName)).toEqual(['Asha Rao', 'Bina Das'])
    expect(await db().select().from(bookings).where(eq(bookings.status, 'pending'))).toHaveLength(2)
    for (const name of ['asha.rao', 'bina.das']) expect((await mailTo(`${name}@example.com`)).filter((mail) => mail.subject.startsWith('A slot is free'))).toHaveLength(1)
    expect(await entryOf('chitra.iyer@example.com')).toMatchObject({ status: 'waiting' })
  })
})

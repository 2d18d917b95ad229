import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { analysisDayLine, bookings } from '~/db/schema'
import { addDays, addHours, labToday } from '~/lib/lab-time'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { releasedDay } from '../../../tests/support/analysis-days'
import { createStaff } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import type { Holder } from '~/modules/holders/holders.server'
import { DAY_LINE_LIMIT_PER_NETWORK, dayLinePlace, joinDayLine, placesAheadOnDay, pruneDayLine, seatOfPlace, settleDayLine, SLOT_TAKEN } from './analysis-day-line.server'
import type { AnalysisDayBookingInput } from './analysis-day-schemas'

useTestDatabase()

// The line of analysis day bookings: places settled in the order parents came, a seat each while the
// day has one for their slot, "taken" while another slot is free, "full" once none is; the line is
// bounded per network and forgets settled places after a day.

const DATE = addDays(labToday(), 10)
let parents = 0

/** A day at a new venue on DATE, 09:00-10:00 in three 20-minute slots with one kit, released an hour ago. */
async function openDay(organiser?: Awaited<ReturnType<typeof createStaff>>, date = DATE) {
  return (await releasedDay(organiser ?? (await createStaff()), db(), { venue: `Pool ${(parents += 1)}`, date })).dayId
}

/** A parent's booking form for `start` on DATE, from a network of their own (unless given). */
function parent(start: string, network = `198.51.100.${(parents += 1) % 250}`, date = DATE) {
  parents += 1
  const name = `Parent ${String.fromCharCode(65 + (parents % 26))}${String.fromCharCode(65 + (Math.floor(parents / 26) % 26))}`
  const details = { name, email: `parent${parents}@example.com`, whoSwims: 'myself', slot: `${date}|${start}`, notes: '' } as AnalysisDayBookingInput
  const holder: Holder = { userId: null, email: details.email, network, browser: `browser-${parents}` }
  return { details, holder }
}

async function join(dayId: number, start: string, network?: string, date = DATE) {
  const { details, holder } = parent(start, network, date)
  return (await joinDayLine({ dayId, details, holder })).id
}

/** Settles the line until no place is left waiting (joining starts settling; this waits for it). */
async function settled() {
  for (let round = 0; round < 20; round += 1) {
    await settleDayLine()
    if ((await db().select({ id: analysisDayLine.id }).from(analysisDayLine).where(isNull(analysisDayLine.outcome))).length === 0) return
  }
  throw new Error('the line was not settled')
}

describe('the line of analysis day bookings', () => {
  it('gives each slot to the first in line who chose it; later ones are told it was taken while another is free, then that the day is full', async () => {
    const dayId = await openDay()
    // Joined one after the other: the order of the line is the order they came.
    const first = await join(dayId, '09:00')
    const second = await join(dayId, '09:00')
    const third = await join(dayId, '09:20')
    const fourth = await join(dayId, '09:40')
    await settled()
    expect(await dayLinePlace(first)).toMatchObject({ outcome: 'seat', message: null })
    expect(await dayLinePlace(second)).toMatchObject({ outcome: 'taken', message: SLOT_TAKEN, field: 'slot', bookingId: null })
    expect(await dayLinePlace(third)).toMatchObject({ outcome: 'seat' })
    expect(await dayLinePlace(fourth)).toMatchObject({ outcome: 'seat' })

    // Every slot is held now: whoever comes next is told the day is full, whatever they chose.
    const fifth = await join(dayId, '09:20')
    await settled()
    expect(await dayLinePlace(fifth)).toMatchObject({ outcome: 'full', bookingId: null })

    // The seat is a pending booking held for the parent, at the day's slot; its page shows it held.
    const place = await dayLinePlace(first)
    const [booking] = await db().select().from(bookings).where(eq(bookings.id, place!.bookingId!))
    expect(booking).toMatchObject({ status: 'pending', customerEmail: place!.details.email, swimmerName: place!.details.name })
    expect(booking!.holdExpiresAt!.getTime()).toBeGreaterThan(Date.now())
    expect(await seatOfPlace(first)).toMatchObject({ state: 'held', swimmerName: place!.details.name, startTime: '09:00', endTime: '09:20', bookingId: place!.bookingId })
    expect(await seatOfPlace(second)).toBeNull()
  })

  it('of 40 parents arriving at once for 3 slots, the first in line for each slot holds it; nobody else does', async () => {
    const dayId = await openDay()
    const starts = ['09:00', '09:20', '09:40']
    const ids = await Promise.all(Array.from({ length: 40 }, (_, index) => join(dayId, starts[index % 3]!)))
    await settled()
    const places = await Promise.all(ids.map((id) => dayLinePlace(id)))
    const seats = places.filter((place) => place!.outcome === 'seat')
    expect(seats).toHaveLength(3)
    for (const start of starts) {
      const chose = places.filter((place) => place!.details.slot.endsWith(start)).sort((a, b) => a!.id - b!.id)
      expect(chose[0]!.outcome, `the first in line for ${start}`).toBe('seat')
      expect(chose.slice(1).every((place) => place!.outcome !== 'seat')).toBe(true)
    }
    const held = await db().select({ id: bookings.id }).from(bookings).where(and(eq(bookings.status, 'pending')))
    expect(held).toHaveLength(3)
  })

  it('tells a booking the rules refuse why, next to its field, and the line goes on behind it', async () => {
    const dayId = await openDay()
    // A swimmer of an account chosen by a guest: the form's "Who will swim?" is refused.
    const { details, holder } = parent('09:00')
    const refused = (await joinDayLine({ dayId, details: { ...details, whoSwims: '12345' }, holder })).id
    const next = await join(dayId, '09:00')
    await settled()
    expect(await dayLinePlace(refused)).toMatchObject({ outcome: 'refused', bookingId: null })
    expect((await dayLinePlace(refused))!.message).toBeTruthy()
    expect(await dayLinePlace(next)).toMatchObject({ outcome: 'seat' })
  })

  it('gives a seat a refused hold leaves free to the next in line who chose it, never telling them it was taken', async () => {
    const network = '203.0.113.50'
    // The network already holds three unpaid seats (on another day): the most it may.
    const organiser = await createStaff()
    const other = await openDay(organiser, addDays(DATE, 1))
    for (const start of ['09:00', '09:20', '09:40']) await join(other, start, network, addDays(DATE, 1))
    await settled()
    const dayId = await openDay(organiser)
    // Both in line before it is settled: one round walks them together.
    const place = ({ details, holder }: ReturnType<typeof parent>) => ({ analysisDayId: dayId, details, email: details.email, holderNetwork: holder.network, holderBrowser: holder.browser })
    const [refused, next] = (await db().insert(analysisDayLine).values([place(parent('09:00', network)), place(parent('09:00'))]).returning({ id: analysisDayLine.id })).map((row) => row.id) as [number, number]
    await settled()
    expect(await dayLinePlace(refused)).toMatchObject({ outcome: 'refused', bookingId: null })
    expect(await dayLinePlace(next)).toMatchObject({ outcome: 'seat' })
  })

  it('counts who is ahead, and lets one network join a bounded number of times', async () => {
    const dayId = await openDay()
    const network = '203.0.113.7'
    const rule = DAY_LINE_LIMIT_PER_NETWORK
    const ids: number[] = []
    for (let index = 0; index < rule.limit; index += 1) ids.push(await join(dayId, '09:00', network))
    await expect(join(dayId, '09:00', network)).rejects.toBeInstanceOf(RateLimitedError)
    // Another network is not held back by it.
    expect(await join(dayId, '09:20')).toBeGreaterThan(0)
    await settled()
    expect(await placesAheadOnDay(ids.at(-1)!)).toBe(0)
  })

  it('forgets settled places (with what the parent typed) a day after they were settled, never one still waiting', async () => {
    const dayId = await openDay()
    const old = await join(dayId, '09:00')
    await settled()
    const waiting = (await db().insert(analysisDayLine).values({ analysisDayId: dayId, details: parent('09:20').details, email: 'waiting@example.com', holderNetwork: '198.51.100.200' }).returning({ id: analysisDayLine.id }))[0]!.id
    const [{ settledAt }] = (await db().select({ settledAt: analysisDayLine.settledAt }).from(analysisDayLine).where(eq(analysisDayLine.id, old))) as [{ settledAt: Date }]
    await pruneDayLine(addHours(settledAt, 23))
    expect(await dayLinePlace(old)).toBeDefined()
    await pruneDayLine(addHours(settledAt, 25))
    expect(await dayLinePlace(old)).toBeUndefined()
    expect(await dayLinePlace(waiting)).toBeDefined()
  })
})

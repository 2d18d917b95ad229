import { db, useDatabase, type Database, type Db } from '~/db/client.server'
import { eq } from 'drizzle-orm'
import { analysisDays, kits, users } from '~/db/schema'
import { analysisDayWindows } from '~/modules/booking/availability.server'
import { createStaff, insertedBooking } from './booking'
import type { Actor } from '~/modules/audit/audit.server'
import type { AnalysisDayInput } from '~/modules/booking/analysis-day-schemas'
import { createAnalysisDay, publishAnalysisDay } from '~/modules/booking/analysis-days.server'
import { createWindows } from '~/modules/booking/availability-staff.server'
import { placeKit } from '~/modules/booking/kits.server'
import { assignStaff } from '~/modules/venues/staff-assignments.server'
import { createVenue } from '~/modules/venues/venues.server'
import { addDays, addMinutes, isoWeekday, labToday } from '~/lib/lab-time'

/** A venue in Pune (Maharashtra, GST state 27), an hour from the lab. */
export const puneVenue = (actor: Actor, now: Date, name = 'Balewadi Aquatics') =>
  createVenue(actor, { name, address: 'Shree Shiv Chhatrapati Sports Complex, Balewadi', city: 'Pune', stateCode: '27', mapUrl: 'https://maps.example/balewadi', photoId: null, hostName: 'Pune Swim Club', hostEmail: 'host@puneswim.example', hostPhone: null, travelMinutes: 60 }, now)

/** The form of an analysis day on `date` at `venueId`, 09:00-17:00 in 20-minute slots with one rig (24 seats), released a day before. */
export const analysisDayForm = (venueId: number, date: string, over: Partial<AnalysisDayInput> = {}): AnalysisDayInput => ({
  venueId,
  productCode: 'race_analysis',
  firstDate: date,
  lastDate: date,
  startTime: '09:00',
  endTime: '17:00',
  slotMinutes: 20,
  rigs: 1,
  price: 1_500_00,
  hostSeats: 3,
  releaseDate: over.releaseDate ?? date,
  releaseTime: '07:00',
  whatToBring: 'Racing suit, cap and goggles',
  ...over,
})

/**
 * The staff's form of an analysis day as a browser sends it (every value text): at `venueId` on
 * `date`, 9 AM to 5 PM in 20-minute slots with one kit, three seats kept for the host, released three
 * days before.
 */
export const analysisDayFields = (venueId: number, date: string, values: Record<string, string> = {}) => ({
  venueId: String(venueId),
  productCode: 'race_analysis',
  firstDate: date,
  lastDate: date,
  startTime: '09:00',
  endTime: '17:00',
  slotMinutes: '20',
  rigs: '1',
  price: '1,500',
  hostSeats: '3',
  releaseDate: addDays(date, -3),
  releaseTime: '07:00',
  whatToBring: 'Racing suit, cap and goggles',
  ...values,
})

/**
 * Everything an analysis day needs at a venue from `date` to `lastDate`: the venue open 06:00-20:00,
 * the lab's first kit and the staff member there from 08:00 on the first to 18:00 on the last.
 * Returns the venue's id.
 */
export async function readyVenue(actor: Actor & { id: number }, date: string, now: Date, name?: string, lastDate = date) {
  const venueId = await puneVenue(actor, now, name)
  const weekdays = [...new Set([date, lastDate, addDays(date, 1)].filter((day) => day <= lastDate).map(isoWeekday))]
  await createWindows(actor, { from: date, to: lastDate, weekdays, hours: { startTime: '06:00', endTime: '20:00', slotDurationMinutes: 60, capacity: 1 }, venueId, now })
  const [kit] = await db().select({ id: kits.id }).from(kits)
  await placeKit(actor, { kitId: kit!.id, venueId, fromDate: date, fromTime: '08:00', toDate: lastDate, toTime: '18:00', note: null }, now)
  await assignStaff(actor, venueId, { userId: actor.id, fromDate: date, fromTime: '08:00', toDate: lastDate, toTime: '18:00', note: null }, now)
  return venueId
}

/** A published analysis day at a ready venue (readyVenue, named `venueName` when given), as analysisDayForm describes it with `over`. */
export async function publishedDay(actor: Actor & { id: number }, date: string, now: Date, over: Partial<AnalysisDayInput> = {}, venueName?: string) {
  const venueId = await readyVenue(actor, date, now, venueName, over.lastDate)
  const dayId = await createAnalysisDay(actor, analysisDayForm(venueId, date, over), now)
  await publishAnalysisDay(actor, dayId, now)
  return { venueId, dayId }
}

/**
 * Analysis days written to a test site's database before the site starts (its `prepare`): `seed` is
 * given an organiser (a staff account of its own) and calls the site's own functions on that database.
 */
export async function seedAnalysisDays<T>(siteDb: Db, installation: { database: Database }, seed: (organiser: Actor & { id: number }) => Promise<T>): Promise<T> {
  const [organiser] = await siteDb.insert(users).values({ name: 'Organiser', email: 'organiser@lab.example', passwordHash: 'x', isAdmin: true, isVerified: true }).returning({ id: users.id, email: users.email })
  useDatabase(installation.database)
  try {
    return await seed(organiser!)
  } finally {
    useDatabase(undefined)
  }
}

/**
 * A published day whose slots are all booked and paid: Saturday 7 December 2030 (and Sunday 8 with
 * `twoDates`), 09:00-10:00 in 20-minute slots with one kit, released at 7 AM on Friday 6 December.
 * Its id, the windows of its dates and the booking of each slot, by its date and start
 * ("2030-12-07 09:20"; the first date's also by its start alone).
 */
export async function soldOutDay({ created = new Date('2030-12-01T04:30:00Z'), twoDates = false } = {}) {
  const dates = twoDates ? ['2030-12-07', '2030-12-08'] : ['2030-12-07']
  const actor = await createStaff()
  const { dayId } = await publishedDay(actor, dates[0]!, created, { lastDate: dates.at(-1)!, startTime: '09:00', endTime: '10:00', slotMinutes: 20, hostSeats: 0, releaseDate: '2030-12-06', releaseTime: '07:00' })
  const windows = await analysisDayWindows(dayId)
  const booked: Record<string, number> = {}
  let count = 0
  for (const window of windows) {
    for (const [start, end] of [['09:00', '09:20'], ['09:20', '09:40'], ['09:40', '10:00']] as const) {
      const id = (await insertedBooking(db(), [{ windowId: window.id, date: window.date }], { start, end, now: created }, { reference: `SWP-00000000${String((count += 1)).padStart(2, '0')}` })).id
      booked[`${window.date} ${start}`] = id
      if (window.date === dates[0]) booked[start] = id
    }
  }
  return { dayId, windowIds: windows.map((window) => window.id), booked }
}

/**
 * For a test site (in seedAnalysisDays): a day at a new venue on `date`, 09:00-10:00 in three
 * 20-minute slots with one kit, published and released an hour ago; with `booked`, each slot is
 * booked and paid (references SWP-1<n>000000<slot>0). Its id and the booking references.
 */
export async function releasedDay(organiser: Actor & { id: number }, db: Db, { venue, date, booked, now = new Date() }: { venue: string; date: string; booked?: number; now?: Date }) {
  const form = analysisDayForm(await readyVenue(organiser, date, now, venue), date, { startTime: '09:00', endTime: '10:00', slotMinutes: 20, hostSeats: 0, releaseDate: addDays(labToday(now), 1) })
  const dayId = await createAnalysisDay(organiser, form, now)
  await publishAnalysisDay(organiser, dayId, now)
  await db.update(analysisDays).set({ releaseAt: addMinutes(now, -60) }).where(eq(analysisDays.id, dayId))
  const [window] = await analysisDayWindows(dayId)
  const references: string[] = []
  if (booked !== undefined) {
    for (const [index, [start, end]] of [['09:00', '09:20'], ['09:20', '09:40'], ['09:40', '10:00']].entries()) {
      const reference = `SWP-1${booked}000000${index}0`
      await insertedBooking(db, [{ windowId: window!.id, date }], { start: start!, end: end!, now }, { reference })
      references.push(reference)
    }
  }
  return { dayId, references }
}

import { and, asc, count, eq, inArray, or, sql } from 'drizzle-orm'
import { config } from '~/config.server'
import { lockKeys } from '~/db/advisory-locks.server'
import { db, type Executor } from '~/db/client.server'
import { analysisDays, analysisDayWaitlist, availabilityWindows, bookingDays, bookings, catalogueItems, venues } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addHours, addMinutes, formatLabDateTime, formatTimeRange, formatWeekdayDate, labInstant, labToday } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { ANALYSIS_DAY_OFFER_LINK, ANALYSIS_DAY_WAITLIST_LINK, privateLinks, type PrivateLinks } from '~/lib/private-links.server'
import { limitHoldAttempts } from '~/modules/holders/holders.server'
import { confirmByOf, WAITLIST_PLACES_PER_NETWORK, waitlistStates, WaitlistPlacesLimitError } from '~/modules/holders/waitlist-places.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { setStatus } from '~/modules/statuses/status.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { AnalysisDayNotFoundError, analysisDayById, describeDates, heldDaySlot } from './analysis-days.server'
import { analysisDayWindows, hasStarted, holdsSeats, seatKey, seatsTaken } from './availability.server'
import { holdDaySlotIn, SlotUnavailableError } from './holds.server'
import { timeSlotsOf } from './time-slots'

// The waitlist of a sold-out analysis day, as the camps have one: a parent told "full" leaves the
// swimmer's name and an address, confirms it through the e-mailed link, and is offered the first
// slot that frees up (a hold running out, a booking cancelled, more kits) as a pending booking they
// pay through the one checkout. Offers are made by the background worker, one day at a time under
// the day's lock, through the same engine as every hold, so a slot is never sold twice.

/** A slot of the day is still free: waiting would only keep it from someone else. */
export class DaySlotsFreeError extends DomainError {
  constructor() {
    super('conflict', 'A time slot of this day is still free, so there is no need to wait. Please book it instead.')
  }
}

/** Every slot of the day has begun: nothing can free up for anyone. */
export class DayOverError extends DomainError {
  constructor() {
    super('conflict', 'Booking for this day has closed: its last slot has begun.')
  }
}

/** More places (waiting or offered, on any day) than one client network may hold at once. */
export class DayWaitlistNetworkLimitError extends WaitlistPlacesLimitError {
  constructor() {
    super('analysis day waitlists')
  }
}

/**
 * An offer leaves the parent at least this long to pay before its slot begins: a slot starting
 * sooner goes to the next one free, or to nobody (a walk-in at the venue).
 */
export const SHORTEST_OFFER_MINUTES = 60

const { queued, holdsPlace, confirmable, lapsedUnconfirmed } = waitlistStates(analysisDayWaitlist)

/** Who waits: the swimmer's name, the parent's address and, if given, a phone number (E.164). */
export type DayApplicant = { swimmerName: string; email: string; phone: string | null }

function sameWaitingSwimmer(dayId: number, applicant: Pick<DayApplicant, 'email' | 'swimmerName'>) {
  return and(
    eq(analysisDayWaitlist.analysisDayId, dayId),
    sql`lower(${analysisDayWaitlist.email}) = ${applicant.email.toLowerCase()}`,
    sql`lower(${analysisDayWaitlist.swimmerName}) = ${applicant.swimmerName.toLowerCase()}`,
  )
}

/** The day's waitlist lock: joining and offering on one day happen one after the other, on any instance. */
const dayKey = (dayId: number) => `analysis-day-waitlist:day:${dayId}`

/** What the waitlist says of a day: its product, venue and dates. */
function dayName(day: { productName: string; venueName: string; city: string; firstDate: string; lastDate: string }) {
  return `${day.productName} at ${day.venueName}, ${day.city} (${describeDates(day)})`
}

/** A day the public may book now: published, open, released, and not over. */
function onSale(day: { publishedAt: Date | null; closedAt: Date | null; releaseAt: Date; lastDate: string }, now: Date) {
  return day.publishedAt !== null && day.closedAt === null && day.releaseAt <= now && day.lastDate >= labToday(now)
}

type FreeSlot = { windowId: number; date: string; start: string; end: string; left: number }

/** The day's slots not begun, in order, each with its seats left, read under the caller's transaction. */
async function slotsToCome(dayId: number, executor: Executor, now: Date): Promise<FreeSlot[]> {
  const windows = await analysisDayWindows(dayId, executor)
  const taken = await seatsTaken(
    windows.map((window) => window.id),
    now,
    executor,
  )
  return windows
    .flatMap((window) =>
      timeSlotsOf(window)
        .filter((slot) => !window.closed.includes(slot.start) && !hasStarted(window.date, slot.start, now))
        .map((slot) => ({ windowId: window.id, date: window.date, start: slot.start, end: slot.end, left: Math.max(0, window.capacity - (taken.get(seatKey(window.id, slot.start)) ?? 0)) })),
    )
    .sort((a, b) => (a.date === b.date ? a.start.localeCompare(b.start) : a.date.localeCompare(b.date)))
}

/**
 * The swimmer's bookings of the day that hold a seat (confirmed, or unpaid and not run out), by the
 * address and name they were made under: one swimmer, one slot of a day.
 */
async function bookedOnDay(executor: Executor, dayId: number, person: Pick<DayApplicant, 'email' | 'swimmerName'>, now: Date) {
  return executor
    .select({ status: bookings.status })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
    .where(
      and(
        eq(availabilityWindows.analysisDayId, dayId),
        holdsSeats(now),
        sql`lower(${bookings.customerEmail}) = ${person.email.toLowerCase()}`,
        sql`lower(${bookings.swimmerName}) = ${person.swimmerName.toLowerCase()}`,
      ),
    )
}

/**
 * Puts a swimmer on the waitlist of a sold-out day (every slot not begun taken), and e-mails a link
 * to confirm the place: until the parent opens it and presses its button the entry is not in the
 * queue and is offered nothing; after WAITLIST_CONFIRM_HOURS it lapses. One place per swimmer per
 * day, at most WAITLIST_PLACES_PER_NETWORK per client network, and every attempt counts against the
 * hold attempts of the network and the address. The answer is the same whether the swimmer was
 * already waiting (or booked) under the address or not: the page tells nobody who waits.
 */
export async function joinDayWaitlist({ dayId, applicant, accountId = null, ip, now = new Date() }: { dayId: number; applicant: DayApplicant; accountId?: number | null; ip: string; now?: Date }) {
  const network = clientNetwork(ip)
  const email = applicant.email.toLowerCase()
  await limitHoldAttempts({ network, email }, now)
  const links = await privateLinks()
  return db().transaction(async (tx) => {
    await lockKeys(tx, [`analysis-day-waitlist:network:${network}`, dayKey(dayId)])
    const day = await analysisDayById(dayId, tx)
    if (!onSale(day, now)) throw new AnalysisDayNotFoundError()
    const slots = await slotsToCome(dayId, tx, now)
    if (slots.length === 0) throw new DayOverError()
    if (slots.some((slot) => slot.left > 0)) throw new DaySlotsFreeError()
    const [{ places } = { places: 0 }] = await tx
      .select({ places: count() })
      .from(analysisDayWaitlist)
      .where(and(eq(analysisDayWaitlist.holderNetwork, network), holdsPlace(now)))
    if (places >= WAITLIST_PLACES_PER_NETWORK) throw new DayWaitlistNetworkLimitError()

    const answer = { dayName: dayName(day), email, confirmBy: confirmByOf(now) }
    await tx.update(analysisDayWaitlist).set({ status: 'expired' }).where(and(sameWaitingSwimmer(dayId, applicant), lapsedUnconfirmed(now)))
    const [waiting] = await tx
      .select({ id: analysisDayWaitlist.id })
      .from(analysisDayWaitlist)
      .where(and(sameWaitingSwimmer(dayId, applicant), inArray(analysisDayWaitlist.status, ['waiting', 'offered'])))
    if (waiting || (await bookedOnDay(tx, dayId, applicant, now)).length > 0) return answer

    const [entry] = await tx
      .insert(analysisDayWaitlist)
      .values({ analysisDayId: dayId, swimmerName: applicant.swimmerName, email, phone: applicant.phone, userId: accountId, holderNetwork: network, createdAt: now })
      .returning({ id: analysisDayWaitlist.id })
    await enqueueEmail(
      letter({
        to: email,
        subject: `Please confirm your waitlist place: ${day.productName} at ${day.venueName}`,
        name: applicant.swimmerName,
        paragraphs: [
          `Every slot of ${dayName(day)} is taken, and you asked us to put ${applicant.swimmerName} on its waitlist.`,
          `To keep the place, open the link below and press the button on the page by ${formatLabDateTime(answer.confirmBy)}. Your place in the queue counts from then; without it the place lapses.`,
          `When a slot frees up we hold it for you for up to ${config().WAITLIST_OFFER_HOURS} hours (never past its start) and e-mail you a link to pay. There is nothing to pay until then.`,
        ],
        action: { label: 'Keep my place on the waitlist', url: links.url(ANALYSIS_DAY_WAITLIST_LINK, entry!.id) },
      }),
      // A waitlist place is nobody's by structure (a guest's, by address and name): erasure finds this by its recipient.
      {},
      tx,
      now,
    )
    return answer
  })
}

/**
 * A waitlist entry as its confirmation page shows it (the caller has checked the link key):
 * unconfirmed (with the time left to confirm), queued with its number in line, offered a slot,
 * booked, or ended (lapsed, run out, declined or taken off).
 */
export async function dayWaitlistPlace(entryId: number, now = new Date()) {
  const [entry] = await db()
    .select({
      id: analysisDayWaitlist.id,
      dayId: analysisDayWaitlist.analysisDayId,
      status: analysisDayWaitlist.status,
      confirmedAt: analysisDayWaitlist.confirmedAt,
      createdAt: analysisDayWaitlist.createdAt,
      swimmerName: analysisDayWaitlist.swimmerName,
      email: analysisDayWaitlist.email,
      bookingStatus: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      productName: catalogueItems.name,
      venueName: venues.name,
      city: venues.city,
      firstDate: analysisDays.firstDate,
      lastDate: analysisDays.lastDate,
    })
    .from(analysisDayWaitlist)
    .innerJoin(analysisDays, eq(analysisDays.id, analysisDayWaitlist.analysisDayId))
    .innerJoin(venues, eq(venues.id, analysisDays.venueId))
    .innerJoin(catalogueItems, eq(catalogueItems.code, analysisDays.productCode))
    .leftJoin(bookings, eq(bookings.id, analysisDayWaitlist.bookingId))
    .where(eq(analysisDayWaitlist.id, entryId))
  if (!entry) return null
  const shown = { dayId: entry.dayId, dayName: dayName(entry), swimmerName: entry.swimmerName, email: entry.email }
  if (entry.status === 'booked' || entry.bookingStatus === 'confirmed') return { ...shown, state: 'booked' as const }
  if (entry.status === 'offered' && entry.bookingStatus === 'pending' && entry.holdExpiresAt && entry.holdExpiresAt > now) return { ...shown, state: 'offered' as const }
  if (entry.status !== 'waiting' || (!entry.confirmedAt && confirmByOf(entry.createdAt) <= now)) return { ...shown, state: 'ended' as const }
  if (!entry.confirmedAt) return { ...shown, state: 'unconfirmed' as const, confirmBy: confirmByOf(entry.createdAt) }
  const [{ position } = { position: 1 }] = await db()
    .select({ position: count() })
    .from(analysisDayWaitlist)
    .where(and(eq(analysisDayWaitlist.analysisDayId, entry.dayId), queued(), sql`(${analysisDayWaitlist.confirmedAt}, ${analysisDayWaitlist.id}) <= (${entry.confirmedAt}, ${entry.id})`))
  return { ...shown, state: 'queued' as const, position }
}

/**
 * The parent confirms their address: the entry joins the queue, behind everyone who confirmed
 * before (a slot that freed up meanwhile is offered at the worker's next round). Confirming twice
 * changes nothing; a lapsed or ended entry stays as it is.
 */
export async function confirmDayWaitlistPlace(entryId: number, now = new Date()) {
  await db()
    .update(analysisDayWaitlist)
    .set({ confirmedAt: now })
    .where(and(eq(analysisDayWaitlist.id, entryId), confirmable(now)))
  return dayWaitlistPlace(entryId, now)
}

/** Entries whose address was not confirmed in time lapse (run with the other expiries). */
export async function expireUnconfirmedDayWaitlist(now = new Date()) {
  const lapsed = await db().update(analysisDayWaitlist).set({ status: 'expired' }).where(lapsedUnconfirmed(now)).returning({ id: analysisDayWaitlist.id })
  return lapsed.length
}

/**
 * Offers every free slot of every day with a queue to the first in line (by the time they confirmed
 * their address; unconfirmed entries are not in line). Days are locked one at a time, so instances
 * running this side by side never offer one slot twice, nor one person two.
 */
export async function offerFreedDaySlots(now = new Date()) {
  const days = await db()
    .selectDistinct({ dayId: analysisDayWaitlist.analysisDayId })
    .from(analysisDayWaitlist)
    .where(or(queued(), eq(analysisDayWaitlist.status, 'offered')))
  const links = await privateLinks()
  let offered = 0
  for (const { dayId } of days) offered += await offerSlotsOf(dayId, links, now)
  return offered
}

/**
 * Offers that ended: paid ones are booked; those whose booking no longer holds its slot (the hold
 * ran out, declined, cancelled) are expired, so the slot goes on to the next in line.
 */
async function settleOffers(tx: Executor, dayId: number, now: Date) {
  const offers = await tx
    .select({ id: analysisDayWaitlist.id, status: bookings.status, holdExpiresAt: bookings.holdExpiresAt })
    .from(analysisDayWaitlist)
    .leftJoin(bookings, eq(bookings.id, analysisDayWaitlist.bookingId))
    .where(and(eq(analysisDayWaitlist.analysisDayId, dayId), eq(analysisDayWaitlist.status, 'offered')))
  const holding = (offer: (typeof offers)[number]) => offer.status === 'pending' && offer.holdExpiresAt !== null && offer.holdExpiresAt > now
  const booked = offers.filter((offer) => offer.status === 'confirmed').map((offer) => offer.id)
  const ended = offers.filter((offer) => offer.status !== 'confirmed' && !holding(offer)).map((offer) => offer.id)
  if (booked.length) await tx.update(analysisDayWaitlist).set({ status: 'booked' }).where(inArray(analysisDayWaitlist.id, booked))
  if (ended.length) await tx.update(analysisDayWaitlist).set({ status: 'expired' }).where(inArray(analysisDayWaitlist.id, ended))
}

async function offerSlotsOf(dayId: number, links: PrivateLinks, now: Date) {
  return db().transaction(async (tx) => {
    await lockKeys(tx, [dayKey(dayId)])
    await settleOffers(tx, dayId, now)
    const day = await analysisDayById(dayId, tx)
    if (!onSale(day, now)) return 0
    const queue = await tx
      .select({ id: analysisDayWaitlist.id, swimmerName: analysisDayWaitlist.swimmerName, email: analysisDayWaitlist.email, phone: analysisDayWaitlist.phone })
      .from(analysisDayWaitlist)
      .where(and(eq(analysisDayWaitlist.analysisDayId, dayId), queued()))
      .orderBy(asc(analysisDayWaitlist.confirmedAt), asc(analysisDayWaitlist.id))
    if (queue.length === 0) return 0
    const offerable = (await slotsToCome(dayId, tx, now)).filter((slot) => slot.left > 0 && labInstant(slot.date, slot.start) >= addMinutes(now, SHORTEST_OFFER_MINUTES))
    let offered = 0
    for (const slot of offerable) {
      for (let seat = 0; seat < slot.left; seat++) {
        const person = await nextInLine(tx, dayId, queue, now)
        if (!person) return offered
        const startsAt = labInstant(slot.date, slot.start)
        const wanted = addHours(now, config().WAITLIST_OFFER_HOURS)
        const holdExpiresAt = wanted < startsAt ? wanted : startsAt
        // A slot taken or closed since it was counted refuses; the person waits for the next one.
        const hold = await tx
          .transaction((savepoint) =>
            holdDaySlotIn(savepoint, {
              customer: { userId: null, swimmerId: null, swimmerName: person.swimmerName, name: person.swimmerName, email: person.email, phone: person.phone, swimmingExperience: null },
              date: slot.date,
              start: slot.start,
              productCode: day.productCode,
              analysisDay: { id: dayId, pricePaise: day.pricePaise, host: null },
              holdExpiresAt,
              now,
            }),
          )
          .catch((error: unknown) => {
            if (error instanceof SlotUnavailableError) return null
            throw error
          })
        if (!hold) break
        queue.splice(queue.indexOf(person), 1)
        await tx.update(analysisDayWaitlist).set({ status: 'offered', bookingId: hold.bookingId, offeredAt: now }).where(eq(analysisDayWaitlist.id, person.id))
        await tellOfOffer(tx, { day, slot, person, hold, links, now })
        offered += 1
      }
    }
    return offered
  })
}

type Person = { id: number; swimmerName: string; email: string; phone: string | null }

/**
 * The first in line not booked on the day already. Someone who booked a slot meanwhile no longer
 * waits; someone whose payment for one is under way is passed over this round.
 */
async function nextInLine(tx: Executor, dayId: number, queue: Person[], now: Date) {
  for (const person of [...queue]) {
    const booked = await bookedOnDay(tx, dayId, person, now)
    if (booked.length === 0) return person
    queue.splice(queue.indexOf(person), 1)
    if (booked.some((booking) => booking.status === 'confirmed')) await tx.update(analysisDayWaitlist).set({ status: 'cancelled' }).where(eq(analysisDayWaitlist.id, person.id))
  }
  return null
}

type DayRow = Awaited<ReturnType<typeof analysisDayById>>

/** The offer's e-mail, and its WhatsApp message to a number that opted in: when, where, the price and the private link to pay. */
async function tellOfOffer(
  tx: Executor,
  { day, slot, person, hold, links, now }: { day: DayRow; slot: FreeSlot; person: Person; hold: { bookingId: number; reference: string; holdExpiresAt: Date; amountPaise: number }; links: PrivateLinks; now: Date },
) {
  const when = `${formatWeekdayDate(slot.date)}, ${formatTimeRange(slot.start, slot.end)}`
  const where = `${day.venueName}, ${day.address}, ${day.city}`
  const link = links.url(ANALYSIS_DAY_OFFER_LINK, hold.reference)
  await enqueueEmail(
    letter({
      to: person.email,
      subject: `A slot is free: ${day.productName} at ${day.venueName}`,
      name: person.swimmerName,
      paragraphs: [
        `Good news: a slot of ${dayName(day)} has freed up, and we are holding it for ${person.swimmerName}.`,
        `Pay ${formatRupees(hold.amountPaise)} by ${formatLabDateTime(hold.holdExpiresAt)} to book it; after that it goes to the next person on the waitlist. If you no longer need it, the same page lets you give it up.`,
      ],
      details: [
        ['Booking ID', hold.reference],
        ['When', when],
        ['Where', where],
      ],
      action: { label: 'Pay and book the slot', url: link },
    }),
    { bookingId: hold.bookingId },
    tx,
    now,
  )
  await notifyOnWhatsApp(
    'waitlist_seat_offered',
    {
      phone: person.phone,
      parameters: [`${day.productName} at ${day.venueName} (${when})`, person.swimmerName, formatLabDateTime(hold.holdExpiresAt), formatRupees(hold.amountPaise), { kind: 'analysis-day-offer', reference: hold.reference }],
      names: [person.swimmerName],
      about: { bookingId: hold.bookingId },
    },
    tx,
    now,
  )
}

/** A slot held for someone from the waitlist, by its booking's reference (the caller has checked the link key): what the offer page shows (heldDaySlot). */
export async function dayOffer(reference: string, now = new Date()) {
  const [offer] = await db()
    .select({ bookingId: bookings.id, email: bookings.customerEmail })
    .from(analysisDayWaitlist)
    .innerJoin(bookings, eq(bookings.id, analysisDayWaitlist.bookingId))
    .where(eq(bookings.reference, reference))
    .limit(1)
  const slot = offer && (await heldDaySlot(offer.bookingId, now))
  return slot ? { ...slot, email: offer.email } : null
}

/**
 * The parent gives up the slot offered: its hold is released and the entry ends, and the slot is
 * offered to the next in line at once. Nothing happens to an offer already paid or ended.
 */
export async function declineDayOffer(reference: string, now = new Date()) {
  const dayId = await db().transaction(async (tx) => {
    const [offer] = await tx
      .select({ entryId: analysisDayWaitlist.id, dayId: analysisDayWaitlist.analysisDayId, bookingId: bookings.id })
      .from(analysisDayWaitlist)
      .innerJoin(bookings, eq(bookings.id, analysisDayWaitlist.bookingId))
      .where(and(eq(bookings.reference, reference), eq(analysisDayWaitlist.status, 'offered')))
    if (!offer) return null
    await lockKeys(tx, [dayKey(offer.dayId)])
    const released = await setStatus(tx, bookings, 'expired', and(eq(bookings.id, offer.bookingId), eq(bookings.status, 'pending')), { updatedAt: now }).returning({ id: bookings.id })
    if (released.length === 0) return null
    await tx.update(analysisDayWaitlist).set({ status: 'declined' }).where(eq(analysisDayWaitlist.id, offer.entryId))
    return offer.dayId
  })
  if (dayId === null) return false
  await offerSlotsOf(dayId, await privateLinks(), now)
  return true
}

/** The day's waitlist for staff: who is in line, in order, and how many joined without confirming yet or hold an offer. */
export async function dayWaitlistForStaff(dayId: number, now = new Date()) {
  const rows = await db()
    .select({ swimmerName: analysisDayWaitlist.swimmerName, status: analysisDayWaitlist.status, confirmedAt: analysisDayWaitlist.confirmedAt })
    .from(analysisDayWaitlist)
    .where(and(eq(analysisDayWaitlist.analysisDayId, dayId), holdsPlace(now)))
    .orderBy(asc(analysisDayWaitlist.confirmedAt), asc(analysisDayWaitlist.id))
  return {
    inLine: rows.filter((row) => row.status === 'waiting' && row.confirmedAt !== null).map((row) => row.swimmerName),
    offered: rows.filter((row) => row.status === 'offered').map((row) => row.swimmerName),
    unconfirmed: rows.filter((row) => row.status === 'waiting' && row.confirmedAt === null).length,
  }
}


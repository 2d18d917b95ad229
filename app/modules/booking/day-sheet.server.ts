import { and, asc, desc, eq, gt, inArray, or, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { availabilityWindows, bookingDays, bookings, guardianConsents, swimmers, users, type BookingOrigin } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import type { Actor } from '~/modules/audit/audit.server'
import { ADULT_AGE, ageOn } from '~/modules/swimmers/age'
import { consentRecordsOf } from '~/modules/swimmers/consent.server'
import { setAttendance } from './staff.server'

// The day sheet: everyone coming to one venue on one date, for the staff at the poolside. A place is
// on it when one of its booking's days is on that date in a window of that venue (by the window's
// venue, never by a name), and the booking is confirmed or still held unpaid; a cancelled, refunded,
// lapsed or failed one is not.

/**
 * Where a swimmer's consent stands on the day: an adult's own (18 or older that day, or a guest who
 * booked for themselves), or for a swimmer under 18 their parent's: given, pending (a link sent and
 * not answered, or given from an address staff have still to confirm), withdrawn, refused or none.
 */
export type SheetConsent = { state: 'adult' } | { state: 'given'; by: string } | { state: 'pending' } | { state: 'withdrawn' } | { state: 'refused' } | { state: 'none' }

export type SheetAttendance = 'attended' | 'no_show' | null

export type DaySheetEntry = {
  bookingId: number
  reference: string
  /** Confirmed (paid, or complimentary), or held while its customer pays. */
  status: 'confirmed' | 'pending'
  origin: BookingOrigin
  amountPaise: number
  holdExpiresAt: Date | null
  attendance: SheetAttendance
  startTime: string
  endTime: string
  dayNumber: number
  dayCount: number
  swimmerName: string
  /** On the sheet's date; null for a guest who booked for themselves (no age asked). */
  age: number | null
  consent: SheetConsent
  /** Who booked: the parent, or the adult swimmer themselves. */
  contactName: string
  /** E.164; the booking's number, else its account's. */
  phone: string | null
}

/** Everyone coming to `venueId` on `date`, by start time then swimmer's name. */
export async function daySheet(venueId: number, date: string, now = new Date(), executor: Executor = db()): Promise<DaySheetEntry[]> {
  const rows = await executor
    .select({
      bookingId: bookings.id,
      reference: bookings.reference,
      status: bookings.status,
      origin: bookings.origin,
      amountPaise: bookings.amountPaise,
      holdExpiresAt: bookings.holdExpiresAt,
      attendance: bookings.attendance,
      startTime: bookingDays.startTime,
      endTime: bookingDays.endTime,
      dayNumber: bookingDays.dayNumber,
      dayCount: sql<number>`(SELECT count(*)::int FROM ${bookingDays} AS all_days WHERE all_days.booking_id = ${bookings.id})`,
      swimmerId: bookings.swimmerId,
      swimmerName: bookings.swimmerName,
      swimmerAge: bookings.swimmerAge,
      birthDate: swimmers.birthDate,
      ageYears: swimmers.ageYears,
      ageGivenOn: swimmers.ageGivenOn,
      contactName: bookings.customerName,
      bookingPhone: bookings.customerPhone,
      accountPhone: users.phone,
    })
    .from(bookingDays)
    .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .leftJoin(swimmers, eq(swimmers.id, bookings.swimmerId))
    .leftJoin(users, eq(users.id, bookings.userId))
    .where(
      and(
        eq(availabilityWindows.venueId, venueId),
        eq(bookingDays.date, date),
        or(eq(bookings.status, 'confirmed'), and(eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now))),
      ),
    )
    .orderBy(asc(bookingDays.startTime), asc(bookings.swimmerName), asc(bookings.id))
  const ages = rows.map((row) =>
    row.swimmerId !== null && (row.birthDate !== null || row.ageGivenOn !== null) ? ageOn({ birthDate: row.birthDate, ageYears: row.ageYears, ageGivenOn: row.ageGivenOn }, date) : row.swimmerAge,
  )
  const minors = rows.filter((_, index) => ages[index] !== null && ages[index]! < ADULT_AGE)
  const [profiles, declarations] = await Promise.all([
    consentRecordsOf([...new Set(minors.flatMap((row) => (row.swimmerId === null ? [] : [row.swimmerId])))], executor),
    declarationsOf(minors.filter((row) => row.swimmerId === null).map((row) => row.bookingId), executor),
  ])
  return rows.map((row, index) => {
    const age = ages[index]!
    let consent: SheetConsent = { state: 'adult' }
    if (age !== null && age < ADULT_AGE) consent = row.swimmerId === null ? declaredConsent(declarations.get(row.bookingId)) : profileConsent(profiles.get(row.swimmerId), now)
    return {
      bookingId: row.bookingId,
      reference: row.reference,
      status: row.status === 'confirmed' ? 'confirmed' : 'pending',
      origin: row.origin,
      amountPaise: row.amountPaise,
      holdExpiresAt: row.holdExpiresAt,
      attendance: row.attendance,
      startTime: row.startTime,
      endTime: row.endTime,
      dayNumber: row.dayNumber,
      dayCount: row.dayCount,
      swimmerName: row.swimmerName,
      age,
      consent,
      contactName: row.contactName,
      phone: row.bookingPhone ?? row.accountPhone,
    }
  })
}

type ProfileRecords = Awaited<ReturnType<typeof consentRecordsOf>> extends Map<number, infer Records> ? Records : never

/** A profile's consent: in force (pending while staff have to confirm the address), else a link waiting, else what ended it. */
function profileConsent(records: ProfileRecords | undefined, now: Date): SheetConsent {
  const { consent, request } = records ?? { consent: null, request: null }
  if (consent && consent.withdrawnAt === null) return consent.weakBecause && !consent.staffConfirmedAt ? { state: 'pending' } : { state: 'given', by: consent.guardianName }
  if (request && (request.status === 'unsent' || (request.status === 'waiting' && request.expiresAt > now))) return { state: 'pending' }
  if (consent) return { state: 'withdrawn' }
  if (request?.status === 'refused') return { state: 'refused' }
  return { state: 'none' }
}

/** A guest's booking for a swimmer under 18: the booking person's declaration as parent or guardian. */
function declaredConsent(declaration: { guardianName: string; withdrawnAt: Date | null } | undefined): SheetConsent {
  if (!declaration) return { state: 'none' }
  return declaration.withdrawnAt === null ? { state: 'given', by: declaration.guardianName } : { state: 'withdrawn' }
}

/** Each booking's newest declaration, by booking id. */
async function declarationsOf(bookingIds: number[], executor: Executor) {
  const byBooking = new Map<number, { guardianName: string; withdrawnAt: Date | null }>()
  if (bookingIds.length === 0) return byBooking
  const rows = await executor
    .select({ bookingId: guardianConsents.bookingId, guardianName: guardianConsents.guardianName, withdrawnAt: guardianConsents.withdrawnAt })
    .from(guardianConsents)
    .where(inArray(guardianConsents.bookingId, bookingIds))
    .orderBy(desc(guardianConsents.id))
  for (const { bookingId, ...declaration } of rows) if (bookingId !== null && !byBooking.has(bookingId)) byBooking.set(bookingId, declaration)
  return byBooking
}

export class NotOnTheSheetError extends DomainError {
  constructor() {
    super('not_found', 'That booking is not on this day’s sheet.')
  }
}

export class UnpaidAttendanceError extends DomainError {
  constructor() {
    super('conflict', 'This booking is still awaiting payment: take the payment before marking whether they came.')
  }
}

/**
 * Marks whether the swimmer of a booking on the sheet came (or clears the mark), through the
 * booking's own attendance and its audit entry. Only a booking on that venue's sheet that date.
 */
export async function markOnSheet(actor: Actor, { venueId, date, bookingId, attendance }: { venueId: number; date: string; bookingId: number; attendance: SheetAttendance }, now = new Date()) {
  const entry = (await daySheet(venueId, date, now)).find((row) => row.bookingId === bookingId)
  if (!entry) throw new NotOnTheSheetError()
  if (entry.status !== 'confirmed') throw new UnpaidAttendanceError()
  await setAttendance(actor, bookingId, attendance, now)
  return entry
}

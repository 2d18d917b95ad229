import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { staffAssignments, users, venues } from '~/db/schema'
import { isExclusionViolation } from '~/db/unique-violation.server'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { awayRange, describePeriod, periodFrom, rangeSql } from './periods.server'
import type { StaffAssignmentInput } from './schemas'
import { requireOpenVenue } from './venues.server'

// Which staff member is at which venue, and when: their availability there. A person is in one
// place at a time, the travel there and back included; the database refuses an overlap
// (staff_assignments_user_id_during_excl), so two staff assigning one person at once cannot both succeed.

/** The staff accounts that can be sent to a venue: staff, not disabled. */
export async function assignableStaff() {
  return db()
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(eq(users.isAdmin, true), isNull(users.disabledAt)))
    .orderBy(asc(users.name), asc(users.id))
}

const listColumns = {
  id: staffAssignments.id,
  userId: staffAssignments.userId,
  name: users.name,
  email: users.email,
  venueId: staffAssignments.venueId,
  venueName: venues.name,
  startsAt: staffAssignments.startsAt,
  endsAt: staffAssignments.endsAt,
  note: staffAssignments.note,
}

/** Who is due at a venue (or anywhere, without one) and has not finished there, soonest first. */
export async function upcomingAssignments(now = new Date(), venueId?: number) {
  return db()
    .select(listColumns)
    .from(staffAssignments)
    .innerJoin(users, eq(users.id, staffAssignments.userId))
    .innerJoin(venues, eq(venues.id, staffAssignments.venueId))
    .where(and(gt(staffAssignments.endsAt, now), venueId === undefined ? undefined : eq(staffAssignments.venueId, venueId)))
    .orderBy(asc(staffAssignments.startsAt), asc(users.name))
}

/** Sends a staff member to a venue for a period. Refused, naming where they are then, when they are elsewhere. */
export async function assignStaff(actor: Actor, venueId: number, input: StaffAssignmentInput, now = new Date()) {
  const period = periodFrom(input, now)
  let away = period
  try {
    return await db().transaction(async (tx) => {
      const venue = await requireOpenVenue(tx, venueId)
      const [person] = await tx
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(and(eq(users.id, input.userId), eq(users.isAdmin, true), isNull(users.disabledAt)))
      if (!person) throw new DomainError('invalid', 'Choose a staff member from the list', 'userId')
      away = awayRange(period, venue.travelMinutes)
      const [row] = await tx
        .insert(staffAssignments)
        .values({ userId: person.id, venueId, ...period, during: rangeSql(away), note: input.note, createdBy: actor.id, createdAt: now })
        .returning({ id: staffAssignments.id })
      await recordAudit(tx, actor, { action: 'staff.assign', entityType: 'staff_assignment', entityId: row!.id, summary: `Sent ${person.name} to ${venue.name} from ${describePeriod(period)}`, after: { userId: person.id, venueId, ...period } }, now)
      return row!.id
    })
  } catch (error) {
    if (!isExclusionViolation(error, 'staff_assignments_user_id_during_excl')) throw error
    const [clash] = await db()
      .select({ venueName: venues.name, startsAt: staffAssignments.startsAt, endsAt: staffAssignments.endsAt })
      .from(staffAssignments)
      .innerJoin(venues, eq(venues.id, staffAssignments.venueId))
      .where(and(eq(staffAssignments.userId, input.userId), sql`${staffAssignments.during} && ${rangeSql(away)}`))
      .orderBy(asc(staffAssignments.startsAt))
      .limit(1)
    throw new DomainError('conflict', clash ? `They are at ${clash.venueName} from ${describePeriod(clash)} (with the travel, that overlaps). Choose another time or another person.` : 'They are somewhere else at that time. Choose another time or another person.', 'fromDate')
  }
}

/** What must still hold once an assignment is removed (in its transaction): refuses the removal by throwing. */
export type RemovalCheck = (tx: Executor, venueId: number, removed: { startsAt: Date; endsAt: Date }, now: Date) => Promise<void>

/** Takes a staff member off a venue, if `stillHolds` agrees (what the venue's days rely on); one already over stays on record. */
export async function removeAssignment(actor: Actor, id: number, stillHolds: RemovalCheck, now = new Date()) {
  await db().transaction(async (tx) => {
    const [row] = await tx
      .delete(staffAssignments)
      .where(and(eq(staffAssignments.id, id), gt(staffAssignments.endsAt, now)))
      .returning({ userId: staffAssignments.userId, venueId: staffAssignments.venueId, startsAt: staffAssignments.startsAt, endsAt: staffAssignments.endsAt })
    if (!row) throw new DomainError('not_found', 'That assignment is over or no longer planned.')
    await stillHolds(tx, row.venueId, row, now)
    await recordAudit(tx, actor, { action: 'staff.unassign', entityType: 'staff_assignment', entityId: id, summary: `Took staff member #${row.userId} off venue #${row.venueId} (${describePeriod(row)})`, before: row }, now)
  })
}

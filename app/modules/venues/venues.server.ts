import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { kitPlacements, staffAssignments, venues } from '~/db/schema'
import { isUniqueViolation } from '~/db/unique-violation.server'
import { DomainError } from '~/lib/domain-error'
import { gstStateName } from '~/lib/gst-states'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { requireUsablePhoto } from '~/modules/media/media.server'
import { registrationProblems, type VenueInput } from './schemas'

// Where the lab works: its home and the pools, clubs and competition venues it takes its kit to.
// Each change is one transaction with its audit entry. A venue is closed, never deleted.

export class VenueNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'That venue does not exist.')
  }
}

const columns = {
  id: venues.id,
  name: venues.name,
  address: venues.address,
  city: venues.city,
  stateCode: venues.stateCode,
  mapUrl: venues.mapUrl,
  photoId: venues.photoId,
  hostName: venues.hostName,
  hostEmail: venues.hostEmail,
  hostPhone: venues.hostPhone,
  travelMinutes: venues.travelMinutes,
  gstin: venues.gstin,
  invoiceSeries: venues.invoiceSeries,
  isHome: venues.isHome,
  closedAt: venues.closedAt,
}

export type Venue = Awaited<ReturnType<typeof venueById>>

/** Every venue, the home first, then open ones by city and name, closed ones last. */
export async function listVenues() {
  return db()
    .select(columns)
    .from(venues)
    .orderBy(sql`${venues.isHome} DESC`, sql`${venues.closedAt} IS NOT NULL`, asc(venues.city), asc(venues.name))
}

/** The venues a kit or a person can be sent to: open, the home first. */
export async function openVenues() {
  return (await listVenues()).filter((venue) => !venue.closedAt)
}

export async function venueById(id: number, executor: Executor = db()) {
  const [venue] = await executor.select(columns).from(venues).where(eq(venues.id, id))
  if (!venue) throw new VenueNotFoundError()
  return venue
}

/** The lab's own room. */
export async function homeVenue(executor: Executor = db()) {
  const [venue] = await executor.select(columns).from(venues).where(eq(venues.isHome, true))
  if (!venue) throw new Error('The home venue is missing')
  return venue
}

const NAME_TAKEN = 'Another venue already has this name'
const SERIES_TAKEN = 'Another venue already numbers its invoices in this series: choose another'

/**
 * The venue's details as stored, checked: its photo usable, and its GST registration (a GSTIN of its
 * state and a series of its own, both or neither) never on the lab's home, whose GSTIN is the settings'.
 */
async function checked(tx: Executor, input: VenueInput, isHome = false) {
  if (input.photoId !== null) await requireUsablePhoto(tx, input.photoId, 'venue', 'photoId')
  const registration = { gstin: input.gstin ?? null, invoiceSeries: input.invoiceSeries ?? null }
  // Told above the form: the home's form has no GST fields.
  if (isHome && (registration.gstin || registration.invoiceSeries)) throw new DomainError('invalid', 'The lab’s own GSTIN is set in Settings, under GST details, not on its room')
  const [problem] = registrationProblems({ stateCode: input.stateCode, ...registration })
  if (problem) throw new DomainError('invalid', problem.message, problem.field)
  return { ...input, ...registration }
}

function refusedAsTaken(error: unknown): never {
  if (isUniqueViolation(error, 'venues_name_unique')) throw new DomainError('conflict', NAME_TAKEN, 'name')
  if (isUniqueViolation(error, 'venues_invoice_series_unique')) throw new DomainError('conflict', SERIES_TAKEN, 'invoiceSeries')
  throw error
}

/** Adds a venue. Returns its id. */
export async function createVenue(actor: Actor, input: VenueInput, now = new Date()) {
  try {
    return await db().transaction(async (tx) => {
      const values = await checked(tx, input)
      const [row] = await tx
        .insert(venues)
        .values({ ...values, createdAt: now, updatedAt: now })
        .returning({ id: venues.id })
      await recordAudit(tx, actor, { action: 'venues.create', entityType: 'venue', entityId: row!.id, summary: `Added the venue ${input.name}, ${input.city} (${gstStateName(input.stateCode)})`, after: values }, now)
      return row!.id
    })
  } catch (error) {
    refusedAsTaken(error)
  }
}

/**
 * Changes a venue's details, its GST registration among them. What was recorded there keeps the
 * venue; what was issued (receipts) keeps what it said, the place and the tax included.
 */
export async function updateVenue(actor: Actor, id: number, input: VenueInput, now = new Date()) {
  try {
    await db().transaction(async (tx) => {
      const [before] = await tx.select(columns).from(venues).where(eq(venues.id, id)).for('update')
      if (!before) throw new VenueNotFoundError()
      const values = await checked(tx, input, before.isHome)
      await tx
        .update(venues)
        .set({ ...values, updatedAt: now })
        .where(eq(venues.id, id))
      const { id: _id, isHome: _home, closedAt: _closed, ...kept } = before
      await recordAudit(tx, actor, { action: 'venues.update', entityType: 'venue', entityId: id, summary: `Changed the details of the venue ${input.name}`, before: kept, after: values }, now)
    })
  } catch (error) {
    refusedAsTaken(error)
  }
}

/**
 * Closes a venue: nobody is sent there any more. Refused for the lab's home, and while a kit or a
 * staff member is still due there (remove those first).
 */
export async function closeVenue(actor: Actor, id: number, now = new Date()) {
  await db().transaction(async (tx) => {
    const [venue] = await tx.select(columns).from(venues).where(eq(venues.id, id)).for('update')
    if (!venue) throw new VenueNotFoundError()
    if (venue.isHome) throw new DomainError('conflict', 'The lab’s own room cannot be closed.')
    if (venue.closedAt) return
    const [kit] = await tx.select({ id: kitPlacements.id }).from(kitPlacements).where(and(eq(kitPlacements.venueId, id), gt(kitPlacements.endsAt, now))).limit(1)
    const [person] = await tx.select({ id: staffAssignments.id }).from(staffAssignments).where(and(eq(staffAssignments.venueId, id), gt(staffAssignments.endsAt, now))).limit(1)
    if (kit || person) throw new DomainError('conflict', `A ${kit ? 'kit' : 'staff member'} is still due at ${venue.name}. Remove what is planned there first.`)
    await tx.update(venues).set({ closedAt: now, updatedAt: now }).where(eq(venues.id, id))
    await recordAudit(tx, actor, { action: 'venues.close', entityType: 'venue', entityId: id, summary: `Closed the venue ${venue.name}` }, now)
  })
}

export async function reopenVenue(actor: Actor, id: number, now = new Date()) {
  await db().transaction(async (tx) => {
    const [venue] = await tx
      .update(venues)
      .set({ closedAt: null, updatedAt: now })
      .where(and(eq(venues.id, id), sql`${venues.closedAt} IS NOT NULL`))
      .returning({ name: venues.name })
    if (venue) await recordAudit(tx, actor, { action: 'venues.reopen', entityType: 'venue', entityId: id, summary: `Reopened the venue ${venue.name}` }, now)
  })
}

/** An open venue, for what is planned there (refused for a closed one, next to the field). */
export async function requireOpenVenue(tx: Executor, id: number, field = 'venueId') {
  const [venue] = await tx.select(columns).from(venues).where(and(eq(venues.id, id), isNull(venues.closedAt)))
  if (!venue) throw new DomainError('invalid', 'Choose an open venue from the list', field)
  return venue
}

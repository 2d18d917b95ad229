import type { Page } from 'playwright-core'
import type { Db } from '~/db/client.server'
import { analyses, analysisClips, analysisEvents, analysisFindings, analysisMetrics, availabilityWindows, bookingDays, bookings, findingDrills, shareLinks, swimmers, users } from '~/db/schema'
import { addDays } from '~/lib/lab-time'
import { newShareToken } from '~/modules/analyses/access.server'
import { metricDefinition } from '~/modules/analyses/catalog'
import { hashPassword } from '~/modules/accounts/passwords.server'

// Published analyses, drafts and coaches' links written straight into a test server's database
// before it starts (the staff editor is how they are made on the site).

export const FAMILY_PASSWORD = 'butterfly-2027'

/** A verified account with one swimmer (the account holder). */
export async function accountWithSwimmer(db: Db, { name, email, gender = 'female', age = 14 }: { name: string; email: string; gender?: string; age?: number }) {
  const [user] = await db.insert(users).values({ name, email, passwordHash: await hashPassword(FAMILY_PASSWORD), isVerified: true, phone: '+91 98450 12345', currentLocation: 'Jayanagar, Bengaluru' }).returning({ id: users.id })
  const [swimmer] = await db
    .insert(swimmers)
    .values({ accountId: user!.id, isAccountHolder: true, name, ageYears: age, ageGivenOn: '2026-01-01', gender, swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })
    .returning({ id: swimmers.id })
  return { userId: user!.id, swimmerId: swimmer!.id, name, email }
}

let references = 0

type Owner = { userId: number; swimmerId: number; name: string; email: string }

/** A confirmed one-day booking of the account's swimmer on `date`, not analysed yet. */
export async function confirmedSession(db: Db, owner: Owner, date: string) {
  const [window] = await db.insert(availabilityWindows).values({ date, startTime: '09:00', endTime: '12:00', slotDurationMinutes: 60, capacity: 4 }).returning({ id: availabilityWindows.id })
  references += 1
  const [booking] = await db
    .insert(bookings)
    .values({ reference: `SWP-${String(9_000_000_000 + references + Math.floor(Math.random() * 100000) * 100)}`, productCode: 'biomechanical_package', userId: owner.userId, swimmerId: owner.swimmerId, swimmerName: owner.name, customerName: owner.name, customerEmail: owner.email, startTime: '09:00', endTime: '10:00', amountPaise: 100000, status: 'confirmed', confirmedAt: new Date() })
    .returning({ id: bookings.id, reference: bookings.reference })
  await db.insert(bookingDays).values({ bookingId: booking!.id, dayNumber: 1, windowId: window!.id, date, startTime: '09:00', endTime: '10:00' })
  return { bookingId: booking!.id, reference: booking!.reference }
}

/** A confirmed one-day booking of the account's swimmer on `date`, with its analysis (published or a draft) of one 50 m freestyle. */
export async function analysedSession(db: Db, owner: Owner, date: string, { metrics, publishedAt, nextAnalysisOn = null, summary = '' }: { metrics: Record<string, number>; publishedAt: Date | null; nextAnalysisOn?: string | null; summary?: string }) {
  const booking = await confirmedSession(db, owner, date)
  const [analysis] = await db.insert(analyses).values({ bookingId: booking.bookingId, swimmerId: owner.swimmerId, publishedAt, nextAnalysisOn, summary }).returning({ id: analyses.id })
  const [event] = await db.insert(analysisEvents).values({ analysisId: analysis!.id, stroke: 'freestyle', distanceMetres: 50 }).returning({ id: analysisEvents.id })
  await db.insert(analysisMetrics).values(
    Object.entries(metrics).map(([key, value], position) => {
      const definition = metricDefinition(key)!
      return { eventId: event!.id, metricKey: key, label: definition.label, unit: definition.unit, betterWhen: definition.betterWhen, value, position }
    }),
  )
  return { analysisId: analysis!.id, eventId: event!.id, bookingId: booking.bookingId, reference: booking.reference }
}

/** A clip of the analysis (its file is not needed for its chapters). */
export async function clipOf(db: Db, analysisId: number, title: string, chapters: Array<{ kind: string; seconds: number }>) {
  const [clip] = await db.insert(analysisClips).values({ analysisId, title, angle: 'underwater_side', chapters, storageKey: `test-clip-${analysisId}-${title.replace(/\W/g, '')}`, contentType: 'video/mp4', sizeBytes: 1024 }).returning({ id: analysisClips.id })
  return clip!.id
}

/** A finding with one drill. */
export async function findingOf(db: Db, analysisId: number, title: string, drill: string) {
  const [finding] = await db.insert(analysisFindings).values({ analysisId, title, whyItMatters: 'It costs time at every stroke.', priority: 'high' }).returning({ id: analysisFindings.id })
  await db.insert(findingDrills).values({ findingId: finding!.id, name: drill, instructions: 'Four lengths, easy.' })
}

/** A coach's link, as made on the site, in any state: its token. */
export async function shareLinkOf(db: Db, owner: { userId: number; swimmerId: number }, { analysisId = null, expiresAt = addDays(new Date(), 30), revokedAt = null }: { analysisId?: number | null; expiresAt?: Date; revokedAt?: Date | null } = {}) {
  const { token, tokenHash } = newShareToken()
  await db.insert(shareLinks).values({ accountId: owner.userId, swimmerId: owner.swimmerId, analysisId, tokenHash, expiresAt, revokedAt })
  return token
}

/** One figure of an analysis page (its name, value, previous value, change and reference levels), by its name. */
export const figureOn = (page: Page, label: string) => page.getByTestId('metrics').getByRole('listitem').filter({ has: page.getByRole('heading', { name: label, exact: true }) })

import { and, count, eq, max } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { analyses, analysisClips, analysisEvents, analysisFindings, analysisMetrics, bookings, catalogueItems, findingDrills, swimmers, type BetterWhen } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { labToday } from '~/lib/lab-time'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { ageOn } from '~/modules/swimmers/age'
import { analysisIdOfBooking, openAnalysis } from './analyses.server'
import { eventsWithMetricsOf, findingsWithDrillsOf } from './contents.server'
import { customMetricKey, eventLabel, METRICS, metricDefinition } from './catalog'
import { LIMITS, segmentMetricKeys } from './schemas'

// What staff record while they analyse a booking: the pool, a summary, the events with their
// figures, and what they found with drills to work on it. Everything is saved as they go, as a
// draft the family sees only once it is published; each change is one transaction with its audit
// entry, under a lock on the analysis so the limits hold when two of the staff edit at once.

/** A booking as the analysis editor shows it, by its reference. */
export async function bookingForAnalysis(reference: string) {
  const [booking] = await db()
    .select({
      id: bookings.id,
      reference: bookings.reference,
      status: bookings.status,
      userId: bookings.userId,
      swimmerId: bookings.swimmerId,
      swimmerName: bookings.swimmerName,
      customerName: bookings.customerName,
      customerEmail: bookings.customerEmail,
      productName: catalogueItems.name,
    })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(eq(bookings.reference, reference))
  return booking ?? null
}

export type EditorMetric = { id: number; key: string; label: string; unit: string; betterWhen: BetterWhen; value: number; custom: boolean }
export type EditorEvent = { id: number; stroke: string; distanceMetres: number; label: string; metrics: EditorMetric[]; keys: string[] }

/**
 * The metric keys an event's form shows: the catalogue's, its splits and segment speeds, and any
 * other it has stored (a metric staff added, or one imported).
 */
export function metricKeysOf(event: { distanceMetres: number }, poolLengthMetres: number, storedKeys: string[]) {
  const keys = [...METRICS.map((metric) => metric.key), ...segmentMetricKeys(event.distanceMetres, poolLengthMetres)]
  return [...keys, ...storedKeys.filter((key) => !keys.includes(key))]
}

/**
 * The staff's view of a booking's analysis: the swimmer (name, age today or as given when booked, gender), the analysis
 * and its events with their metrics, findings with drills, and how many clips it has. Null when
 * staff have not opened one yet.
 */
export async function analysisForStaff(bookingId: number, today = labToday()) {
  const [booking] = await db().select({ swimmerId: bookings.swimmerId, swimmerName: bookings.swimmerName, swimmerAge: bookings.swimmerAge }).from(bookings).where(eq(bookings.id, bookingId))
  if (!booking) return null
  const [profile] = booking.swimmerId
    ? await db().select({ name: swimmers.name, gender: swimmers.gender, birthDate: swimmers.birthDate, ageYears: swimmers.ageYears, ageGivenOn: swimmers.ageGivenOn }).from(swimmers).where(eq(swimmers.id, booking.swimmerId))
    : []
  // Without a profile: the age given when booked, for someone else who swims.
  const swimmer = profile ? { name: profile.name, age: ageOn(profile, today) as number | null, gender: profile.gender as string | null } : { name: booking.swimmerName, age: booking.swimmerAge, gender: null }
  const [analysis] = await db().select().from(analyses).where(eq(analyses.bookingId, bookingId))
  if (!analysis) return { swimmer, analysis: null }
  const [events, findings] = await Promise.all([eventsWithMetricsOf([analysis.id]), findingsWithDrillsOf(analysis.id)])
  const [clips] = await db().select({ count: count() }).from(analysisClips).where(eq(analysisClips.analysisId, analysis.id))
  return {
    swimmer,
    analysis: {
      id: analysis.id,
      poolLengthMetres: analysis.poolLengthMetres,
      summary: analysis.summary,
      publishedAt: analysis.publishedAt,
      nextAnalysisOn: analysis.nextAnalysisOn,
      updatedAt: analysis.updatedAt,
      clipsCount: clips?.count ?? 0,
      events: events.map((event): EditorEvent => {
        const own = event.metrics
        return {
          id: event.id,
          stroke: event.stroke,
          distanceMetres: event.distanceMetres,
          label: eventLabel(event),
          metrics: own.map((metric) => ({ id: metric.id, key: metric.metricKey, label: metric.label, unit: metric.unit, betterWhen: metric.betterWhen, value: metric.value, custom: metricDefinition(metric.metricKey) === null })),
          keys: metricKeysOf(
            event,
            analysis.poolLengthMetres,
            own.map((metric) => metric.metricKey),
          ),
        }
      }),
      findings: findings.map((finding) => ({
        id: finding.id,
        title: finding.title,
        whyItMatters: finding.whyItMatters,
        priority: finding.priority,
        drills: finding.drills.map(({ id, name, instructions, videoUrl }) => ({ id, name, instructions, videoUrl })),
      })),
    },
  }
}

export type AnalysisForStaff = NonNullable<Awaited<ReturnType<typeof analysisForStaff>>>

type StaffAnalysis = NonNullable<AnalysisForStaff['analysis']>

/** The parts of an analysis a form can be about, by the field that sends the part's id. */
export type AnalysisPart = 'eventId' | 'findingId' | 'drillId'

function partIds(analysis: StaffAnalysis, part: AnalysisPart) {
  if (part === 'eventId') return analysis.events.map((event) => event.id)
  if (part === 'findingId') return analysis.findings.map((finding) => finding.id)
  return analysis.findings.flatMap((finding) => finding.drills.map((drill) => drill.id))
}

/**
 * Whether the ids a form sent name parts of this analysis: each is the id of one of its events,
 * findings or drills, or, when `optional`, left out or empty.
 */
export function namesPartsOf(analysis: StaffAnalysis, sent: Array<{ part: AnalysisPart; id: unknown; optional?: boolean }>) {
  return sent.every(({ part, id, optional }) => (optional === true && (id === null || id === '')) || (typeof id === 'string' && /^\d{1,10}$/.test(id) && partIds(analysis, part).includes(Number(id))))
}

/** The analysis, locked for the change: a change to another booking's analysis, or one that does not exist, is not found. */
export async function lockedAnalysis(tx: Executor, analysisId: number) {
  const [analysis] = await tx.select().from(analyses).where(eq(analyses.id, analysisId)).for('update')
  if (!analysis) throw new DomainError('not_found', 'No such analysis.')
  return analysis
}

async function touched(tx: Executor, analysisId: number, now: Date) {
  await tx.update(analyses).set({ updatedAt: now }).where(eq(analyses.id, analysisId))
}

async function ownEvent(tx: Executor, analysisId: number, eventId: number) {
  const [event] = await tx
    .select()
    .from(analysisEvents)
    .where(and(eq(analysisEvents.id, eventId), eq(analysisEvents.analysisId, analysisId)))
  if (!event) throw new DomainError('not_found', 'No such event in this analysis.')
  return event
}

async function ownFinding(tx: Executor, analysisId: number, findingId: number) {
  const [finding] = await tx
    .select()
    .from(analysisFindings)
    .where(and(eq(analysisFindings.id, findingId), eq(analysisFindings.analysisId, analysisId)))
  if (!finding) throw new DomainError('not_found', 'No such finding in this analysis.')
  return finding
}

/**
 * An audit entry about the analysis, and so about its booking and swimmer. What staff wrote about
 * the swimmer (the summary, findings, drills) goes in `personal`, referred to as `{key}` in the
 * summary: erasing the swimmer replaces it there.
 */
async function audit(tx: Executor, actor: Actor, analysisId: number, action: string, summary: string, now: Date, { after, personal }: { after?: unknown; personal?: Record<string, string | null> } = {}) {
  const [about] = await tx.select({ bookingId: analyses.bookingId, swimmerId: analyses.swimmerId }).from(analyses).where(eq(analyses.id, analysisId))
  await recordAudit(tx, actor, { action: `analysis.${action}`, entityType: 'analysis', entityId: analysisId, summary, personal, about, after }, now)
}

/** The pool the swimmer swam in and the few sentences for the family at the top of the page. Returns false when both were already so. */
export async function setDetails(actor: Actor, analysisId: number, { poolLength, summary }: { poolLength: number; summary: string }, now = new Date()) {
  if (summary.length > LIMITS.summary) throw new DomainError('invalid', `Please use at most ${LIMITS.summary} characters`, 'summary')
  return db().transaction(async (tx) => {
    const analysis = await lockedAnalysis(tx, analysisId)
    if (analysis.poolLengthMetres === poolLength && analysis.summary === summary) return false
    await tx.update(analyses).set({ poolLengthMetres: poolLength, summary, updatedAt: now }).where(eq(analyses.id, analysisId))
    await audit(tx, actor, analysisId, 'details', `Set the pool to ${poolLength} m and ${summary ? 'wrote' : 'cleared'} the summary`, now, { after: { poolLength }, personal: { summary } })
    return true
  })
}

/** Adds an event (a stroke over a distance) to the analysis: each once, at most LIMITS.events. */
export async function addEvent(actor: Actor, analysisId: number, { stroke, distance }: { stroke: string; distance: number }, now = new Date()) {
  return db().transaction(async (tx) => {
    await lockedAnalysis(tx, analysisId)
    const existing = await tx.select({ stroke: analysisEvents.stroke, distanceMetres: analysisEvents.distanceMetres, position: analysisEvents.position }).from(analysisEvents).where(eq(analysisEvents.analysisId, analysisId))
    const label = eventLabel({ stroke, distanceMetres: distance })
    if (existing.some((event) => event.stroke === stroke && event.distanceMetres === distance)) throw new DomainError('conflict', `The ${label} is already in this analysis.`, 'distance')
    if (existing.length >= LIMITS.events) throw new DomainError('conflict', `An analysis holds at most ${LIMITS.events} events.`)
    const [event] = await tx
      .insert(analysisEvents)
      .values({ analysisId, stroke, distanceMetres: distance, position: Math.max(-1, ...existing.map((event) => event.position)) + 1 })
      .returning({ id: analysisEvents.id })
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'event.add', `Added the ${label}`, now)
    return event!.id
  })
}

/** Removes an event with its metrics (its clips stay, no longer tied to an event). */
export async function removeEvent(actor: Actor, analysisId: number, eventId: number, now = new Date()) {
  return db().transaction(async (tx) => {
    await lockedAnalysis(tx, analysisId)
    const event = await ownEvent(tx, analysisId, eventId)
    await tx.delete(analysisEvents).where(eq(analysisEvents.id, eventId))
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'event.remove', `Removed the ${eventLabel(event)} and its metrics`, now)
  })
}

/** What a metric is stored as: the catalogue's definition, or the one staff gave a metric of their own. */
export type MetricValue = { key: string; label: string; unit: string; betterWhen: BetterWhen; value: number }

/**
 * Writes metric values of an event in one go: a value replaces the stored one, and a key given as
 * null removes its value (an emptied field). Keys must be the catalogue's or custom ones already
 * stored for the event, unless `definitions` gives them (an import adding a metric of its own).
 * Returns how many values were set and removed.
 */
export async function writeMetrics(tx: Executor, eventId: number, values: Map<string, number | null>, definitions = new Map<string, Omit<MetricValue, 'value'>>()) {
  const stored = await tx.select().from(analysisMetrics).where(eq(analysisMetrics.eventId, eventId))
  const byKey = new Map(stored.map((metric) => [metric.metricKey, metric]))
  let set = 0
  let removed = 0
  let position = Math.max(-1, ...stored.map((metric) => metric.position)) + 1
  for (const [key, value] of values) {
    const current = byKey.get(key)
    if (value === null) {
      if (current) {
        await tx.delete(analysisMetrics).where(eq(analysisMetrics.id, current.id))
        byKey.delete(key)
        removed += 1
      }
      continue
    }
    if (current) {
      if (current.value !== value) {
        await tx.update(analysisMetrics).set({ value }).where(eq(analysisMetrics.id, current.id))
        set += 1
      }
      continue
    }
    const definition = metricDefinition(key) ?? definitions.get(key)
    if (!definition) throw new DomainError('invalid', `${key} is not a metric of the list.`)
    await tx.insert(analysisMetrics).values({ eventId, metricKey: key, label: definition.label, unit: definition.unit, betterWhen: definition.betterWhen, value, position: position++ })
    byKey.set(key, { metricKey: key } as (typeof stored)[number])
    set += 1
  }
  const customs = [...byKey.keys()].filter((key) => metricDefinition(key) === null).length
  if (byKey.size > LIMITS.metricsPerEvent) throw new DomainError('conflict', `An event holds at most ${LIMITS.metricsPerEvent} metrics.`)
  if (customs > LIMITS.customMetricsPerEvent) throw new DomainError('conflict', `An event holds at most ${LIMITS.customMetricsPerEvent} metrics of your own.`)
  return { set, removed }
}

/** The metrics form of an event: every field's value, empty ones removing theirs. Returns whether anything changed. */
export async function saveMetrics(actor: Actor, analysisId: number, eventId: number, values: Map<string, number | null>, now = new Date()) {
  return db().transaction(async (tx) => {
    const analysis = await lockedAnalysis(tx, analysisId)
    const event = await ownEvent(tx, analysisId, eventId)
    const stored = await tx.select({ key: analysisMetrics.metricKey }).from(analysisMetrics).where(eq(analysisMetrics.eventId, eventId))
    const allowed = metricKeysOf(
      event,
      analysis.poolLengthMetres,
      stored.map((metric) => metric.key),
    )
    const unknown = [...values.keys()].find((key) => !allowed.includes(key))
    if (unknown) throw new DomainError('invalid', `${unknown} is not a metric of this event.`)
    const { set, removed } = await writeMetrics(tx, eventId, values)
    if (set === 0 && removed === 0) return false
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'metrics', `Saved the metrics of the ${eventLabel(event)}: ${set} set, ${removed} removed`, now)
    return true
  })
}

/** A metric that is not in the catalogue, with its value: named, with a unit and which way is better. */
export async function addCustomMetric(actor: Actor, analysisId: number, input: { eventId: number; label: string; unit: string; better: BetterWhen; value: number }, now = new Date()) {
  const key = customMetricKey(input.label)
  if (!key) throw new DomainError('invalid', 'Use letters or digits in the name', 'label')
  if (METRICS.some((metric) => metric.label.toLowerCase() === input.label.trim().toLowerCase())) throw new DomainError('conflict', `${input.label} is in the list already: enter it there.`, 'label')
  return db().transaction(async (tx) => {
    await lockedAnalysis(tx, analysisId)
    const event = await ownEvent(tx, analysisId, input.eventId)
    const [existing] = await tx
      .select({ id: analysisMetrics.id })
      .from(analysisMetrics)
      .where(and(eq(analysisMetrics.eventId, event.id), eq(analysisMetrics.metricKey, key)))
    if (existing) throw new DomainError('conflict', `The ${eventLabel(event)} has a metric named ${input.label} already: change its value in the list.`, 'label')
    await writeMetrics(tx, event.id, new Map([[key, input.value]]), new Map([[key, { key, label: input.label, unit: input.unit, betterWhen: input.better }]]))
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'metric.add', `Added the metric ${input.label} (${input.unit}, ${input.better} is better) to the ${eventLabel(event)}`, now)
  })
}

/** Adds a finding, or changes one when `findingId` is given. */
export async function saveFinding(actor: Actor, analysisId: number, input: { findingId?: number; title: string; whyItMatters: string; priority: string }, now = new Date()) {
  return db().transaction(async (tx) => {
    await lockedAnalysis(tx, analysisId)
    const values = { title: input.title, whyItMatters: input.whyItMatters, priority: input.priority }
    if (input.findingId) {
      await ownFinding(tx, analysisId, input.findingId)
      await tx.update(analysisFindings).set(values).where(eq(analysisFindings.id, input.findingId))
      await touched(tx, analysisId, now)
      await audit(tx, actor, analysisId, 'finding.change', 'Changed the finding “{finding}”', now, { after: { priority: input.priority }, personal: { finding: input.title, whyItMatters: input.whyItMatters } })
      return input.findingId
    }
    const [{ findings, last } = { findings: 0, last: null }] = await tx.select({ findings: count(), last: max(analysisFindings.position) }).from(analysisFindings).where(eq(analysisFindings.analysisId, analysisId))
    if (findings >= LIMITS.findings) throw new DomainError('conflict', `An analysis holds at most ${LIMITS.findings} findings.`)
    const [finding] = await tx
      .insert(analysisFindings)
      .values({ analysisId, ...values, position: (last ?? -1) + 1 })
      .returning({ id: analysisFindings.id })
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'finding.add', 'Added the finding “{finding}”', now, { after: { priority: input.priority }, personal: { finding: input.title, whyItMatters: input.whyItMatters } })
    return finding!.id
  })
}

export async function removeFinding(actor: Actor, analysisId: number, findingId: number, now = new Date()) {
  return db().transaction(async (tx) => {
    await lockedAnalysis(tx, analysisId)
    const finding = await ownFinding(tx, analysisId, findingId)
    await tx.delete(analysisFindings).where(eq(analysisFindings.id, findingId))
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'finding.remove', 'Removed the finding “{finding}” and its drills', now, { personal: { finding: finding.title } })
  })
}

/** A drill that works on a finding: its name, how to do it, and a video of it (http or https only). */
export async function addDrill(actor: Actor, analysisId: number, input: { findingId: number; name: string; instructions: string; videoUrl: string | null }, now = new Date()) {
  if (input.videoUrl !== null && !/^https?:\/\//i.test(input.videoUrl)) throw new DomainError('invalid', 'Enter a full address starting with https://', 'videoUrl')
  return db().transaction(async (tx) => {
    await lockedAnalysis(tx, analysisId)
    const finding = await ownFinding(tx, analysisId, input.findingId)
    const [{ drills, last } = { drills: 0, last: null }] = await tx.select({ drills: count(), last: max(findingDrills.position) }).from(findingDrills).where(eq(findingDrills.findingId, finding.id))
    if (drills >= LIMITS.drillsPerFinding) throw new DomainError('conflict', `A finding holds at most ${LIMITS.drillsPerFinding} drills.`, 'name')
    const [drill] = await tx
      .insert(findingDrills)
      .values({ findingId: finding.id, name: input.name, instructions: input.instructions, videoUrl: input.videoUrl, position: (last ?? -1) + 1 })
      .returning({ id: findingDrills.id })
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'drill.add', 'Added the drill “{drill}” to “{finding}”', now, { personal: { drill: input.name, finding: finding.title, instructions: input.instructions, videoUrl: input.videoUrl } })
    return drill!.id
  })
}

/** Changes a drill's name, how to do it, or its video. */
export async function changeDrill(actor: Actor, analysisId: number, drillId: number, input: { name: string; instructions: string; videoUrl: string | null }, now = new Date()) {
  if (input.videoUrl !== null && !/^https?:\/\//i.test(input.videoUrl)) throw new DomainError('invalid', 'Enter a full address starting with https://', 'videoUrl')
  return db().transaction(async (tx) => {
    await lockedAnalysis(tx, analysisId)
    const drill = await ownDrill(tx, analysisId, drillId)
    const values = { name: input.name, instructions: input.instructions, videoUrl: input.videoUrl }
    await tx.update(findingDrills).set(values).where(eq(findingDrills.id, drill.id))
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'drill.change', 'Changed the drill “{drill}”', now, { personal: { drill: input.name, instructions: input.instructions, videoUrl: input.videoUrl } })
  })
}

async function ownDrill(tx: Executor, analysisId: number, drillId: number) {
  const [drill] = await tx
    .select({ id: findingDrills.id, name: findingDrills.name, findingId: findingDrills.findingId })
    .from(findingDrills)
    .innerJoin(analysisFindings, eq(analysisFindings.id, findingDrills.findingId))
    .where(and(eq(findingDrills.id, drillId), eq(analysisFindings.analysisId, analysisId)))
  if (!drill) throw new DomainError('not_found', 'No such drill in this analysis.')
  return drill
}

export async function removeDrill(actor: Actor, analysisId: number, drillId: number, now = new Date()) {
  return db().transaction(async (tx) => {
    await lockedAnalysis(tx, analysisId)
    const drill = await ownDrill(tx, analysisId, drillId)
    await tx.delete(findingDrills).where(eq(findingDrills.id, drillId))
    await touched(tx, analysisId, now)
    await audit(tx, actor, analysisId, 'drill.remove', 'Removed the drill “{drill}”', now, { personal: { drill: drill.name } })
  })
}

/** Staff start the analysis of a confirmed booking (the draft it is recorded in); starting it again changes nothing. */
export async function startAnalysis(actor: Actor, bookingId: number, now = new Date()) {
  const existing = await analysisIdOfBooking(bookingId)
  if (existing) return existing
  const analysisId = await openAnalysis(bookingId, actor.id, now)
  const [booking] = await db().select({ reference: bookings.reference, swimmerId: bookings.swimmerId, swimmerName: bookings.swimmerName }).from(bookings).where(eq(bookings.id, bookingId))
  await recordAudit(
    db(),
    actor,
    {
      action: 'analysis.start',
      entityType: 'analysis',
      entityId: analysisId,
      summary: `Started the analysis of ${booking?.reference ?? `booking ${bookingId}`} ({swimmer})`,
      personal: { swimmer: booking?.swimmerName ?? 'swimmer unknown' },
      about: { bookingId, swimmerId: booking?.swimmerId },
    },
    now,
  )
  return analysisId
}

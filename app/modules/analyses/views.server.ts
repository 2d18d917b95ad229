import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { firstNameOf } from '~/lib/person-name'
import { analyses, analysisClips, analysisEvents, bookingDays, bookings, swimmers, type BetterWhen } from '~/db/schema'
import { ageOn } from '~/modules/swimmers/age'
import { daysAndVenues } from '~/modules/booking/bookings.server'
import { venuePlace } from '~/modules/booking/texts'
import { reportFile, reportsOf, type ReportSummary } from '~/modules/reports/reports.server'
import { bandKey, bandsOfEvents, type Band } from './bands.server'
import { eventsWithMetricsOf, findingsWithDrillsOf } from './contents.server'
import { angleLabel, chapterLabel, eventLabel, FINDING_PRIORITIES, isImprovement, priorityLabel } from './catalog'

// An analysis as the family (and a coach they share it with) sees it, a swimmer's figures over
// time, and two analyses side by side. Read only: who may see what is decided by the route, with
// access.server.ts, before anything here is asked.


export type MetricView = {
  key: string
  label: string
  unit: string
  betterWhen: BetterWhen
  value: number
  /** The same event's same figure in the swimmer's latest earlier published analysis that has it. */
  previous: number | null
  change: number | null
  /** Whether the change is for the better; null when there is nothing to compare or nothing changed. */
  better: boolean | null
  /** The reference levels for the swimmer's age at the session and gender, weakest first. */
  bands: Band[]
}

export type EventView = { id: number; stroke: string; distanceMetres: number; label: string; metrics: MetricView[] }

export type ChapterView = { kind: string; label: string; seconds: number }

export type ClipView = { id: number; title: string; angle: string; angleLabel: string; event: string | null; hasPoster: boolean; chapters: ChapterView[] }

export type FindingView = { id: number; title: string; whyItMatters: string; priority: string; priorityLabel: string; drills: Array<{ id: number; name: string; instructions: string; videoUrl: string | null }> }

export type AnalysisView = {
  id: number
  bookingId: number
  swimmer: { id: number; accountId: number; name: string; firstName: string } | null
  swimmerName: string
  /** The days of the booking's sessions, in order (YYYY-MM-DD, lab dates). */
  sessionDates: string[]
  /** Where it was recorded: the lab's session location, or a venue away and its city ("Balewadi Aquatics, Pune"). */
  place: string
  summary: string
  poolLengthMetres: number
  publishedAt: Date | null
  nextAnalysisOn: string | null
  events: EventView[]
  clips: ClipView[]
  findings: FindingView[]
  report: ReportSummary | undefined
}

/** Rounds away the noise of floating point: 31.2 − 30.9 is 0.3, not 0.29999999999999716. */
export const roundFigure = (value: number) => Math.round(value * 1000) / 1000

/** The analysis as the family sees it, or null if there is none with this id. */
export async function analysisView(analysisId: number): Promise<AnalysisView | null> {
  const [row] = await db()
    .select({
      id: analyses.id,
      bookingId: analyses.bookingId,
      swimmerId: analyses.swimmerId,
      summary: analyses.summary,
      poolLengthMetres: analyses.poolLengthMetres,
      publishedAt: analyses.publishedAt,
      nextAnalysisOn: analyses.nextAnalysisOn,
      swimmerName: bookings.swimmerName,
      swimmerAge: bookings.swimmerAge,
    })
    .from(analyses)
    .innerJoin(bookings, eq(bookings.id, analyses.bookingId))
    .where(eq(analyses.id, analysisId))
  if (!row) return null
  const [swimmer] = row.swimmerId ? await db().select().from(swimmers).where(eq(swimmers.id, row.swimmerId)) : []
  const [place, events, clips, findings, reports] = await Promise.all([
    daysAndVenues([row.bookingId]).then((found) => found.get(row.bookingId)),
    eventsWithMetrics([analysisId]),
    db().select().from(analysisClips).where(eq(analysisClips.analysisId, analysisId)).orderBy(asc(analysisClips.position), asc(analysisClips.id)),
    findingsOf(analysisId),
    reportsOf([row.bookingId]),
  ])
  const sessionDates = (place?.days ?? []).map((day) => day.date)
  const sessionDate = sessionDates[0] ?? null
  const history = swimmer && sessionDate ? (await swimmerHistory(swimmer.id)).filter((earlier) => earlier.id !== analysisId && isEarlier(earlier, { id: analysisId, sessionDate })) : []
  // A swimmer without a profile (a guest's child) is compared at the age given when booked.
  const age = swimmer && sessionDate ? ageOn(swimmer, sessionDate) : row.swimmerAge
  const bands = age !== null ? await bandsOfEvents(events, age, swimmer?.gender ?? null) : new Map<string, Band[]>()
  const eventLabels = new Map(events.map((event) => [event.id, event.label]))
  return {
    id: row.id,
    bookingId: row.bookingId,
    swimmer: swimmer ? { id: swimmer.id, accountId: swimmer.accountId, name: swimmer.name, firstName: firstNameOf(swimmer.name) } : null,
    swimmerName: swimmer?.name ?? row.swimmerName,
    sessionDates,
    place: place ? venuePlace(place.venue) : '',
    summary: row.summary,
    poolLengthMetres: row.poolLengthMetres,
    publishedAt: row.publishedAt,
    nextAnalysisOn: row.nextAnalysisOn,
    events: events.map((event) => ({
      ...event,
      metrics: event.metrics.map((metric) => {
        const previous = previousValue(history, event, metric.key)
        const change = previous === null ? null : roundFigure(metric.value - previous)
        return {
          ...metric,
          previous,
          change,
          better: previous === null || change === 0 ? null : isImprovement(metric.betterWhen, metric.value, previous),
          bands: bands.get(bandKey(event.stroke, event.distanceMetres, metric.key)) ?? [],
        }
      }),
    })),
    clips: clips.map((clip) => ({
      id: clip.id,
      title: clip.title,
      angle: clip.angle,
      angleLabel: angleLabel(clip.angle),
      event: clip.eventId ? (eventLabels.get(clip.eventId) ?? null) : null,
      hasPoster: Boolean(clip.posterKey),
      chapters: chaptersOf(clip.chapters),
    })),
    findings,
    report: reports.get(row.bookingId),
  }
}

/** A clip's chapter marks in time order, each with its label. */
export function chaptersOf(chapters: Array<{ kind: string; seconds: number }>): ChapterView[] {
  return [...chapters]
    .filter((chapter) => Number.isFinite(chapter.seconds) && chapter.seconds >= 0)
    .sort((a, b) => a.seconds - b.seconds)
    .map((chapter) => ({ kind: chapter.kind, label: chapterLabel(chapter.kind), seconds: chapter.seconds }))
}

type MetricRow = { key: string; label: string; unit: string; betterWhen: BetterWhen; value: number }
type EventRow = { id: number; analysisId: number; stroke: string; distanceMetres: number; label: string; metrics: MetricRow[] }

async function eventsWithMetrics(analysisIds: number[]): Promise<EventRow[]> {
  const events = await eventsWithMetricsOf(analysisIds)
  return events.map((event) => ({
    id: event.id,
    analysisId: event.analysisId,
    stroke: event.stroke,
    distanceMetres: event.distanceMetres,
    label: eventLabel(event),
    metrics: event.metrics.map((metric) => ({ key: metric.metricKey, label: metric.label, unit: metric.unit, betterWhen: metric.betterWhen, value: metric.value })),
  }))
}

const PRIORITY_ORDER = new Map<string, number>(FINDING_PRIORITIES.map((priority, index) => [priority.value, index]))

async function findingsOf(analysisId: number): Promise<FindingView[]> {
  const findings = await findingsWithDrillsOf(analysisId)
  // The most urgent first; within a priority, in the order staff put them.
  return [...findings]
    .sort((a, b) => (PRIORITY_ORDER.get(a.priority) ?? 99) - (PRIORITY_ORDER.get(b.priority) ?? 99))
    .map((finding) => ({
      id: finding.id,
      title: finding.title,
      whyItMatters: finding.whyItMatters,
      priority: finding.priority,
      priorityLabel: priorityLabel(finding.priority),
      drills: finding.drills.map((drill) => ({ id: drill.id, name: drill.name, instructions: drill.instructions, videoUrl: drill.videoUrl })),
    }))
}

/** The first session day of each booking, by booking id (the day an analysis is known by). */
async function firstSessionDays(bookingIds: number[]) {
  const days = await db()
    .select({ bookingId: bookingDays.bookingId, date: bookingDays.date })
    .from(bookingDays)
    .where(and(inArray(bookingDays.bookingId, bookingIds), eq(bookingDays.dayNumber, 1)))
  return new Map(days.map((day) => [day.bookingId, day.date]))
}

/** One published analysis of a swimmer, with the first day of its sessions and its figures. */
export type HistoryEntry = { id: number; sessionDate: string; publishedAt: Date; events: EventRow[] }

/**
 * The swimmer's published analyses, oldest first by the first day of their sessions (the order the
 * swimmer swam them in, whatever order staff published them in).
 */
export async function swimmerHistory(swimmerId: number): Promise<HistoryEntry[]> {
  const rows = await db()
    .select({ id: analyses.id, publishedAt: analyses.publishedAt, bookingId: analyses.bookingId })
    .from(analyses)
    .where(and(eq(analyses.swimmerId, swimmerId), isNotNull(analyses.publishedAt)))
  if (rows.length === 0) return []
  const [firstDay, events] = await Promise.all([
    firstSessionDays(rows.map((row) => row.bookingId)),
    eventsWithMetrics(rows.map((row) => row.id)),
  ])
  return rows
    .map((row) => ({ id: row.id, sessionDate: firstDay.get(row.bookingId) ?? '', publishedAt: row.publishedAt!, events: events.filter((event) => event.analysisId === row.id) }))
    .sort((a, b) => (a.sessionDate === b.sessionDate ? a.id - b.id : a.sessionDate < b.sessionDate ? -1 : 1))
}

function isEarlier(candidate: { id: number; sessionDate: string }, than: { id: number; sessionDate: string }) {
  return candidate.sessionDate < than.sessionDate || (candidate.sessionDate === than.sessionDate && candidate.id < than.id)
}

/** The figure in the latest of these (earlier) analyses that measured it for the same event. */
function previousValue(earlier: HistoryEntry[], event: { stroke: string; distanceMetres: number }, metricKey: string) {
  for (const analysis of [...earlier].reverse()) {
    const same = analysis.events.find((candidate) => candidate.stroke === event.stroke && candidate.distanceMetres === event.distanceMetres)
    const metric = same?.metrics.find((candidate) => candidate.key === metricKey)
    if (metric) return metric.value
  }
  return null
}


/**
 * Where a figure stands against the reference levels, in words: the levels it reaches and those it
 * does not yet ("Reaches State finalist (32 s). Not yet National finalist (29.5 s).").
 */
export function bandStanding(metric: { value: number; unit: string; betterWhen: BetterWhen; bands: Band[] }) {
  if (metric.bands.length === 0) return null
  const reaches = (band: Band) => metric.value === band.value || isImprovement(metric.betterWhen, metric.value, band.value)
  const reached = metric.bands.filter(reaches)
  const notYet = metric.bands.filter((band) => !reaches(band))
  const list = (bands: Band[]) => bands.map((band) => `${band.level} (${formatFigure(band.value, metric.unit)})`).join(', ')
  return [reached.length ? `Reaches ${list(reached)}.` : null, notYet.length ? `Not yet ${list(notYet)}.` : null].filter(Boolean).join(' ')
}

/** A figure with its unit: "31.2 s", "48 strokes/min", "42°". */
export function formatFigure(value: number, unit: string) {
  const number = roundFigure(value).toLocaleString('en-IN', { maximumFractionDigits: 3 })
  return unit === '°' ? `${number}°` : unit ? `${number} ${unit}` : number
}

/** How much a figure changed, without its sign ("0.3 s"): the pages say beside it whether that is better or worse. */
export function formatChange(change: number, unit: string) {
  return formatFigure(Math.abs(change), unit)
}

export type ProgressPoint = { analysisId: number; date: string; value: number; personalBest: boolean }
export type ProgressSeries = { eventKey: string; eventLabel: string; key: string; label: string; unit: string; betterWhen: BetterWhen; points: ProgressPoint[] }

/** The key of an event in a filter's address: "freestyle-50". */
export const eventKeyOf = (event: { stroke: string; distanceMetres: number }) => `${event.stroke}-${event.distanceMetres}`

/**
 * Every figure the swimmer has over time, one series per event and metric, oldest point first; the
 * personal best (the best value by the metric's direction, the first time it was reached) marked
 * once the figure has been measured twice.
 * `eventKey` narrows it to one event.
 */
export function progressSeries(history: HistoryEntry[], eventKey?: string | null) {
  const events = new Map<string, string>()
  const series = new Map<string, ProgressSeries>()
  for (const analysis of history) {
    for (const event of analysis.events) {
      const key = eventKeyOf(event)
      events.set(key, event.label)
      if (eventKey && key !== eventKey) continue
      for (const metric of event.metrics) {
        const id = `${key}|${metric.key}`
        let line = series.get(id)
        if (!line) series.set(id, (line = { eventKey: key, eventLabel: event.label, key: metric.key, label: metric.label, unit: metric.unit, betterWhen: metric.betterWhen, points: [] }))
        line.points.push({ analysisId: analysis.id, date: analysis.sessionDate, value: metric.value, personalBest: false })
      }
    }
  }
  for (const line of series.values()) {
    let best: ProgressPoint | null = null
    for (const point of line.points) if (!best || isImprovement(line.betterWhen, point.value, best.value)) best = point
    // One measurement beats nothing: a personal best needs two.
    if (best && line.points.length > 1) best.personalBest = true
  }
  return { events: [...events].map(([key, label]) => ({ key, label })), series: [...series.values()] }
}

export type CompareMetric = { key: string; label: string; unit: string; betterWhen: BetterWhen; before: number; after: number; change: number; better: boolean | null }
export type CompareClip = { id: number; title: string; hasPoster: boolean; seconds: number }

/**
 * Two of the swimmer's published analyses side by side, the earlier first whatever order they were
 * asked in: every figure of the events both have, with the change from the earlier to the later,
 * and, for each chapter kind clips of both have ("Turn"), the first such clip of each at that mark.
 * Null when either is not one of the swimmer's published analyses.
 */
export async function compareAnalyses(swimmerId: number, firstId: number, secondId: number) {
  return compareInHistory(await swimmerHistory(swimmerId), firstId, secondId)
}

/** `compareAnalyses` on a swimmer's history already read. */
export async function compareInHistory(history: HistoryEntry[], firstId: number, secondId: number) {
  if (firstId === secondId) return null
  const first = history.find((entry) => entry.id === firstId)
  const second = history.find((entry) => entry.id === secondId)
  if (!first || !second) return null
  const [before, after] = isEarlier(first, second) ? [first, second] : [second, first]
  const events = before.events.flatMap((earlier) => {
    const later = after.events.find((event) => event.stroke === earlier.stroke && event.distanceMetres === earlier.distanceMetres)
    if (!later) return []
    const metrics: CompareMetric[] = earlier.metrics.flatMap((metric) => {
      const then = later.metrics.find((candidate) => candidate.key === metric.key)
      if (!then) return []
      const change = roundFigure(then.value - metric.value)
      return [{ key: metric.key, label: metric.label, unit: metric.unit, betterWhen: metric.betterWhen, before: metric.value, after: then.value, change, better: change === 0 ? null : isImprovement(metric.betterWhen, then.value, metric.value) }]
    })
    return [{ key: eventKeyOf(earlier), label: earlier.label, metrics }]
  })
  const clips = await db()
    .select({ id: analysisClips.id, analysisId: analysisClips.analysisId, title: analysisClips.title, posterKey: analysisClips.posterKey, chapters: analysisClips.chapters })
    .from(analysisClips)
    .where(inArray(analysisClips.analysisId, [before.id, after.id]))
    .orderBy(asc(analysisClips.position), asc(analysisClips.id))
  const firstAt = (analysisId: number, kind: string): CompareClip | null => {
    for (const clip of clips.filter((candidate) => candidate.analysisId === analysisId)) {
      const chapter = chaptersOf(clip.chapters).find((candidate) => candidate.kind === kind)
      if (chapter) return { id: clip.id, title: clip.title, hasPoster: Boolean(clip.posterKey), seconds: chapter.seconds }
    }
    return null
  }
  const kinds = [...new Set(clips.flatMap((clip) => chaptersOf(clip.chapters).map((chapter) => chapter.kind)))]
  const chapters = kinds.flatMap((kind) => {
    const earlier = firstAt(before.id, kind)
    const later = firstAt(after.id, kind)
    return earlier && later ? [{ kind, label: chapterLabel(kind), before: earlier, after: later }] : []
  })
  return { before: { id: before.id, sessionDate: before.sessionDate }, after: { id: after.id, sessionDate: after.sessionDate }, events, chapters }
}

/**
 * The account's published analyses, per swimmer (by name), newest
 * first. An analysis of a booking made without a swimmer profile is listed under the booked name,
 * and so is one of a booking made as a guest with the account's e-mail address (`email`, lower case).
 */
export async function accountAnalyses(accountId: number, email?: string) {
  const rows = await db()
    .select({ id: analyses.id, bookingId: analyses.bookingId, swimmerId: analyses.swimmerId, swimmerName: bookings.swimmerName, publishedAt: analyses.publishedAt, summary: analyses.summary, profileName: swimmers.name, profileAccount: swimmers.accountId })
    .from(analyses)
    .innerJoin(bookings, eq(bookings.id, analyses.bookingId))
    .leftJoin(swimmers, eq(swimmers.id, analyses.swimmerId))
    .where(and(isNotNull(analyses.publishedAt), or(eq(swimmers.accountId, accountId), eq(bookings.userId, accountId), email ? and(isNull(bookings.userId), sql`lower(${bookings.customerEmail}) = ${email}`) : undefined)))
  if (rows.length === 0) return []
  const [places, events] = await Promise.all([
    daysAndVenues(rows.map((row) => row.bookingId)),
    db()
      .select({ analysisId: analysisEvents.analysisId, stroke: analysisEvents.stroke, distanceMetres: analysisEvents.distanceMetres })
      .from(analysisEvents)
      .where(
        inArray(
          analysisEvents.analysisId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(analysisEvents.position), asc(analysisEvents.id)),
  ])
  const groups = new Map<string, { swimmerId: number | null; name: string; analyses: Array<{ id: number; sessionDate: string; place: string; events: string[] }> }>()
  for (const row of rows) {
    // Only the account's own profiles get a progress page; another account's profile is shown by the booked name.
    const own = row.swimmerId !== null && row.profileAccount === accountId
    const key = own ? `s${row.swimmerId}` : `n${row.swimmerName}`
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { swimmerId: own ? row.swimmerId : null, name: own ? row.profileName! : row.swimmerName, analyses: [] }))
    const place = places.get(row.bookingId)
    group.analyses.push({ id: row.id, sessionDate: place?.days[0]?.date ?? '', place: place ? venuePlace(place.venue) : '', events: events.filter((event) => event.analysisId === row.id).map(eventLabel) })
  }
  for (const group of groups.values()) group.analyses.sort((a, b) => (a.sessionDate === b.sessionDate ? b.id - a.id : a.sessionDate < b.sessionDate ? 1 : -1))
  return [...groups.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** The swimmer's name and first name, for a page about them. */
export async function swimmerHeading(swimmerId: number) {
  const [row] = await db().select({ id: swimmers.id, name: swimmers.name, accountId: swimmers.accountId }).from(swimmers).where(eq(swimmers.id, swimmerId))
  return row ? { ...row, firstName: firstNameOf(row.name) } : null
}

/** A clip's analysis and chapter marks in time order, for its chapter track. */
export async function clipChapters(clipId: number) {
  const [clip] = await db().select({ analysisId: analysisClips.analysisId, chapters: analysisClips.chapters }).from(analysisClips).where(eq(analysisClips.id, clipId))
  return clip ? { analysisId: clip.analysisId, chapters: chaptersOf(clip.chapters), durationSeconds: null } : null
}

/** A report file of the analysed booking, with its bytes; null when the file is another booking's. */
export async function analysisReportFile(analysisId: number, fileId: number) {
  const [analysis] = await db().select({ bookingId: analyses.bookingId }).from(analyses).where(eq(analyses.id, analysisId))
  const file = analysis ? await reportFile(fileId) : null
  return file && file.bookingId === analysis!.bookingId ? file : null
}

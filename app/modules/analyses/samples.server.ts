import { and, desc, eq, ne } from 'drizzle-orm'
import { lockKeys } from '~/db/advisory-locks.server'
import { db, type Executor } from '~/db/client.server'
import { cachedContent } from '~/db/content-cache.server'
import { analyses, bookings, sampleAnalyses, swimmers, type SampleEvent, type SampleFinding } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { ageOn } from '~/modules/swimmers/age'
import { lockedAnalysis } from './editing.server'
import { analysisView, type AnalysisView } from './views.server'

// The public sample of a results page ("see what you get"). A sample is a copy with its own id,
// made from a family's published analysis with their written agreement, or from the lab's own
// recording; it never points back at the analysis it came from, so the family's page, their edits
// and their erasure stay theirs. What the copy holds is what the results page shows, minus anything
// that identifies the family: no name, date of birth, session dates, booking, clips or report.

export type SampleSource = 'family_shared' | 'lab_recorded'

/** Every change to the samples takes this lock first, so two publications never race for the one published place. */
const SAMPLES_LOCK = 'sample-analyses'

/** Who swam, and the names of the family the free texts must not mention. */
async function familyOf(analysisId: number, view: AnalysisView) {
  const [row] = await db()
    .select({ swimmerName: bookings.swimmerName, customerName: bookings.customerName, swimmerAge: bookings.swimmerAge, profile: swimmers })
    .from(analyses)
    .innerJoin(bookings, eq(bookings.id, analyses.bookingId))
    .leftJoin(swimmers, eq(swimmers.id, analyses.swimmerId))
    .where(eq(analyses.id, analysisId))
  if (!row) throw new DomainError('not_found', 'No such analysis.')
  const sessionDate = view.sessionDates[0]
  const age = row.profile && sessionDate ? ageOn(row.profile, sessionDate) : row.swimmerAge
  return {
    age,
    competitive: row.profile?.participateInEvents === true,
    names: [row.swimmerName, row.customerName, row.profile?.name ?? ''],
  }
}

/** "Sample swimmer, 13, competitive": the age at the session and whether they race, nothing more. */
export function sampleSwimmerDescription({ age, competitive }: { age: number | null; competitive: boolean }) {
  return ['Sample swimmer', age === null ? null : String(age), competitive ? 'competitive' : null].filter(Boolean).join(', ')
}

/** The results page's figures and findings, frozen: values, reference levels and texts as they are now, without ids. */
function frozenContents(view: AnalysisView): { events: SampleEvent[]; findings: SampleFinding[] } {
  return {
    events: view.events.map((event) => ({
      stroke: event.stroke,
      distanceMetres: event.distanceMetres,
      label: event.label,
      metrics: event.metrics.map((metric) => ({
        key: metric.key,
        label: metric.label,
        unit: metric.unit,
        betterWhen: metric.betterWhen,
        value: metric.value,
        previous: metric.previous,
        change: metric.change,
        better: metric.better,
        bands: metric.bands.map((band) => ({ level: band.level, value: band.value })),
      })),
    })),
    findings: view.findings.map((finding) => ({
      title: finding.title,
      whyItMatters: finding.whyItMatters,
      priority: finding.priority,
      drills: finding.drills.map((drill) => ({ name: drill.name, instructions: drill.instructions, videoUrl: drill.videoUrl })),
    })),
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Where the free texts name someone of the family (any part of a name of three letters or more, as
 * a whole word): "the summary", "the finding “Early breathing”". Staff check these before publishing.
 */
export function placesNaming(names: string[], contents: { summary: string; findings: SampleFinding[] }) {
  const parts = [...new Set(names.flatMap((name) => name.trim().split(/\s+/)).filter((part) => part.length >= 3))]
  if (parts.length === 0) return []
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${parts.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'iu')
  const places = pattern.test(contents.summary) ? ['the summary'] : []
  for (const finding of contents.findings) {
    const texts = [finding.title, finding.whyItMatters, ...finding.drills.flatMap((drill) => [drill.name, drill.instructions])]
    if (texts.some((text) => pattern.test(text))) places.push(`the finding “${finding.title}”`)
  }
  return places
}

/**
 * Copies a published analysis as a new draft sample, in one transaction, and returns its id and
 * the places its texts still name the family (`placesNaming`). A family's analysis is copied only
 * with the staff's record that the family agreed in writing (`agreementNote`: how and when);
 * `lab_recorded` is for the lab's own recordings. Refused when the analysis changed while it was
 * read, so the copy is one state of it.
 */
export async function copyAsSample(actor: Actor, analysisId: number, { source, agreementNote }: { source: SampleSource; agreementNote: string }, now = new Date()) {
  const note = agreementNote.trim()
  if (source === 'family_shared' && !note) throw new DomainError('invalid', 'Write how and when the family agreed.', 'agreementNote')
  const [before] = await db().select({ updatedAt: analyses.updatedAt, publishedAt: analyses.publishedAt }).from(analyses).where(eq(analyses.id, analysisId))
  if (!before) throw new DomainError('not_found', 'No such analysis.')
  if (!before.publishedAt) throw new DomainError('conflict', 'Only a published analysis can be copied as a sample.')
  const view = await analysisView(analysisId)
  if (!view) throw new DomainError('not_found', 'No such analysis.')
  const family = await familyOf(analysisId, view)
  const contents = frozenContents(view)
  const sampleId = await db().transaction(async (tx) => {
    const analysis = await lockedAnalysis(tx, analysisId)
    if (analysis.updatedAt.getTime() !== before.updatedAt.getTime() || !analysis.publishedAt) throw new DomainError('conflict', 'The analysis changed while it was being copied: copy it again.')
    await lockKeys(tx, [SAMPLES_LOCK])
    const [created] = await tx
      .insert(sampleAnalyses)
      .values({ source, swimmerDescription: sampleSwimmerDescription(family), summary: view.summary, poolLengthMetres: view.poolLengthMetres, ...contents, agreementNote: note, createdBy: actor.id, createdByEmail: actor.email, createdAt: now, updatedAt: now })
      .returning({ id: sampleAnalyses.id })
    const agreed = source === 'family_shared' ? ', the family’s written agreement recorded' : ' (the lab’s own recording)'
    await recordAudit(tx, actor, { action: 'sample_analysis.copy', entityType: 'sample_analysis', entityId: created!.id, summary: `Copied the analysis of booking #${analysis.bookingId} as sample analysis #${created!.id}${agreed}`, about: { bookingId: analysis.bookingId, swimmerId: analysis.swimmerId } }, now)
    return created!.id
  })
  return { sampleId, namedIn: placesNaming(family.names, { summary: view.summary, findings: contents.findings }) }
}

/** Every sample, newest first, for the staff's page. */
export async function samplesForStaff() {
  return db().select().from(sampleAnalyses).orderBy(desc(sampleAnalyses.createdAt), desc(sampleAnalyses.id))
}

export type PublishedSample = Pick<typeof sampleAnalyses.$inferSelect, 'source' | 'swimmerDescription' | 'summary' | 'poolLengthMetres' | 'events' | 'findings'>

/** The published sample as the public page shows it, or null while none is published. */
export function publishedSample(): Promise<PublishedSample | null> {
  return cachedContent('sample-analysis', async () => {
    const [row] = await db()
      .select({ source: sampleAnalyses.source, swimmerDescription: sampleAnalyses.swimmerDescription, summary: sampleAnalyses.summary, poolLengthMetres: sampleAnalyses.poolLengthMetres, events: sampleAnalyses.events, findings: sampleAnalyses.findings })
      .from(sampleAnalyses)
      .where(eq(sampleAnalyses.status, 'published'))
    return row ?? null
  })
}

/** Whether a sample is published: the public pages link to it only then. */
export async function hasPublishedSample() {
  return (await publishedSample()) !== null
}

/** The sample, locked for a change (and every other change to the samples waits behind it). */
async function lockedSample(tx: Executor, sampleId: number) {
  await lockKeys(tx, [SAMPLES_LOCK])
  const [sample] = await tx.select().from(sampleAnalyses).where(eq(sampleAnalyses.id, sampleId)).for('update')
  if (!sample) throw new DomainError('not_found', 'No such sample analysis.')
  return sample
}

/** Publishes the sample, withdrawing the one published before it. Returns false when it already was published. */
export async function publishSample(actor: Actor, sampleId: number, now = new Date()) {
  return db().transaction(async (tx) => {
    const sample = await lockedSample(tx, sampleId)
    if (sample.status === 'published') return false
    const replaced = await tx
      .update(sampleAnalyses)
      .set({ status: 'withdrawn', updatedAt: now })
      .where(and(eq(sampleAnalyses.status, 'published'), ne(sampleAnalyses.id, sampleId)))
      .returning({ id: sampleAnalyses.id })
    for (const { id } of replaced) await recordAudit(tx, actor, { action: 'sample_analysis.withdraw', entityType: 'sample_analysis', entityId: id, summary: `Withdrew sample analysis #${id}, replaced by #${sampleId}` }, now)
    await tx.update(sampleAnalyses).set({ status: 'published', publishedAt: now, updatedAt: now }).where(eq(sampleAnalyses.id, sampleId))
    await recordAudit(tx, actor, { action: 'sample_analysis.publish', entityType: 'sample_analysis', entityId: sampleId, summary: `Published sample analysis #${sampleId} on the public page` }, now)
    return true
  })
}

/** Takes the sample off the public page. Returns false when it was not published. */
export async function withdrawSample(actor: Actor, sampleId: number, now = new Date()) {
  return db().transaction(async (tx) => {
    const sample = await lockedSample(tx, sampleId)
    if (sample.status !== 'published') return false
    await tx.update(sampleAnalyses).set({ status: 'withdrawn', updatedAt: now }).where(eq(sampleAnalyses.id, sampleId))
    await recordAudit(tx, actor, { action: 'sample_analysis.withdraw', entityType: 'sample_analysis', entityId: sampleId, summary: `Withdrew sample analysis #${sampleId} from the public page` }, now)
    return true
  })
}

/** Deletes the sample (off the public page first, if it was on it). */
export async function deleteSample(actor: Actor, sampleId: number, now = new Date()) {
  await db().transaction(async (tx) => {
    const sample = await lockedSample(tx, sampleId)
    await tx.delete(sampleAnalyses).where(eq(sampleAnalyses.id, sampleId))
    await recordAudit(tx, actor, { action: 'sample_analysis.delete', entityType: 'sample_analysis', entityId: sampleId, summary: `Deleted sample analysis #${sampleId}${sample.status === 'published' ? ', which was on the public page' : ''}` }, now)
  })
}

/** Changes the sample's own texts: who swam, in words, and the summary. */
export async function setSampleDetails(sampleId: number, { swimmerDescription, summary }: { swimmerDescription: string; summary: string }, now = new Date()) {
  await db().transaction(async (tx) => {
    await lockedSample(tx, sampleId)
    await tx.update(sampleAnalyses).set({ swimmerDescription, summary, updatedAt: now }).where(eq(sampleAnalyses.id, sampleId))
  })
}

/** The sample's findings changed by `change` (given a copy to change), in one transaction. */
async function changeFindings(sampleId: number, change: (findings: SampleFinding[]) => void, now: Date) {
  await db().transaction(async (tx) => {
    const sample = await lockedSample(tx, sampleId)
    const findings = structuredClone(sample.findings)
    change(findings)
    await tx.update(sampleAnalyses).set({ findings, updatedAt: now }).where(eq(sampleAnalyses.id, sampleId))
  })
}

function findingAt(findings: SampleFinding[], index: number) {
  const finding = findings[index]
  if (!finding) throw new DomainError('not_found', 'No such finding in this sample.')
  return finding
}

/** Changes a finding's title and why it matters (`index` in the sample's order). */
export async function setSampleFinding(sampleId: number, index: number, { title, whyItMatters }: { title: string; whyItMatters: string }, now = new Date()) {
  await changeFindings(sampleId, (findings) => Object.assign(findingAt(findings, index), { title, whyItMatters }), now)
}

/** Changes a drill's name and instructions. */
export async function setSampleDrill(sampleId: number, findingIndex: number, drillIndex: number, { name, instructions }: { name: string; instructions: string }, now = new Date()) {
  await changeFindings(
    sampleId,
    (findings) => {
      const drill = findingAt(findings, findingIndex).drills[drillIndex]
      if (!drill) throw new DomainError('not_found', 'No such drill in this sample.')
      Object.assign(drill, { name, instructions })
    },
    now,
  )
}

/** Leaves a finding (and its drills) out of the sample: one that cannot be told without the family. */
export async function removeSampleFinding(sampleId: number, index: number, now = new Date()) {
  await changeFindings(
    sampleId,
    (findings) => {
      findingAt(findings, index)
      findings.splice(index, 1)
    },
    now,
  )
}

import { asc, eq, like } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { analyses, auditLog, sampleAnalyses, swimmers } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { eraseAccount } from '~/modules/privacy/erasure.server'
import { createStaff } from '../../../tests/support/booking'
import { accountWithSwimmer, analysedSession, clipOf, findingOf } from '../../../tests/support/family-analyses'
import { useTestDatabase } from '../../../tests/support/test-database'
import { addBand } from './bands.server'
import { saveFinding, setDetails } from './editing.server'
import { copyAsSample, deleteSample, hasPublishedSample, placesNaming, publishedSample, publishSample, removeSampleFinding, sampleSwimmerDescription, setSampleDetails, setSampleDrill, setSampleFinding, withdrawSample } from './samples.server'
import { CopySampleSchema } from './sample-schemas'

useTestDatabase()

let actor: { id: number; email: string }
beforeEach(async () => {
  actor = await createStaff()
})

const AGREED = { source: 'family_shared' as const, agreementNote: 'By e-mail on 3 May 2026, kept in the bookings mailbox' }

/** Priya Raman's published analysis (14, racing): a 50 m freestyle against one reference level, and a finding with a drill. */
async function familyAnalysis({ summary = 'A strong start; the turns cost time.' } = {}) {
  const owner = await accountWithSwimmer(db(), { name: 'Priya Raman', email: `priya${Date.now() % 100000}@example.com`, age: 14 })
  await db().update(swimmers).set({ participateInEvents: true }).where(eq(swimmers.id, owner.swimmerId))
  await addBand(actor, { stroke: 'freestyle', distance: 50, metric: 'final_time', ageMin: 13, ageMax: 15, gender: 'any', level: 'State finalist', value: 30.5 })
  const analysis = await analysedSession(db(), owner, '2026-03-10', { metrics: { final_time: 31.2 }, publishedAt: new Date('2026-03-12T06:00:00Z'), summary })
  await findingOf(db(), analysis.analysisId, 'Early breathing on the turn', 'Catch-up freestyle')
  return { owner, ...analysis }
}

const sampleRow = async (id: number) => (await db().select().from(sampleAnalyses).where(eq(sampleAnalyses.id, id)))[0]

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(DomainError)
  return error as DomainError
}

describe('copying an analysis as a sample', () => {
  it('freezes what the results page shows, with the reference levels, and nothing that identifies the family', async () => {
    const { analysisId, bookingId, reference } = await familyAnalysis()
    await clipOf(db(), analysisId, 'Underwater start', [{ kind: 'start', seconds: 1 }])
    const { sampleId, namedIn } = await copyAsSample(actor, analysisId, AGREED)
    expect(namedIn).toEqual([])
    const sample = await sampleRow(sampleId)
    expect(sample).toMatchObject({
      status: 'draft',
      source: 'family_shared',
      swimmerDescription: 'Sample swimmer, 14, competitive',
      summary: 'A strong start; the turns cost time.',
      poolLengthMetres: 25,
      agreementNote: AGREED.agreementNote,
      createdBy: actor.id,
      createdByEmail: actor.email,
      publishedAt: null,
    })
    expect(sample!.events).toEqual([
      {
        stroke: 'freestyle',
        distanceMetres: 50,
        label: '50 m freestyle',
        metrics: [{ key: 'final_time', label: expect.any(String), unit: 's', betterWhen: 'lower', value: 31.2, previous: null, change: null, better: null, bands: [{ level: 'State finalist', value: 30.5 }] }],
      },
    ])
    expect(sample!.findings).toEqual([{ title: 'Early breathing on the turn', whyItMatters: 'It costs time at every stroke.', priority: 'high', drills: [{ name: 'Catch-up freestyle', instructions: 'Four lengths, easy.', videoUrl: null }] }])
    // No name, booking, analysis id, date or clip anywhere in the row.
    const stored = JSON.stringify(sample)
    for (const identifying of ['Priya', 'Raman', reference, '2026-03-10', 'Underwater start', 'test-clip']) expect(stored).not.toContain(identifying)
    expect(Object.keys(sample!)).not.toContain('analysisId')
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'sample_analysis.copy'))
    expect(entry).toMatchObject({ entityId: String(sampleId), actorId: actor.id, bookingId })
  })

  it('needs the family’s recorded agreement for a family’s analysis, and only copies a published one', async () => {
    const { analysisId } = await familyAnalysis()
    const refused = await refusal(copyAsSample(actor, analysisId, { source: 'family_shared', agreementNote: '   ' }))
    expect(refused).toMatchObject({ kind: 'invalid', field: 'agreementNote' })
    expect(CopySampleSchema.safeParse({ source: 'family_shared', agreementNote: 'By e-mail' }).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['agreed'])
    expect(CopySampleSchema.safeParse({ source: 'family_shared', agreed: 'on' }).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['agreementNote'])
    expect(CopySampleSchema.safeParse({ source: 'family_shared', agreed: 'on', agreementNote: 'By e-mail on 3 May' }).success).toBe(true)
    // The lab's own recording needs no family's agreement.
    expect(CopySampleSchema.safeParse({ source: 'lab_recorded' }).success).toBe(true)
    await db().update(analyses).set({ publishedAt: null }).where(eq(analyses.id, analysisId))
    expect(await refusal(copyAsSample(actor, analysisId, AGREED))).toMatchObject({ kind: 'conflict' })
    expect(await db().select().from(sampleAnalyses)).toEqual([])
  })

  it('tells staff where the copied texts still name the family', async () => {
    const { analysisId } = await familyAnalysis({ summary: 'Priya started well.' })
    await saveFinding(actor, analysisId, { title: 'Kick', whyItMatters: 'Ms Raman asked about it.', priority: 'low' })
    const { sampleId, namedIn } = await copyAsSample(actor, analysisId, AGREED)
    expect(namedIn).toEqual(['the summary', 'the finding “Kick”'])
    // Copied as written, for staff to change before publishing.
    expect((await sampleRow(sampleId))!.summary).toBe('Priya started well.')
    expect(placesNaming(['Al Li'], { summary: 'Alignment improved', findings: [] })).toEqual([])
  })

  it('is independent: editing, erasing the swimmer or the account leaves the sample whole, with no name of theirs', async () => {
    const { owner, analysisId } = await familyAnalysis()
    const { sampleId } = await copyAsSample(actor, analysisId, AGREED)
    const copied = await sampleRow(sampleId)
    await setDetails(actor, analysisId, { poolLength: 50, summary: 'Priya Raman, changed afterwards.' })
    await saveFinding(actor, analysisId, { title: 'Another finding', whyItMatters: '', priority: 'low' })
    expect(await sampleRow(sampleId)).toEqual(copied)
    await eraseAccount(owner.userId, { reason: 'The account holder deleted the account.' })
    expect(await db().select().from(analyses).where(eq(analyses.id, analysisId))).toEqual([])
    expect(await sampleRow(sampleId)).toEqual(copied)
    expect(JSON.stringify(await sampleRow(sampleId))).not.toMatch(/Priya|Raman/)
  })

  it('describes the swimmer by age and racing only', () => {
    expect(sampleSwimmerDescription({ age: 13, competitive: true })).toBe('Sample swimmer, 13, competitive')
    expect(sampleSwimmerDescription({ age: null, competitive: false })).toBe('Sample swimmer')
  })
})

describe('publishing a sample', () => {
  it('shows one sample at a time, audited; withdrawing takes it off the page', async () => {
    const { analysisId } = await familyAnalysis()
    const first = (await copyAsSample(actor, analysisId, AGREED)).sampleId
    const second = (await copyAsSample(actor, analysisId, { source: 'lab_recorded', agreementNote: '' })).sampleId
    expect(await publishedSample()).toBeNull()
    expect(await hasPublishedSample()).toBe(false)

    expect(await publishSample(actor, first)).toBe(true)
    expect(await publishSample(actor, first)).toBe(false)
    expect(await publishedSample()).toMatchObject({ source: 'family_shared', swimmerDescription: 'Sample swimmer, 14, competitive' })
    expect(await publishSample(actor, second)).toBe(true)
    expect((await sampleRow(first))!.status).toBe('withdrawn')
    expect(await db().select({ id: sampleAnalyses.id }).from(sampleAnalyses).where(eq(sampleAnalyses.status, 'published'))).toEqual([{ id: second }])
    expect(await publishedSample()).toMatchObject({ source: 'lab_recorded' })
    // The database keeps it to one, whatever writes to it.
    await expect(db().update(sampleAnalyses).set({ status: 'published' }).where(eq(sampleAnalyses.id, first))).rejects.toThrow()

    expect(await withdrawSample(actor, second)).toBe(true)
    expect(await withdrawSample(actor, second)).toBe(false)
    expect(await hasPublishedSample()).toBe(false)
    const entries = await db().select({ action: auditLog.action, entityId: auditLog.entityId }).from(auditLog).where(like(auditLog.action, 'sample_analysis.%')).orderBy(asc(auditLog.id))
    expect(entries.map((entry) => `${entry.action} ${entry.entityId === String(first) ? 'first' : 'second'}`)).toEqual([
      'sample_analysis.copy first',
      'sample_analysis.copy second',
      'sample_analysis.publish first',
      'sample_analysis.withdraw first',
      'sample_analysis.publish second',
      'sample_analysis.withdraw second',
    ])
  })

  it('lets staff change the swimmer’s description, the summary, findings and drills, and delete the sample', async () => {
    const { analysisId } = await familyAnalysis()
    const { sampleId } = await copyAsSample(actor, analysisId, AGREED)
    await setSampleDetails(sampleId, { swimmerDescription: 'Sample swimmer, 14', summary: 'The turns cost time.' })
    await setSampleFinding(sampleId, 0, { title: 'Breathing early into the wall', whyItMatters: 'Slows every turn.' })
    await setSampleDrill(sampleId, 0, 0, { name: 'Catch-up', instructions: 'Two lengths.' })
    expect(await sampleRow(sampleId)).toMatchObject({
      swimmerDescription: 'Sample swimmer, 14',
      summary: 'The turns cost time.',
      findings: [{ title: 'Breathing early into the wall', whyItMatters: 'Slows every turn.', priority: 'high', drills: [{ name: 'Catch-up', instructions: 'Two lengths.', videoUrl: null }] }],
    })
    expect(await refusal(setSampleDrill(sampleId, 0, 1, { name: 'x', instructions: '' }))).toMatchObject({ kind: 'not_found' })
    expect(await refusal(setSampleFinding(sampleId, 1, { title: 'x', whyItMatters: '' }))).toMatchObject({ kind: 'not_found' })
    await removeSampleFinding(sampleId, 0)
    expect((await sampleRow(sampleId))!.findings).toEqual([])
    await publishSample(actor, sampleId)
    await deleteSample(actor, sampleId)
    expect(await sampleRow(sampleId)).toBeUndefined()
    expect(await publishedSample()).toBeNull()
    const [entry] = await db().select({ summary: auditLog.summary }).from(auditLog).where(eq(auditLog.action, 'sample_analysis.delete'))
    expect(entry!.summary).toContain('which was on the public page')
  })
})

import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { analyses, analysisClips, analysisEvents, bookings, analysisFindings, analysisMetrics, findingDrills, referenceBands, swimmers } from '~/db/schema'
import { confirmedBookings, recordedAnalysis } from '../../../tests/support/analyses'
import { createCustomers } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { chaptersVtt } from './chapters-vtt'
import { accountAnalyses, analysisView, bandStanding, compareAnalyses, formatChange, progressSeries, swimmerHistory } from './views.server'

useTestDatabase()

/** Three analyses of one swimmer (26, female), three months apart; the middle one never published. */
async function threeAnalyses() {
  const { customer, bookings } = await confirmedBookings(['2030-03-04', '2030-06-03', '2030-09-02'])
  // Published in another order than swum: the order of the sessions is what counts.
  const third = await recordedAnalysis(bookings[2]!.bookingId, { metrics: { final_time: 30.9, stroke_rate: 47 }, publishedAt: new Date('2030-09-10T06:00:00Z') })
  const first = await recordedAnalysis(bookings[0]!.bookingId, { metrics: { final_time: 31.2, stroke_rate: 48 }, publishedAt: new Date('2030-09-11T06:00:00Z') })
  const draft = await recordedAnalysis(bookings[1]!.bookingId, { metrics: { final_time: 29.0, stroke_rate: 55 }, publishedAt: null })
  return { customer, first, draft, third }
}

describe('an analysis as the family sees it', () => {
  it('shows each figure with the same figure of the latest earlier published analysis, the change, and whether it is better', async () => {
    const { first, third } = await threeAnalyses()
    const view = await analysisView(third.analysisId)
    const metrics = Object.fromEntries(view!.events[0]!.metrics.map((metric) => [metric.key, metric]))
    // The draft's 29.0 is not "previous": only published analyses count.
    expect(metrics.final_time).toMatchObject({ value: 30.9, previous: 31.2, change: -0.3, better: true })
    expect(metrics.stroke_rate).toMatchObject({ value: 47, previous: 48, change: -1, better: false })
    expect(formatChange(metrics.final_time!.change!, 's')).toBe('0.3 s')
    const earliest = await analysisView(first.analysisId)
    expect(earliest!.events[0]!.metrics.map((metric) => [metric.previous, metric.change, metric.better])).toEqual([
      [null, null, null],
      [null, null, null],
    ])
    expect(view!.sessionDates).toEqual(['2030-09-02', '2030-09-03', '2030-09-04'])
  })

  it('takes the previous figure from the same event only, and skips an earlier analysis without that figure', async () => {
    const { customer, bookings } = await confirmedBookings(['2030-03-04', '2030-06-03', '2030-09-02'])
    await recordedAnalysis(bookings[0]!.bookingId, { metrics: { final_time: 33 } })
    await recordedAnalysis(bookings[1]!.bookingId, { stroke: 'backstroke', metrics: { final_time: 36 } })
    const latest = await recordedAnalysis(bookings[2]!.bookingId, { metrics: { final_time: 32.5, stroke_rate: 50 } })
    const view = await analysisView(latest.analysisId)
    expect(view!.events[0]!.metrics.map((metric) => [metric.key, metric.previous])).toEqual([
      ['final_time', 33],
      ['stroke_rate', null],
    ])
    expect(view!.swimmer!.accountId).toBe(customer.userId)
  })

  it('shows the reference levels for the swimmer’s age at the session and gender, a gender’s own level over the same level for any', async () => {
    const { third } = await threeAnalyses()
    const band = { stroke: 'freestyle', distanceMetres: 50, metricKey: 'final_time' }
    await db()
      .insert(referenceBands)
      .values([
        { ...band, ageMin: 20, ageMax: 30, gender: 'any', level: 'State finalist', value: 32 },
        { ...band, ageMin: 20, ageMax: 30, gender: 'female', level: 'State finalist', value: 31.5 },
        { ...band, ageMin: 20, ageMax: 30, gender: 'any', level: 'National finalist', value: 29.5 },
        { ...band, ageMin: 20, ageMax: 30, gender: 'male', level: 'Male only', value: 28 },
        { ...band, ageMin: 10, ageMax: 19, gender: 'any', level: 'Junior', value: 35 },
        { ...band, distanceMetres: 100, ageMin: 20, ageMax: 30, gender: 'any', level: 'Other distance', value: 60 },
      ])
    const view = await analysisView(third.analysisId)
    const finalTime = view!.events[0]!.metrics.find((metric) => metric.key === 'final_time')!
    // Weakest first: the slowest time.
    expect(finalTime.bands).toEqual([
      { level: 'State finalist', value: 31.5 },
      { level: 'National finalist', value: 29.5 },
    ])
    expect(bandStanding(finalTime)).toBe('Reaches State finalist (31.5 s). Not yet National finalist (29.5 s).')
    expect(view!.events[0]!.metrics.find((metric) => metric.key === 'stroke_rate')!.bands).toEqual([])
  })

  it("names a swimmer without a profile (a guest's child) as booked, and shows the levels for any gender at the age given when booked", async () => {
    const { bookings: [booking] } = await confirmedBookings(['2030-03-04'])
    await db().update(bookings).set({ userId: null, swimmerId: null, swimmerName: 'Kavya Kumar', swimmerAge: 12 }).where(eq(bookings.id, booking!.bookingId))
    const { analysisId } = await recordedAnalysis(booking!.bookingId, { metrics: { final_time: 34 } })
    await db().update(analyses).set({ swimmerId: null }).where(eq(analyses.id, analysisId))
    const band = { stroke: 'freestyle', distanceMetres: 50, metricKey: 'final_time' }
    await db()
      .insert(referenceBands)
      .values([
        { ...band, ageMin: 11, ageMax: 12, gender: 'any', level: 'District', value: 36 },
        { ...band, ageMin: 11, ageMax: 12, gender: 'female', level: 'Girls only', value: 33 },
        { ...band, ageMin: 13, ageMax: 14, gender: 'any', level: 'Older', value: 32 },
      ])
    const view = await analysisView(analysisId)
    expect(view).toMatchObject({ swimmer: null, swimmerName: 'Kavya Kumar' })
    expect(view!.events[0]!.metrics[0]!.bands).toEqual([{ level: 'District', value: 36 }])
  })

  it('lists clips with their chapters in time order, and findings by priority with their drills', async () => {
    const { third } = await threeAnalyses()
    await db()
      .insert(analysisClips)
      .values({ analysisId: third.analysisId, eventId: third.eventId, title: 'Side view', angle: 'underwater_side', chapters: [{ kind: 'turn', seconds: 14.5 }, { kind: 'start', seconds: 0 }], storageKey: 'clip-a', contentType: 'video/mp4', sizeBytes: 1000 })
    const [low] = await db().insert(analysisFindings).values({ analysisId: third.analysisId, title: 'Head position', priority: 'low', position: 0 }).returning({ id: analysisFindings.id })
    const [high] = await db().insert(analysisFindings).values({ analysisId: third.analysisId, title: 'Late breath', priority: 'high', position: 1 }).returning({ id: analysisFindings.id })
    await db().insert(findingDrills).values([{ findingId: high!.id, name: 'Catch-up', instructions: 'Six lengths' }, { findingId: low!.id, name: 'Look down' }])
    const view = await analysisView(third.analysisId)
    expect(view!.clips).toEqual([
      {
        id: expect.any(Number),
        title: 'Side view',
        angle: 'underwater_side',
        angleLabel: 'Underwater, side',
        event: '50 m freestyle',
        hasPoster: false,
        chapters: [
          { kind: 'start', label: 'Start', seconds: 0 },
          { kind: 'turn', label: 'Turn', seconds: 14.5 },
        ],
      },
    ])
    expect(view!.findings.map((finding) => [finding.title, finding.priorityLabel, finding.drills.map((drill) => drill.name)])).toEqual([
      ['Late breath', 'High', ['Catch-up']],
      ['Head position', 'Low', ['Look down']],
    ])
    expect(chaptersVtt(view!.clips[0]!.chapters)).toBe('WEBVTT\n\n1\n00:00:00.000 --> 00:00:14.500\nStart\n\n2\n00:00:14.500 --> 01:00:14.500\nTurn\n')
  })

  it('lists the account’s published analyses per swimmer, newest first, and nobody else’s', async () => {
    const { customer, first, third, draft } = await threeAnalyses()
    // The middle booking becomes another account's, and its analysis is published.
    const [stranger] = await createCustomers(1, 'stranger')
    await db().update(bookings).set({ userId: stranger!.userId, swimmerId: stranger!.swimmerId }).where(eq(bookings.id, (await db().select({ bookingId: analyses.bookingId }).from(analyses).where(eq(analyses.id, draft.analysisId)))[0]!.bookingId))
    await db().update(analyses).set({ swimmerId: stranger!.swimmerId, publishedAt: new Date() }).where(eq(analyses.id, draft.analysisId))
    expect((await accountAnalyses(stranger!.userId!)).map((group) => group.analyses.map((analysis) => analysis.id))).toEqual([[draft.analysisId]])
    const groups = await accountAnalyses(customer.userId!)
    expect(groups).toEqual([{ swimmerId: customer.swimmerId, name: customer.swimmerName, analyses: [expect.objectContaining({ id: third.analysisId, sessionDate: '2030-09-02' }), expect.objectContaining({ id: first.analysisId, sessionDate: '2030-03-04' })] }])
  })

  it('lists an analysis of a booking made as a guest with the account’s e-mail address under the booked name', async () => {
    const { first } = await threeAnalyses()
    const [parent] = await createCustomers(1, 'guestparent')
    const [{ bookingId }] = (await db().select({ bookingId: analyses.bookingId }).from(analyses).where(eq(analyses.id, first.analysisId))) as [{ bookingId: number }]
    await db().update(bookings).set({ userId: null, customerEmail: parent!.email.toUpperCase(), swimmerName: 'Kiran Rao' }).where(eq(bookings.id, bookingId!))
    await db().update(analyses).set({ swimmerId: null }).where(eq(analyses.id, first.analysisId))
    expect(await accountAnalyses(parent!.userId!)).toEqual([])
    expect(await accountAnalyses(parent!.userId!, parent!.email)).toEqual([{ swimmerId: null, name: 'Kiran Rao', analyses: [expect.objectContaining({ id: first.analysisId })] }])
  })
})

describe('progress over time', () => {
  it('gives a series per event and figure in the order swum, with the personal best by the figure’s direction', async () => {
    const { customer, first, third } = await threeAnalyses()
    const { series, events } = progressSeries(await swimmerHistory(customer.swimmerId!))
    expect(events).toEqual([{ key: 'freestyle-50', label: '50 m freestyle' }])
    const byKey = Object.fromEntries(series.map((line) => [line.key, line.points.map((point) => [point.analysisId, point.value, point.personalBest])]))
    expect(byKey.final_time).toEqual([
      [first.analysisId, 31.2, false],
      [third.analysisId, 30.9, true],
    ])
    expect(byKey.stroke_rate).toEqual([
      [first.analysisId, 48, true],
      [third.analysisId, 47, false],
    ])
  })

  it('narrows the series to one event', async () => {
    const { customer, third } = await threeAnalyses()
    const [back] = await db().insert(analysisEvents).values({ analysisId: third.analysisId, stroke: 'backstroke', distanceMetres: 100, position: 1 }).returning({ id: analysisEvents.id })
    await db().insert(analysisMetrics).values({ eventId: back!.id, metricKey: 'final_time', label: 'Final time', unit: 's', betterWhen: 'lower', value: 70.1 })
    const history = await swimmerHistory(customer.swimmerId!)
    const narrowed = progressSeries(history, 'backstroke-100')
    expect(narrowed.events.map((event) => event.key)).toEqual(['freestyle-50', 'backstroke-100'])
    expect(narrowed.series.map((line) => [line.eventLabel, line.key, line.points.length])).toEqual([['100 m backstroke', 'final_time', 1]])
    // A figure measured once is no personal best yet: there is nothing it beats.
    expect(narrowed.series[0]!.points[0]!.personalBest).toBe(false)
    expect(progressSeries(history).series).toHaveLength(3)
  })
})

describe('two analyses compared', () => {
  it('puts the earlier first, gives the change of every figure both have, and the clips of a chapter both have', async () => {
    const { customer, first, third, draft } = await threeAnalyses()
    await db()
      .insert(analysisClips)
      .values([
        { analysisId: first.analysisId, title: 'March side', angle: 'underwater_side', chapters: [{ kind: 'start', seconds: 0 }, { kind: 'turn', seconds: 12 }], storageKey: 'a', contentType: 'video/mp4', sizeBytes: 1 },
        { analysisId: third.analysisId, title: 'September side', angle: 'underwater_side', chapters: [{ kind: 'turn', seconds: 13.2 }], storageKey: 'b', contentType: 'video/mp4', sizeBytes: 1 },
      ])
    const compared = await compareAnalyses(customer.swimmerId!, third.analysisId, first.analysisId)
    expect(compared!.before.id).toBe(first.analysisId)
    expect(compared!.after.id).toBe(third.analysisId)
    expect(compared!.events[0]!.metrics.map((metric) => [metric.key, metric.before, metric.after, metric.change, metric.better])).toEqual([
      ['final_time', 31.2, 30.9, -0.3, true],
      ['stroke_rate', 48, 47, -1, false],
    ])
    expect(compared!.chapters).toEqual([{ kind: 'turn', label: 'Turn', before: expect.objectContaining({ title: 'March side', seconds: 12 }), after: expect.objectContaining({ title: 'September side', seconds: 13.2 }) }])
    // A draft, the same analysis twice, or another swimmer's analysis: nothing to compare.
    expect(await compareAnalyses(customer.swimmerId!, first.analysisId, draft.analysisId)).toBeNull()
    expect(await compareAnalyses(customer.swimmerId!, first.analysisId, first.analysisId)).toBeNull()
    const [otherSwimmer] = await db().insert(swimmers).values({ accountId: customer.userId!, name: 'Other', ageYears: 12, ageGivenOn: '2026-01-01', gender: 'male', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' }).returning({ id: swimmers.id })
    expect(await compareAnalyses(otherSwimmer!.id, first.analysisId, third.analysisId)).toBeNull()
    await db().delete(swimmers).where(eq(swimmers.id, otherSwimmer!.id))
  })
})

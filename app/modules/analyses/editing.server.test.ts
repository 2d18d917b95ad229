import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, bookings } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { confirmedBookings, startedAnalysis } from '../../../tests/support/analyses'
import { createStaff } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { addCustomMetric, addDrill, addEvent, changeDrill, analysisForStaff, namesPartsOf, removeDrill, removeEvent, removeFinding, saveFinding, saveMetrics, setDetails, startAnalysis } from './editing.server'
import { CustomMetricSchema, DrillSchema, FindingSchema, LIMITS, metricsSchema, parseMetricValue, segmentMetricKeys, valueFieldName } from './schemas'

useTestDatabase()

let actor: { id: number; email: string }
beforeEach(async () => {
  actor = await createStaff()
})

const started = () => startedAnalysis(actor)

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(DomainError)
  const { kind, message, field } = error as DomainError
  return { kind, message, field }
}

describe('recording an analysis', () => {
  it('shows staff the swimmer, the events with their metrics, the findings with their drills, and logs every change', async () => {
    const { bookingId, analysisId } = await started()
    // Starting again finds the same draft.
    expect(await startAnalysis(actor, bookingId)).toBe(analysisId)
    expect(await setDetails(actor, analysisId, { poolLength: 50, summary: 'A strong start; the turns cost time.' })).toBe(true)
    expect(await setDetails(actor, analysisId, { poolLength: 50, summary: 'A strong start; the turns cost time.' })).toBe(false)
    const eventId = await addEvent(actor, analysisId, { stroke: 'freestyle', distance: 100 })
    expect(await saveMetrics(actor, analysisId, eventId, new Map<string, number | null>([['final_time', 61.2], ['stroke_rate', 48], ['split_50', 29.4], ['velocity_15_25', 1.9]]))).toBe(true)
    // An emptied field removes its value; the others keep theirs.
    expect(await saveMetrics(actor, analysisId, eventId, new Map<string, number | null>([['final_time', 60.95], ['stroke_rate', null]]))).toBe(true)
    expect(await saveMetrics(actor, analysisId, eventId, new Map<string, number | null>([['final_time', 60.95]]))).toBe(false)
    await addCustomMetric(actor, analysisId, { eventId, label: 'Dolphin kick frequency', unit: 'Hz', better: 'higher', value: 2.1 })
    const findingId = await saveFinding(actor, analysisId, { title: 'Early breathing on the turn', whyItMatters: 'It slows the wall.', priority: 'high' })
    const drillId = await addDrill(actor, analysisId, { findingId, name: 'Tumble turns', instructions: '', videoUrl: null })
    await changeDrill(actor, analysisId, drillId, { name: 'Tumble turns without breathing', instructions: '10 × 25 m', videoUrl: 'https://video.example/turns' })

    const view = (await analysisForStaff(bookingId, '2030-03-10'))!
    expect(view.swimmer).toEqual({ name: expect.stringMatching(/^analysed\d+ 1$/), age: 30, gender: 'female' })
    expect(view.analysis).toMatchObject({ poolLengthMetres: 50, summary: 'A strong start; the turns cost time.', publishedAt: null, clipsCount: 0 })
    const [event] = view.analysis!.events
    expect(event!.label).toBe('100 m freestyle')
    expect(event!.metrics.map(({ key, label, unit, betterWhen, value, custom }) => ({ key, label, unit, betterWhen, value, custom }))).toEqual([
      { key: 'final_time', label: 'Final time', unit: 's', betterWhen: 'lower', value: 60.95, custom: false },
      { key: 'split_50', label: 'Split at 50 m', unit: 's', betterWhen: 'lower', value: 29.4, custom: false },
      { key: 'velocity_15_25', label: 'Velocity 15-25 m', unit: 'm/s', betterWhen: 'higher', value: 1.9, custom: false },
      { key: 'custom_dolphin_kick_frequency', label: 'Dolphin kick frequency', unit: 'Hz', betterWhen: 'higher', value: 2.1, custom: true },
    ])
    // The form shows the catalogue, the event's splits and segment speeds in a 50 m pool, and the metric of its own.
    expect(event!.keys).toEqual(expect.arrayContaining(['final_time', 'split_25', 'split_50', 'split_75', 'velocity_15_25', 'velocity_35_45', 'velocity_65_75', 'custom_dolphin_kick_frequency']))
    expect(view.analysis!.findings).toEqual([
      { id: findingId, title: 'Early breathing on the turn', whyItMatters: 'It slows the wall.', priority: 'high', drills: [{ id: expect.any(Number), name: 'Tumble turns without breathing', instructions: '10 × 25 m', videoUrl: 'https://video.example/turns' }] },
    ])

    await removeDrill(actor, analysisId, view.analysis!.findings[0]!.drills[0]!.id)
    await removeFinding(actor, analysisId, findingId)
    await removeEvent(actor, analysisId, eventId)
    const emptied = (await analysisForStaff(bookingId))!
    expect(emptied.analysis).toMatchObject({ events: [], findings: [] })

    const actions = (await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityType, 'analysis')).orderBy(auditLog.id)).map((entry) => entry.action)
    expect(actions).toEqual(['analysis.start', 'analysis.details', 'analysis.event.add', 'analysis.metrics', 'analysis.metrics', 'analysis.metric.add', 'analysis.finding.add', 'analysis.drill.add', 'analysis.drill.change', 'analysis.drill.remove', 'analysis.finding.remove', 'analysis.event.remove'])
  })

  it('refuses a booking that is not confirmed, an event twice, and anything of another analysis', async () => {
    const { bookings: [cancelled, own, other] } = await confirmedBookings(['2030-03-04', '2030-03-08', '2030-03-12'])
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, cancelled!.bookingId))
    expect(await refusal(startAnalysis(actor, cancelled!.bookingId))).toMatchObject({ kind: 'conflict', message: 'Only a confirmed booking can be analysed.' })

    const analysisId = await startAnalysis(actor, own!.bookingId)
    const otherId = await startAnalysis(actor, other!.bookingId)
    const eventId = await addEvent(actor, analysisId, { stroke: 'butterfly', distance: 50 })
    expect(await refusal(addEvent(actor, analysisId, { stroke: 'butterfly', distance: 50 }))).toEqual({ kind: 'conflict', message: 'The 50 m butterfly is already in this analysis.', field: 'distance' })
    expect((await refusal(saveMetrics(actor, otherId, eventId, new Map([['final_time', 30]])))).kind).toBe('not_found')
    expect((await refusal(saveMetrics(actor, analysisId, eventId, new Map([['custom_made_up', 30]])))).kind).toBe('invalid')
    const findingId = await saveFinding(actor, analysisId, { title: 'Kick', whyItMatters: '', priority: 'low' })
    expect((await refusal(addDrill(actor, otherId, { findingId, name: 'Board kick', instructions: '', videoUrl: null }))).kind).toBe('not_found')
    expect((await refusal(addDrill(actor, analysisId, { findingId, name: 'Board kick', instructions: '', videoUrl: 'javascript:alert(1)' }))).field).toBe('videoUrl')
    expect((await refusal(removeFinding(actor, otherId, findingId))).kind).toBe('not_found')
    const drillId = await addDrill(actor, analysisId, { findingId, name: 'Board kick', instructions: '', videoUrl: null })
    expect((await refusal(changeDrill(actor, otherId, drillId, { name: 'Taken', instructions: '', videoUrl: null }))).kind).toBe('not_found')
    expect((await refusal(removeDrill(actor, otherId, drillId))).kind).toBe('not_found')
    expect((await refusal(addCustomMetric(actor, analysisId, { eventId, label: 'Final time', unit: 's', better: 'lower', value: 30 }))).field).toBe('label')
  })
})

describe('what a form is about', () => {
  it('names parts of this analysis only: its events, findings and drills, by the ids the form sent', async () => {
    const { bookings: [booking, otherBooking] } = await confirmedBookings(['2030-03-04', '2030-06-03'])
    const bookingId = booking!.bookingId
    const analysisId = await startAnalysis(actor, bookingId)
    const eventId = await addEvent(actor, analysisId, { stroke: 'freestyle', distance: 100 })
    const findingId = await saveFinding(actor, analysisId, { title: 'Early breathing', whyItMatters: '', priority: 'high' })
    const drillId = await addDrill(actor, analysisId, { findingId, name: 'Tumble turns', instructions: '', videoUrl: null })
    const otherEventId = await addEvent(actor, await startAnalysis(actor, otherBooking!.bookingId), { stroke: 'freestyle', distance: 50 })
    const analysis = (await analysisForStaff(bookingId))!.analysis!

    expect(namesPartsOf(analysis, [{ part: 'eventId', id: String(eventId) }, { part: 'findingId', id: String(findingId) }, { part: 'drillId', id: String(drillId) }])).toBe(true)
    expect(namesPartsOf(analysis, [{ part: 'eventId', id: String(otherEventId) }])).toBe(false)
    // An id that is not a number, or missing, names nothing.
    expect(namesPartsOf(analysis, [{ part: 'eventId', id: `${eventId}.0` }])).toBe(false)
    expect(namesPartsOf(analysis, [{ part: 'eventId', id: null }])).toBe(false)
    // An optional one may be left out or empty, but not name another analysis's part.
    expect(namesPartsOf(analysis, [{ part: 'drillId', id: null, optional: true }, { part: 'findingId', id: '', optional: true }])).toBe(true)
    expect(namesPartsOf(analysis, [{ part: 'eventId', id: String(otherEventId), optional: true }])).toBe(false)
  })
})

describe('limits', () => {
  it('holds at most so many events, findings, drills and metrics of your own', async () => {
    const { analysisId } = await started()
    const strokes = ['freestyle', 'backstroke', 'breaststroke', 'butterfly']
    const events: number[] = []
    for (const [index, distance] of [25, 50, 100].entries()) for (const stroke of strokes) if (events.length < LIMITS.events) events.push(await addEvent(actor, analysisId, { stroke, distance: index === 0 ? 25 : distance }))
    expect(events).toHaveLength(LIMITS.events)
    expect(await refusal(addEvent(actor, analysisId, { stroke: 'individual_medley', distance: 200 }))).toMatchObject({ kind: 'conflict', message: `An analysis holds at most ${LIMITS.events} events.` })

    for (let index = 0; index < LIMITS.customMetricsPerEvent; index++) await addCustomMetric(actor, analysisId, { eventId: events[0]!, label: `Figure ${index}`, unit: 'x', better: 'higher', value: index })
    expect((await refusal(addCustomMetric(actor, analysisId, { eventId: events[0]!, label: 'One too many', unit: 'x', better: 'higher', value: 1 }))).message).toBe(`An event holds at most ${LIMITS.customMetricsPerEvent} metrics of your own.`)

    for (let index = 0; index < LIMITS.findings; index++) await saveFinding(actor, analysisId, { title: `Finding ${index}`, whyItMatters: '', priority: 'medium' })
    expect((await refusal(saveFinding(actor, analysisId, { title: 'One too many', whyItMatters: '', priority: 'medium' }))).message).toBe(`An analysis holds at most ${LIMITS.findings} findings.`)
    const findingId = (await analysisForStaff((await db().select({ id: bookings.id }).from(bookings))[0]!.id))!.analysis!.findings[0]!.id
    for (let index = 0; index < LIMITS.drillsPerFinding; index++) await addDrill(actor, analysisId, { findingId, name: `Drill ${index}`, instructions: '', videoUrl: null })
    expect((await refusal(addDrill(actor, analysisId, { findingId, name: 'One too many', instructions: '', videoUrl: null }))).message).toBe(`A finding holds at most ${LIMITS.drillsPerFinding} drills.`)
  })

  it('the forms bound every text and read figures as staff type them', () => {
    expect(parseMetricValue('1.85')).toBe(1.85)
    expect(parseMetricValue(' 32,5 ')).toBe(32.5)
    expect(parseMetricValue('1:05.32')).toBeCloseTo(65.32)
    expect(parseMetricValue('-3')).toBe(-3)
    for (const bad of ['fast', '1e3', '', '1.2.3', 'Infinity', '99999999', '1:75']) expect(parseMetricValue(bad), bad).toBeNull()

    const metrics = metricsSchema(['final_time', 'stroke_rate']).safeParse({ eventId: '1', [valueFieldName('final_time')]: 'fast', [valueFieldName('stroke_rate')]: '' })
    expect(metrics.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['value_final_time', 'Enter a number, for example 1.85 or a time as 1:05.32']])
    expect(metricsSchema(['final_time', 'stroke_rate']).parse({ eventId: '1', value_final_time: '28.4', value_stroke_rate: '' })).toEqual({ eventId: 1, value_final_time: 28.4, value_stroke_rate: null })

    const finding = FindingSchema.safeParse({ title: 'x'.repeat(LIMITS.title + 1), whyItMatters: 'y'.repeat(LIMITS.text + 1), priority: 'urgent' })
    expect(finding.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['title', `Please use at most ${LIMITS.title} characters`],
      ['whyItMatters', `Please use at most ${LIMITS.text} characters`],
      ['priority', 'Choose a priority'],
    ])
    expect(DrillSchema.safeParse({ findingId: '1', name: '', videoUrl: 'ftp://files.example/drill' }).error?.issues.map((issue) => issue.message)).toEqual(['Name the drill', 'Enter a full address starting with https://'])
    expect(CustomMetricSchema.safeParse({ eventId: '1', label: '—', unit: '', better: 'sideways', value: 'x' }).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['label', 'unit', 'better', 'value'])
  })

  it('splits every 25 m up to 100 m and every 50 m beyond; speeds after the start and each turn', () => {
    expect(segmentMetricKeys(50, 25)).toEqual(['split_25', 'velocity_15_25', 'velocity_40_50'])
    expect(segmentMetricKeys(200, 50)).toEqual(['split_50', 'split_100', 'split_150', ...[0, 50, 100, 150].flatMap((start) => [`velocity_${start + 15}_${start + 25}`, `velocity_${start + 25}_${start + 35}`, `velocity_${start + 35}_${start + 45}`])])
    expect(segmentMetricKeys(1500, 25).length).toBeLessThanOrEqual(LIMITS.metricsPerEvent - 20)
  })
})

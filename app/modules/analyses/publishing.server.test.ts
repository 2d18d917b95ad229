import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { asc, eq } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { analyses, auditLog, bookings, outboxMessages, siteSettings } from '~/db/schema'
import { firstNameOf } from '~/lib/person-name'
import { deliverReport } from '~/modules/reports/reports.server'
import { diskStorage, useReportStorage } from '~/modules/reports/storage.server'
import { confirmedBookings } from '../../../tests/support/analyses'
import { createStaff } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { addEvent, saveFinding, saveMetrics, startAnalysis } from './editing.server'
import { analysesDue, analysesOfBookings, overdueAnalyses, NOTHING_TO_PUBLISH, publishAnalysis, publishedAnalysisOf } from './publishing.server'

useTestDatabase()
const directory = mkdtempSync(path.join(tmpdir(), 'swimlab-analyses-'))
beforeEach(() => useReportStorage(diskStorage(directory)))
afterAll(() => {
  useReportStorage(undefined)
  rmSync(directory, { recursive: true, force: true })
})

let actor: { id: number; email: string }
beforeEach(async () => {
  actor = await createStaff()
})

/** A confirmed 3-day booking from 4 March 2030, its last session ending at 10:00 IST on 6 March (04:30 UTC). */
async function booked() {
  const { customer, bookings: [booking] } = await confirmedBookings(['2030-03-04'])
  return { customer, ...booking! }
}

/** A day after the booked sessions of 4-6 March 2030. */
const AFTER_THE_SESSION = new Date('2030-03-08T06:00:00Z')

const mailsTo = async (email: string) => db().select({ subject: outboxMessages.subject, text: outboxMessages.text }).from(outboxMessages).where(eq(outboxMessages.to, email)).orderBy(asc(outboxMessages.id))
const analysisRow = async (analysisId: number) => (await db().select().from(analyses).where(eq(analyses.id, analysisId)))[0]!

describe('publishing an analysis', () => {
  it('needs an event with a metric or a finding, and a confirmed booking', async () => {
    const { bookingId } = await booked()
    const analysisId = await startAnalysis(actor, bookingId)
    await expect(publishAnalysis({ actor, analysisId, tellFamily: false })).rejects.toMatchObject({ kind: 'conflict', message: NOTHING_TO_PUBLISH })
    const eventId = await addEvent(actor, analysisId, { stroke: 'freestyle', distance: 50 })
    await expect(publishAnalysis({ actor, analysisId, tellFamily: false })).rejects.toMatchObject({ message: NOTHING_TO_PUBLISH })
    await saveMetrics(actor, analysisId, eventId, new Map([['final_time', 30.2]]))
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, bookingId))
    await expect(publishAnalysis({ actor, analysisId, tellFamily: false })).rejects.toMatchObject({ kind: 'conflict', message: 'Only the analysis of a confirmed booking can be published.' })
    expect((await analysisRow(analysisId)).publishedAt).toBeNull()
  })

  it('dates it, sets the next analysis from the lab day of publishing, and e-mails the family a link to it; again only when asked', async () => {
    const { customer, bookingId, reference } = await booked()
    const analysisId = await startAnalysis(actor, bookingId)
    await saveFinding(actor, analysisId, { title: 'Early breathing on the turn', whyItMatters: '', priority: 'high' })
    await db().update(siteSettings).set({ reanalysisMonths: 6 }).where(eq(siteSettings.id, 1))
    // 20:00 UTC on 8 March is 01:30 on 9 March in Bangalore: the lab day of publishing is the 9th.
    const publishedAt = new Date('2030-03-08T20:00:00Z')
    expect(await publishAnalysis({ actor, analysisId, tellFamily: false, now: publishedAt })).toBe(true)
    expect(await analysisRow(analysisId)).toMatchObject({ publishedAt, nextAnalysisOn: '2030-09-09' })
    expect(await publishedAnalysisOf(bookingId)).toBe(analysisId)
    expect((await analysesOfBookings([bookingId])).get(bookingId)).toMatchObject({ id: analysisId, publishedAt })
    const [ready] = await mailsTo(customer.email)
    expect(ready!.subject).toBe(`${firstNameOf(customer.swimmerName)}'s biomechanical analysis is ready (${reference})`)
    expect(ready!.text).toMatch(new RegExp(`^https?://[^\\s]+/analyses/${analysisId}$`, 'm'))

    // Published again: the first date and next analysis stay; the family hears of it only when asked.
    expect(await publishAnalysis({ actor, analysisId, tellFamily: false, now: new Date('2030-03-20T06:00:00Z') })).toBe(false)
    expect(await mailsTo(customer.email)).toHaveLength(1)
    await publishAnalysis({ actor, analysisId, tellFamily: true, now: new Date('2030-03-21T06:00:00Z') })
    expect((await mailsTo(customer.email)).map((mail) => mail.subject)).toEqual([`${firstNameOf(customer.swimmerName)}'s biomechanical analysis is ready (${reference})`, `${firstNameOf(customer.swimmerName)}'s biomechanical analysis has been updated (${reference})`])
    expect(await analysisRow(analysisId)).toMatchObject({ publishedAt, nextAnalysisOn: '2030-09-09' })
    const entries = await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, String(analysisId))).orderBy(auditLog.id)
    expect(entries.map((entry) => entry.action).filter((action) => action.includes('publish'))).toEqual(['analysis.publish', 'analysis.republish', 'analysis.republish'])
  })

  it("names the swimmer by their first name and the analysis by its short name: \"Aarav's race analysis is ready\"", async () => {
    const { customer, bookingId, reference } = await booked()
    await db().update(bookings).set({ productCode: 'single_race', swimmerId: null, swimmerName: 'Aarav Raman' }).where(eq(bookings.id, bookingId))
    const analysisId = await startAnalysis(actor, bookingId)
    await saveFinding(actor, analysisId, { title: 'Late breath on the turn', whyItMatters: '', priority: 'high' })
    await publishAnalysis({ actor, analysisId, tellFamily: false, now: AFTER_THE_SESSION })
    await publishAnalysis({ actor, analysisId, tellFamily: true, now: AFTER_THE_SESSION })
    const [ready, updated] = await mailsTo(customer.email)
    expect(ready!.subject).toBe(`Aarav's race analysis is ready (${reference})`)
    expect(ready!.text).toContain("Aarav's race analysis is ready: the figures we measured, what we found, and drills to work on it.")
    expect(ready!.text).toMatch(/Swimmer: +Aarav Raman/)
    expect(ready!.text).not.toMatch(/The analysis of|Raman's/)
    expect(updated!.subject).toBe(`Aarav's race analysis has been updated (${reference})`)
    expect(updated!.text).toContain("We have updated Aarav's race analysis")
  })

  it('before the first session day in Bangalore, publishes only once staff confirm', async () => {
    const { customer, bookingId } = await booked()
    const analysisId = await startAnalysis(actor, bookingId)
    await saveFinding(actor, analysisId, { title: 'Kick from the hips', whyItMatters: '', priority: 'medium' })
    // 18:00 UTC on 3 March is 11:30 PM in Bangalore, the day before; 20:00 UTC is 1:30 AM on the session's day.
    const evening = new Date('2030-03-03T18:00:00Z')
    await expect(publishAnalysis({ actor, analysisId, tellFamily: false, now: evening })).rejects.toMatchObject({
      kind: 'conflict',
      firstDate: '2030-03-04',
      message: 'This session has not happened yet (it starts on Monday, 4 March 2030). Publish anyway?',
    })
    expect((await analysisRow(analysisId)).publishedAt).toBeNull()
    expect(await mailsTo(customer.email)).toEqual([])
    expect(await publishAnalysis({ actor, analysisId, tellFamily: false, beforeSession: true, now: evening })).toBe(true)
    expect((await analysisRow(analysisId)).publishedAt).toEqual(evening)
    expect(await mailsTo(customer.email)).toHaveLength(1)
    expect(await publishAnalysis({ actor, analysisId, tellFamily: false, now: new Date('2030-03-03T20:00:00Z') })).toBe(false)
  })

  it("a guest booking's family gets the private link to their booking", async () => {
    const { customer, bookingId } = await booked()
    await db().update(bookings).set({ userId: null, swimmerId: null }).where(eq(bookings.id, bookingId))
    const analysisId = await startAnalysis(actor, bookingId)
    await saveFinding(actor, analysisId, { title: 'Kick from the hips', whyItMatters: '', priority: 'medium' })
    await publishAnalysis({ actor, analysisId, tellFamily: false, now: AFTER_THE_SESSION })
    const [mail] = await mailsTo(customer.email)
    expect(mail!.text).toMatch(/\/booking\/view\?ref=SWP-\d{10}&key=/)
    expect(mail!.text).not.toContain('/analyses/')
  })
})

describe('analyses due', () => {
  it('lists ended sessions until the analysis is published, due the promised hours after the last session ends in Bangalore time', async () => {
    const { bookingId, reference } = await booked()
    expect(await analysesDue(new Date('2030-03-06T04:29:00Z'))).toEqual([])
    const ended = await analysesDue(new Date('2030-03-06T04:30:00Z'))
    expect(ended).toEqual([{ id: bookingId, reference, swimmerName: expect.any(String), started: false, endedAt: new Date('2030-03-06T04:30:00Z'), dueAt: new Date('2030-03-08T04:30:00Z'), overdue: false }])
    expect((await analysesDue(new Date('2030-03-08T04:29:00Z')))[0]!.overdue).toBe(false)
    expect((await analysesDue(new Date('2030-03-08T04:30:00Z')))[0]!.overdue).toBe(true)

    const analysisId = await startAnalysis(actor, bookingId)
    expect((await analysesDue(new Date('2030-03-09T00:00:00Z')))[0]).toMatchObject({ started: true, overdue: true })
    expect((await overdueAnalyses(new Date('2030-03-09T00:00:00Z'))).map((row) => row.reference)).toEqual([reference])
    await saveFinding(actor, analysisId, { title: 'Streamline', whyItMatters: '', priority: 'low' })
    await publishAnalysis({ actor, analysisId, tellFamily: false, now: new Date('2030-03-09T00:00:00Z') })
    // A published analysis is what was promised: neither list names the booking any more.
    expect(await analysesDue(new Date('2030-03-09T00:00:00Z'))).toEqual([])
    expect(await overdueAnalyses(new Date('2030-03-09T00:00:00Z'))).toEqual([])
  })

  it('a delivered report counts as delivered too', async () => {
    const { bookingId } = await booked()
    expect(await analysesDue(new Date('2030-03-09T00:00:00Z'))).toHaveLength(1)
    await deliverReport({ bookingId, note: 'Here it is.', videoLinks: [], files: [], staffId: null })
    expect(await analysesDue(new Date('2030-03-09T00:00:00Z'))).toEqual([])
  })
})

import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { analyses, bookings, outboxMessages } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import { confirmedBookings, recordedAnalysis } from '../../../tests/support/analyses'
import { useTestDatabase } from '../../../tests/support/test-database'
import { inviteBackForNextAnalysis } from './invitations.server'

useTestDatabase()

async function analysedWithNextOn(nextAnalysisOn: string, dates = ['2030-03-04']) {
  const { customer, bookings: booked } = await confirmedBookings(dates)
  const { analysisId } = await recordedAnalysis(booked[0]!.bookingId, { metrics: { final_time: 31.2 }, publishedAt: new Date('2030-03-10T06:00:00Z') })
  await db().update(analyses).set({ nextAnalysisOn }).where(eq(analyses.id, analysisId))
  return { customer, analysisId, bookings: booked }
}

const mails = () => db().select().from(outboxMessages)

describe('the invitation to the next analysis', () => {
  it('goes out once, on the day it is due in Bangalore (from 09:00), not before', async () => {
    const { customer, analysisId } = await analysedWithNextOn('2030-06-01')
    expect(await inviteBackForNextAnalysis(labInstant('2030-05-31', '23:59'))).toBe(0)
    expect(await inviteBackForNextAnalysis(labInstant('2030-06-01', '08:59'))).toBe(0)
    expect(await mails()).toEqual([])
    expect(await inviteBackForNextAnalysis(labInstant('2030-06-01', '09:00'))).toBe(1)
    expect(await inviteBackForNextAnalysis(labInstant('2030-06-01', '10:00'))).toBe(0)
    expect(await inviteBackForNextAnalysis(labInstant('2030-06-05', '10:00'))).toBe(0)
    const sent = await mails()
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ to: customer.email, subject: `Time for ${customer.swimmerName.split(' ')[0]}'s next analysis` })
    expect(sent[0]!.text).toContain(`/book-slot?swimmer=${customer.swimmerId}`)
    const [row] = await db().select({ invitedBackAt: analyses.invitedBackAt }).from(analyses).where(eq(analyses.id, analysisId))
    expect(row!.invitedBackAt).toEqual(labInstant('2030-06-01', '09:00'))
  })

  it('is sent when due on an earlier day too, but never for a draft', async () => {
    await analysedWithNextOn('2030-05-20')
    await db().update(analyses).set({ publishedAt: null })
    expect(await inviteBackForNextAnalysis(labInstant('2030-06-01', '12:00'))).toBe(0)
    await db().update(analyses).set({ publishedAt: new Date('2030-03-10T06:00:00Z') })
    expect(await inviteBackForNextAnalysis(labInstant('2030-06-01', '12:00'))).toBe(1)
  })

  it('is not sent while the swimmer has a later confirmed booking, and is once that booking is cancelled', async () => {
    const { bookings: booked } = await analysedWithNextOn('2030-06-01', ['2030-03-04', '2030-07-01'])
    expect(await inviteBackForNextAnalysis(labInstant('2030-06-01', '12:00'))).toBe(0)
    expect(await mails()).toEqual([])
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, booked[1]!.bookingId))
    expect(await inviteBackForNextAnalysis(labInstant('2030-06-02', '12:00'))).toBe(1)
  })

  it('two instances running at once send one e-mail', async () => {
    await analysedWithNextOn('2030-06-01')
    const now = labInstant('2030-06-01', '12:00')
    const results = await Promise.all([inviteBackForNextAnalysis(now), inviteBackForNextAnalysis(now)])
    expect(results.reduce((sum, count) => sum + count, 0)).toBe(1)
    expect(await mails()).toHaveLength(1)
  })
})

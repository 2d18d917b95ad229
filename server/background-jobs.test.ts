import { eq, like } from 'drizzle-orm'
import pino from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { database, db } from '~/db/client.server'
import { analyses, outboxMessages } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import type { MailTransport } from '~/modules/mail/transport.server'
import { confirmedBookings, recordedAnalysis } from '../tests/support/analyses'
import { useTestDatabase } from '../tests/support/test-database'
import { BackgroundJobs } from './background-jobs'

useTestDatabase()

/** Mail handed to the transport stays here: what reaches the mail server is not what this file is about. */
const transport: MailTransport = { channel: 'email', kind: 'local', classify: () => 'retry', send: async () => {}, close: () => {} }

afterEach(() => {
  vi.useRealTimers()
})

/** The jobs of a site started at `at`, stopped at once: stopping waits for the runs that starting began. */
async function startedAt(at: Date) {
  vi.useFakeTimers({ toFake: ['Date'], now: at })
  const jobs = new BackgroundJobs(transport, pino({ level: 'silent' }), database())
  jobs.start()
  await jobs.stop()
}

const invitations = () => db().select({ to: outboxMessages.to }).from(outboxMessages).where(like(outboxMessages.subject, 'Time for %next analysis'))

describe('a site starting', () => {
  async function analysisDueOn(nextAnalysisOn: string) {
    const { customer, bookings } = await confirmedBookings(['2030-03-04'])
    const { analysisId } = await recordedAnalysis(bookings[0]!.bookingId, { metrics: { final_time: 31.2 }, publishedAt: new Date('2030-03-10T06:00:00Z') })
    await db().update(analyses).set({ nextAnalysisOn }).where(eq(analyses.id, analysisId))
    return customer
  }

  it('invites at once the swimmers whose next analysis came due while no instance ran', async () => {
    const customer = await analysisDueOn('2030-06-01')
    await startedAt(labInstant('2030-06-02', '10:00'))
    expect((await invitations()).map((mail) => mail.to)).toEqual([customer.email])
  })

  it('started at night, leaves them for the morning', async () => {
    await analysisDueOn('2030-06-01')
    await startedAt(labInstant('2030-06-02', '00:30'))
    expect(await invitations()).toEqual([])
  })
})

import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { outboxMessages, shareLinks } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addHours } from '~/lib/lab-time'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { confirmedBookings, recordedAnalysis } from '../../../tests/support/analyses'
import { createCustomers } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { maySeeAnalysis, maySeeSwimmer, shareTokenHash, shareViewer } from './access.server'
import { createShareLink, MAX_ACTIVE_SHARE_LINKS, revokeShareLink, shareLinksOf, TooManyShareLinksError } from './shares.server'

useTestDatabase()

async function family() {
  const { customer, bookings } = await confirmedBookings(['2030-03-04', '2030-06-03'])
  const published = await recordedAnalysis(bookings[0]!.bookingId, { metrics: { final_time: 31.2 } })
  const draft = await recordedAnalysis(bookings[1]!.bookingId, { publishedAt: null })
  return { accountId: customer.userId!, swimmerId: customer.swimmerId!, published: published.analysisId, draft: draft.analysisId }
}

describe('links for a coach', () => {
  it('makes a link that opens the swimmer’s results, keeps only its hash, e-mails the coach, and lists it', async () => {
    const { accountId, swimmerId, published } = await family()
    const now = new Date('2030-07-01T06:00:00Z')
    const link = await createShareLink({ accountId, swimmerId, analysisId: null, days: 30, coachEmail: 'Coach.Ravi@Example.com', now })
    expect(link.url).toMatch(/\/shared\/[A-Za-z0-9_-]{43}$/)
    const [stored] = await db().select().from(shareLinks).where(eq(shareLinks.id, link.id))
    expect(stored).toMatchObject({ tokenHash: shareTokenHash(link.token), coachEmail: 'coach.ravi@example.com', expiresAt: new Date('2030-07-31T06:00:00Z') })
    expect(JSON.stringify(stored)).not.toContain(link.token)
    const [mail] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, 'coach.ravi@example.com'))
    expect(mail!.subject).toMatch(/swimming analysis results$/)
    expect(mail!.text).toContain(link.url)
    const viewer = await shareViewer(link.token, new Date('2030-07-02T06:00:00Z'))
    expect(await maySeeSwimmer(viewer, swimmerId)).toBe(true)
    expect(await maySeeAnalysis(viewer, published)).toBe(true)
    expect(await shareLinksOf(accountId, swimmerId, new Date('2030-07-02T07:00:00Z'))).toEqual([expect.objectContaining({ id: link.id, analysisId: null, coachEmail: 'coach.ravi@example.com', state: 'active', lastOpenedAt: new Date('2030-07-02T06:00:00Z') })])
  })

  it('without a coach’s address sends nothing; a link to one analysis opens only that one', async () => {
    const { accountId, swimmerId, published } = await family()
    const link = await createShareLink({ accountId, swimmerId, analysisId: published, days: 7 })
    expect(await db().select().from(outboxMessages)).toEqual([])
    const viewer = await shareViewer(link.token)
    expect(await maySeeAnalysis(viewer, published)).toBe(true)
    expect(await maySeeSwimmer(viewer, swimmerId)).toBe(false)
  })

  it('stops working once revoked or expired, and says so on the list', async () => {
    const { accountId, swimmerId } = await family()
    const now = new Date('2030-07-01T06:00:00Z')
    const revoked = await createShareLink({ accountId, swimmerId, analysisId: null, days: 90, now })
    const expiring = await createShareLink({ accountId, swimmerId, analysisId: null, days: 7, now })
    await revokeShareLink(accountId, revoked.id, new Date('2030-07-02T06:00:00Z'))
    await revokeShareLink(accountId, revoked.id, new Date('2030-07-03T06:00:00Z'))
    const later = new Date('2030-07-08T06:00:01Z')
    expect(await shareViewer(revoked.token, later)).toBeNull()
    expect(await shareViewer(expiring.token, later)).toBeNull()
    expect(await shareViewer(expiring.token, new Date('2030-07-08T05:59:59Z'))).not.toBeNull()
    const states = Object.fromEntries((await shareLinksOf(accountId, swimmerId, later)).map((link) => [link.id, [link.state, link.revokedAt]]))
    expect(states).toEqual({ [revoked.id]: ['revoked', new Date('2030-07-02T06:00:00Z')], [expiring.id]: ['expired', null] })
  })

  it('refuses another account’s swimmer, a draft, another swimmer’s analysis, and revoking another account’s link, as not found', async () => {
    const { accountId, swimmerId, draft, published } = await family()
    const [stranger] = await createCustomers(1, 'stranger')
    const notFound = expect.objectContaining({ kind: 'not_found' })
    await expect(createShareLink({ accountId: stranger!.userId!, swimmerId, analysisId: null, days: 7 })).rejects.toEqual(notFound)
    await expect(createShareLink({ accountId, swimmerId, analysisId: draft, days: 7 })).rejects.toEqual(notFound)
    await expect(createShareLink({ accountId: stranger!.userId!, swimmerId: stranger!.swimmerId!, analysisId: published, days: 7 })).rejects.toEqual(notFound)
    const link = await createShareLink({ accountId, swimmerId, analysisId: null, days: 7 })
    await expect(revokeShareLink(stranger!.userId!, link.id)).rejects.toBeInstanceOf(DomainError)
    expect(await shareViewer(link.token)).not.toBeNull()
  })

  it(`keeps at most ${MAX_ACTIVE_SHARE_LINKS} working links per swimmer; a revoked or expired one makes room`, async () => {
    const { accountId, swimmerId } = await family()
    const start = new Date('2030-07-01T06:00:00Z')
    // One an hour, so the hourly limit is not what refuses.
    const made = []
    for (let index = 0; index < MAX_ACTIVE_SHARE_LINKS; index += 1) made.push(await createShareLink({ accountId, swimmerId, analysisId: null, days: 90, now: addHours(start, index) }))
    const next = addHours(start, MAX_ACTIVE_SHARE_LINKS)
    await expect(createShareLink({ accountId, swimmerId, analysisId: null, days: 90, now: next })).rejects.toBeInstanceOf(TooManyShareLinksError)
    await revokeShareLink(accountId, made[0]!.id, next)
    await expect(createShareLink({ accountId, swimmerId, analysisId: null, days: 90, now: addHours(next, 1) })).resolves.toMatchObject({ token: expect.any(String) })
  })

  it('limits how many links an account makes in an hour', async () => {
    const { accountId, swimmerId } = await family()
    const now = new Date('2030-07-01T06:00:00Z')
    for (let index = 0; index < 10; index += 1) await createShareLink({ accountId, swimmerId, analysisId: null, days: 7, now })
    await expect(createShareLink({ accountId, swimmerId, analysisId: null, days: 7, now, coachEmail: 'coach@example.com' })).rejects.toBeInstanceOf(RateLimitedError)
    expect(await db().select().from(outboxMessages)).toEqual([])
    await expect(createShareLink({ accountId, swimmerId, analysisId: null, days: 7, now: addHours(now, 1) })).resolves.toBeTruthy()
  })
})

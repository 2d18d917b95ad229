import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, shareLinks } from '~/db/schema'
import { addDays } from '~/lib/lab-time'
import { createCustomers, createStaff } from '../../../tests/support/booking'
import { confirmedBookings, recordedAnalysis } from '../../../tests/support/analyses'
import { useTestDatabase } from '../../../tests/support/test-database'
import { maySeeAnalysis, maySeeSwimmer, newShareToken, shareViewer, viewerOfUser } from './access.server'

useTestDatabase()

describe('who may see an analysis', () => {
  it('staff see drafts; the account and a share link see it only once published; nobody else at all', async () => {
    const { customer, bookings } = await confirmedBookings(['2030-03-04', '2030-06-03'])
    const [stranger] = await createCustomers(1, 'stranger')
    const staff = await createStaff()
    const published = await recordedAnalysis(bookings[0]!.bookingId, { metrics: { final_time: 31.2 } })
    const draft = await recordedAnalysis(bookings[1]!.bookingId, { publishedAt: null })
    const owner = { kind: 'account', accountId: customer.userId! } as const

    expect(await maySeeAnalysis({ kind: 'staff', userId: staff.id }, draft.analysisId)).toBe(true)
    expect(await maySeeAnalysis(owner, published.analysisId)).toBe(true)
    expect(await maySeeAnalysis(owner, draft.analysisId)).toBe(false)
    expect(await maySeeAnalysis({ kind: 'account', accountId: stranger!.userId! }, published.analysisId)).toBe(false)
    expect(await maySeeAnalysis(null, published.analysisId)).toBe(false)
    expect(await maySeeSwimmer(owner, customer.swimmerId!)).toBe(true)
    expect(await maySeeSwimmer({ kind: 'account', accountId: stranger!.userId! }, customer.swimmerId!)).toBe(false)

    const whole = newShareToken()
    const one = newShareToken()
    const expiresAt = addDays(new Date(), 1)
    await db().insert(shareLinks).values([
      { accountId: customer.userId!, swimmerId: customer.swimmerId!, tokenHash: whole.tokenHash, expiresAt },
      { accountId: customer.userId!, swimmerId: customer.swimmerId!, analysisId: published.analysisId, tokenHash: one.tokenHash, expiresAt },
    ])
    const coach = await shareViewer(whole.token)
    expect(await maySeeAnalysis(coach, published.analysisId)).toBe(true)
    expect(await maySeeAnalysis(coach, draft.analysisId)).toBe(false)
    expect(await maySeeSwimmer(coach, customer.swimmerId!)).toBe(true)
    const oneAnalysis = await shareViewer(one.token)
    expect(await maySeeAnalysis(oneAnalysis, published.analysisId)).toBe(true)
    expect(await maySeeSwimmer(oneAnalysis, customer.swimmerId!)).toBe(false)

    // Opening records the time; a revoked or expired link, or a made-up token, stands for nobody.
    const [opened] = await db().select({ lastOpenedAt: shareLinks.lastOpenedAt }).from(shareLinks).where(eq(shareLinks.tokenHash, whole.tokenHash))
    expect(opened!.lastOpenedAt).toBeInstanceOf(Date)
    await db().update(shareLinks).set({ revokedAt: new Date() }).where(eq(shareLinks.tokenHash, whole.tokenHash))
    expect(await shareViewer(whole.token)).toBeNull()
    expect(await shareViewer(one.token, new Date(expiresAt.getTime() + 1))).toBeNull()
    expect(await shareViewer(newShareToken().token)).toBeNull()
    expect(await shareViewer('../../etc/passwd')).toBeNull()
  })
})

describe('a booking made as a guest', () => {
  it('is seen by the account of the address it was booked with, and by no other', async () => {
    const { bookings: booked } = await confirmedBookings(['2030-03-04'])
    const [guest, other] = await createCustomers(2, 'guestparent')
    // A guest's single session has no account and no swimmer profile; only its e-mail address.
    await db().update(bookings).set({ userId: null, swimmerId: null, customerEmail: 'GuestParent1@Example.com' }).where(eq(bookings.id, booked[0]!.bookingId))
    const { analysisId } = await recordedAnalysis(booked[0]!.bookingId, { metrics: { final_time: 33.4 } })
    expect(await maySeeAnalysis(viewerOfUser({ id: guest!.userId!, isAdmin: false, email: guest!.email }), analysisId)).toBe(true)
    expect(await maySeeAnalysis(viewerOfUser({ id: other!.userId!, isAdmin: false, email: other!.email }), analysisId)).toBe(false)
  })
})

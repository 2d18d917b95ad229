import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import {
  analyses,
  analysisEvents,
  analysisMetrics,
  bookings,
  campBatches,
  campLine,
  campRegistrations,
  camps,
  campWaitlist,
  consentRequests,
  guardianConsents,
  oneTimeCodes,
  outboxMessages,
  rateLimitBuckets,
  sessions,
  swimmers,
  users,
} from '~/db/schema'
import { addDays, labInstant } from '~/lib/lab-time'
import { registerCustomer } from '~/modules/accounts/registration.server'
import { createSession } from '~/modules/accounts/sessions.server'
import { createStaffBooking } from '~/modules/booking/staff.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { limitHoldAttempts } from '~/modules/holders/holders.server'
import { registrationInput } from '../../../tests/support/accounts'
import { recordedAnalysis } from '../../../tests/support/analyses'
import { createCustomers, createStaff, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { applyRetention } from './retention.server'

useTestDatabase()

const NOW = new Date('2030-05-20T06:30:00Z')
const daysAgo = (days: number) => addDays(NOW, -days)
const exists = async (userId: number) => (await db().select({ id: users.id }).from(users).where(eq(users.id, userId))).length === 1

async function minorAlone(prefix: string, request: { status: 'waiting' | 'refused' | 'agreed' | 'expired'; expiresAt: Date }) {
  const [minor] = await createCustomers(1, prefix)
  await db().insert(consentRequests).values({ swimmerId: minor!.swimmerId!, parentEmail: `${prefix}.parent@example.com`, tokenHash: `hash-${prefix}`, status: request.status, expiresAt: request.expiresAt, createdAt: daysAgo(8) })
  return minor!
}

describe('the retention job', () => {
  it('erases accounts never verified within 7 days, without e-mailing the address', async () => {
    const [old, recent, verified] = await createCustomers(3, 'retained')
    await db().update(users).set({ isVerified: false, createdAt: daysAgo(8) }).where(eq(users.id, old!.userId!))
    await db().update(users).set({ isVerified: false, createdAt: daysAgo(6) }).where(eq(users.id, recent!.userId!))
    await db().update(users).set({ createdAt: daysAgo(30) }).where(eq(users.id, verified!.userId!))
    expect(await applyRetention(NOW)).toMatchObject({ unverifiedAccounts: 1 })
    expect([await exists(old!.userId!), await exists(recent!.userId!), await exists(verified!.userId!)]).toEqual([false, true, true])
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.to, old!.email))).toEqual([])
  })

  it("erases a minor's account whose parent refused or did not answer in 7 days, and tells the minor why", async () => {
    const refused = await minorAlone('refusedminor', { status: 'refused', expiresAt: daysAgo(-3) })
    const unanswered = await minorAlone('silentminor', { status: 'waiting', expiresAt: daysAgo(1) })
    const stillWaiting = await minorAlone('patientminor', { status: 'waiting', expiresAt: daysAgo(-2) })
    const agreed = await minorAlone('luckyminor', { status: 'agreed', expiresAt: daysAgo(1) })
    await db().insert(guardianConsents).values({ swimmerId: agreed.swimmerId!, guardianName: 'A Parent', guardianEmail: 'luckyminor.parent@example.com', emailVerifiedBy: 'consent_link', noticeVersion: 'v', method: 'consent_link', givenAt: daysAgo(2) })

    expect(await applyRetention(NOW)).toMatchObject({ minorsWithoutConsent: 2 })
    expect([await exists(refused.userId!), await exists(unanswered.userId!), await exists(stillWaiting.userId!), await exists(agreed.userId!)]).toEqual([false, false, true, true])
    const [toRefused] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, refused.email))
    expect(toRefused!.text).toContain('did not agree')
    const [toUnanswered] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, unanswered.email))
    expect(toUnanswered!.text).toContain('nobody answered within 7 days')
    // Run again (as a second instance would): nothing more is erased or sent.
    expect(await applyRetention(NOW)).toMatchObject({ unverifiedAccounts: 0, minorsWithoutConsent: 0 })
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.to, refused.email))).toHaveLength(1)
  })

  it("keeps a minor's account whose parent agreed to a later link and withdrew since: only the newest link counts", async () => {
    // The first link was replaced by a second one (as sending it again does), which the parent answered.
    const minor = await minorAlone('withdrawnminor', { status: 'expired', expiresAt: daysAgo(1) })
    await db().insert(consentRequests).values({ swimmerId: minor.swimmerId!, parentEmail: 'withdrawnminor.parent@example.com', tokenHash: 'hash-withdrawnminor-2', status: 'agreed', expiresAt: daysAgo(-5), createdAt: daysAgo(2) })
    await db().insert(guardianConsents).values({ swimmerId: minor.swimmerId!, guardianName: 'A Parent', guardianEmail: 'withdrawnminor.parent@example.com', emailVerifiedBy: 'consent_link', noticeVersion: 'v', method: 'consent_link', givenAt: daysAgo(2), withdrawnAt: daysAgo(1) })
    expect(await applyRetention(NOW)).toMatchObject({ minorsWithoutConsent: 0 })
    expect(await exists(minor.userId!)).toBe(true)
  })

  it('deletes used and expired codes and expired sessions, and keeps live ones', async () => {
    const [customer] = await createCustomers(1, 'coded')
    const userId = customer!.userId!
    await db().insert(oneTimeCodes).values([
      { userId, purpose: 'verify_email', codeHash: 'expired', expiresAt: daysAgo(0.01) },
      { userId, purpose: 'reset_password', codeHash: 'used', expiresAt: daysAgo(-0.01), usedAt: daysAgo(0.005) },
      { userId, purpose: 'delete_account', codeHash: 'live', expiresAt: daysAgo(-0.01) },
    ])
    await createSession(userId, {}, daysAgo(8))
    await createSession(userId, {}, daysAgo(1))
    expect(await applyRetention(NOW)).toMatchObject({ codes: 2 })
    expect((await db().select({ hash: oneTimeCodes.codeHash }).from(oneTimeCodes)).map((code) => code.hash)).toEqual(['live'])
    expect(await db().select().from(sessions)).toHaveLength(1)
  })

  it('blanks what messages said (e-mails and WhatsApp messages) sent or given up on more than 90 days ago', async () => {
    const mail = (status: 'sent' | 'failed' | 'queued', at: Date) => ({
      to: 'someone@example.com',
      subject: `A ${status} e-mail`,
      text: 'Hello Asha',
      html: '<p>Hello Asha</p>',
      attachments: [{ filename: 'a.ics', contentType: 'text/calendar', contentBase64: 'QQ==' }],
      status,
      sentAt: status === 'sent' ? at : null,
      createdAt: at,
    })
    const whatsapp = { ...mail('sent', daysAgo(91)), channel: 'whatsapp' as const, to: '+919845012345', html: null, attachments: [], templateName: 'report_ready', templateParams: ['Asha', 'Aarav'] }
    const [old, recent, failed, queued, oldWhatsApp] = await db()
      .insert(outboxMessages)
      .values([mail('sent', daysAgo(91)), mail('sent', daysAgo(89)), mail('failed', daysAgo(100)), mail('queued', daysAgo(100)), whatsapp])
      .returning({ id: outboxMessages.id })
    expect(await applyRetention(NOW)).toMatchObject({ emailBodies: 3 })
    const rows = new Map((await db().select().from(outboxMessages)).map((row) => [row.id, row]))
    expect(rows.get(old!.id)).toMatchObject({ subject: 'A sent e-mail', text: '', html: null, attachments: [] })
    expect(rows.get(failed!.id)).toMatchObject({ text: '', html: null, attachments: [] })
    expect(rows.get(recent!.id)).toMatchObject({ text: 'Hello Asha' })
    expect(rows.get(queued!.id)).toMatchObject({ text: 'Hello Asha' })
    expect(rows.get(oldWhatsApp!.id)).toMatchObject({ to: '+919845012345', templateName: 'report_ready', text: '', templateParams: null })
  })
})

describe("a stranger's account under a guest's address", () => {
  const GUEST = { name: 'Gita Menon', email: 'gita@example.com', phone: '9845077777' }

  /**
   * Gita, who never registered: a session staff booked for her (its confirmation e-mail), its
   * published results, a camp place with her declaration as guardian, a waitlist place and a camp-line
   * entry, a neighbour's child who named her as parent, and a counter of her attempts to hold seats.
   */
  async function guestOfTheLab() {
    await setWindows([{ date: '2030-06-03', capacity: 4 }])
    await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
    const staff = await createStaff()
    const booking = await createStaffBooking(staff, { productCode: 'single_race', days: 1, date: '2030-06-03', start: '09:00', customer: GUEST, origin: 'complimentary', amountPaise: 0, paymentMethod: null, notes: null }, daysAgo(10))
    await recordedAnalysis(booking.id, { metrics: { final_time: 31.2 } })
    const place = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: { swimmerName: GUEST.name, ...GUEST }, now: daysAgo(10) })
    await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null, confirmedAt: daysAgo(10) }).where(eq(campRegistrations.id, place.id))
    await db().insert(guardianConsents).values({ campRegistrationId: place.id, guardianName: GUEST.name, guardianEmail: GUEST.email, emailVerifiedBy: 'unverified', noticeVersion: 'v', method: 'camp_form', givenAt: daysAgo(10) })
    const [batch] = await db().select({ id: campBatches.id, campId: campBatches.campId }).from(campBatches).where(eq(campBatches.code, 'batch2')).limit(1)
    await db().insert(campWaitlist).values({ campId: batch!.campId, batchId: batch!.id, swimmerName: 'Gopal Menon', email: GUEST.email, phone: GUEST.phone, status: 'waiting', confirmedAt: daysAgo(9) })
    await db().insert(campLine).values({ campCode: 'camp1', batchCode: 'batch2', swimmerName: 'Gopal Menon', email: GUEST.email, phone: GUEST.phone, holderNetwork: '203.0.113.0', outcome: 'full' })
    const [neighbour] = await createCustomers(1, 'neighbour')
    await db().insert(consentRequests).values({ swimmerId: neighbour!.swimmerId!, parentEmail: GUEST.email, tokenHash: 'hash-neighbour', status: 'waiting', expiresAt: daysAgo(-5) })
    await limitHoldAttempts({ network: '203.0.113.0', email: GUEST.email }, NOW)
  }

  /** Everything of Gita's, whole. */
  async function guestsRecords() {
    return {
      bookings: await db().select().from(bookings).orderBy(asc(bookings.id)),
      results: await db().select().from(analysisMetrics).innerJoin(analysisEvents, eq(analysisEvents.id, analysisMetrics.eventId)).innerJoin(analyses, eq(analyses.id, analysisEvents.analysisId)).orderBy(asc(analysisMetrics.id)),
      registrations: await db().select().from(campRegistrations).orderBy(asc(campRegistrations.id)),
      consents: await db().select().from(guardianConsents).orderBy(asc(guardianConsents.id)),
      requests: await db().select().from(consentRequests).where(eq(consentRequests.parentEmail, GUEST.email)),
      waitlist: await db().select().from(campWaitlist),
      line: await db().select().from(campLine),
      counters: await db().select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, `hold:email:${GUEST.email}`)),
      messages: await db().select().from(outboxMessages).where(eq(outboxMessages.to, GUEST.email)).orderBy(asc(outboxMessages.id)),
    }
  }

  it('erasing it after 7 days unverified leaves her bookings, results, camp place, consents and messages as they were', async () => {
    await guestOfTheLab()
    const before = await guestsRecords()
    expect(before.bookings).toMatchObject([{ customerName: GUEST.name, customerEmail: GUEST.email, userId: null, status: 'confirmed' }])
    expect(before.results).toHaveLength(1)
    expect(before.messages.length).toBeGreaterThan(0)
    const stranger = await registerCustomer(registrationInput({ name: 'Not Gita', email: GUEST.email }), { ip: '198.51.100.7', now: daysAgo(8) })

    expect(await applyRetention(NOW)).toMatchObject({ unverifiedAccounts: 1 })
    expect(await exists(stranger.id)).toBe(false)
    expect(await guestsRecords()).toEqual(before)
  })

  it("erasing it at once, as a minor's whose parent refused, leaves her records as they were and e-mails her nothing", async () => {
    await guestOfTheLab()
    const before = await guestsRecords()
    const [minor] = await db().insert(users).values({ name: 'Not Gita', email: GUEST.email, passwordHash: 'x', isVerified: false, createdAt: daysAgo(1) }).returning({ id: users.id })
    const [profile] = await db().insert(swimmers).values({ accountId: minor!.id, isAccountHolder: true, name: 'Not Gita', ageYears: 15, ageGivenOn: '2030-05-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' }).returning({ id: swimmers.id })
    await db().insert(consentRequests).values({ swimmerId: profile!.id, parentEmail: 'accomplice@example.com', tokenHash: 'hash-accomplice', status: 'refused', expiresAt: daysAgo(-6), answeredAt: daysAgo(0.5) })

    expect(await applyRetention(NOW)).toMatchObject({ minorsWithoutConsent: 1 })
    expect(await exists(minor!.id)).toBe(false)
    expect(await guestsRecords()).toEqual(before)
  })
})

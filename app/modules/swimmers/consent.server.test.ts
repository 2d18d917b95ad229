import { desc, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, consentRequests, guardianConsents, outboxMessages, refunds } from '~/db/schema'
import { addDays } from '~/lib/lab-time'
import { registerCustomer } from '~/modules/accounts/registration.server'
import type { Customer } from '~/modules/booking/holds.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { registrationInput } from '../../../tests/support/accounts'
import { bookingRow, createCustomers, setWindows } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { answerConsentLink, consentLinkView, sendConsentRequestAgain } from './consent-requests.server'
import { consentWithdrawalView, withdrawConsent, withdrawConsentByLink } from './consent-withdrawal.server'
import { consentStatusOf, giveConsentAgain, mayBeBooked, PRIVACY_NOTICE_VERSION } from './consent.server'
import { insertSwimmer, swimmersOf } from './swimmers.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

const PARENT = 'parent.rao@example.com'

/** The token of the newest consent link e-mailed to `to`. */
async function linkTokenSentTo(to: string) {
  const [mail] = await db().select({ text: outboxMessages.text }).from(outboxMessages).where(eq(outboxMessages.to, to)).orderBy(desc(outboxMessages.id)).limit(1)
  const token = mail && /\/consent\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1]
  if (!token) throw new Error(`No consent link e-mailed to ${to}`)
  return token
}

/** A 15-year-old who registered alone and named their parent. */
async function minorAlone(now = new Date()) {
  const account = await registerCustomer(registrationInput({ name: 'Kiran Rao', email: 'kiran@example.com', age: '15', parentEmail: PARENT }), { ip: '203.0.113.20', now })
  const [swimmer] = await swimmersOf(account.id)
  return { account, swimmer: swimmer!, token: await linkTokenSentTo(PARENT) }
}

describe("a parent's answer through the consent link", () => {
  it('agreeing records their consent with the notice version, and the swimmer may be booked', async () => {
    const { account, swimmer, token } = await minorAlone()
    expect(await mayBeBooked(swimmer)).toBe(false)
    expect(await consentStatusOf(swimmer)).toMatchObject({ state: 'waiting', parentEmail: PARENT })
    expect(await consentLinkView(token)).toMatchObject({ state: 'open', swimmerFirstName: 'Kiran' })

    expect(await answerConsentLink(token, { agree: true, guardianName: 'Lakshmi Rao' })).toEqual({ outcome: 'agreed', swimmerFirstName: 'Kiran' })
    const [consent] = await db().select().from(guardianConsents).where(eq(guardianConsents.swimmerId, swimmer.id))
    expect(consent).toMatchObject({ guardianName: 'Lakshmi Rao', guardianEmail: PARENT, emailVerifiedBy: 'consent_link', method: 'consent_link', noticeVersion: PRIVACY_NOTICE_VERSION, withdrawnAt: null })
    expect(await mayBeBooked(swimmer)).toBe(true)
    expect(await consentStatusOf(swimmer)).toMatchObject({ state: 'given', guardianName: 'Lakshmi Rao' })
    const [request] = await db().select().from(consentRequests).where(eq(consentRequests.swimmerId, swimmer.id))
    expect(request).toMatchObject({ status: 'agreed' })
    expect(request!.answeredAt).not.toBeNull()
    const [told] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, account.email)).orderBy(desc(outboxMessages.id)).limit(1)
    expect(told!.subject).toMatch(/you can book/)
  })

  it('refusing marks the request refused and records it, and gives no consent', async () => {
    const { swimmer, token } = await minorAlone()
    expect(await answerConsentLink(token, { agree: false })).toMatchObject({ outcome: 'refused' })
    expect(await db().select().from(guardianConsents).where(eq(guardianConsents.swimmerId, swimmer.id))).toEqual([])
    expect(await consentStatusOf(swimmer)).toMatchObject({ state: 'refused' })
    expect(await mayBeBooked(swimmer)).toBe(false)
    const actions = (await db().select({ action: auditLog.action }).from(auditLog)).map((entry) => entry.action)
    expect(actions).toContain('consent.refuse')
  })

  it('answers once: a second answer changes nothing', async () => {
    const { swimmer, token } = await minorAlone()
    await answerConsentLink(token, { agree: false })
    expect(await answerConsentLink(token, { agree: true, guardianName: 'Someone Else' })).toMatchObject({ outcome: 'already_answered' })
    expect(await consentLinkView(token)).toMatchObject({ state: 'answered' })
    expect(await mayBeBooked(swimmer)).toBe(false)
    expect(await consentStatusOf(swimmer)).toMatchObject({ state: 'refused' })
  })

  it('ends when it expires', async () => {
    const { swimmer, token } = await minorAlone()
    const later = addDays(new Date(), 8)
    expect(await consentLinkView(token, later)).toMatchObject({ state: 'expired' })
    expect(await answerConsentLink(token, { agree: true, guardianName: 'Lakshmi Rao' }, later)).toMatchObject({ outcome: 'expired' })
    expect(await mayBeBooked(swimmer, later)).toBe(false)
    expect(await consentStatusOf(swimmer, later)).toEqual({ state: 'missing' })
  })

  it('opens nothing for a token the site never made', async () => {
    await minorAlone()
    expect(await consentLinkView('x'.repeat(43))).toBeNull()
    expect(await consentLinkView("' OR 1=1 --")).toBeNull()
    expect(await answerConsentLink('y'.repeat(43), { agree: false })).toBeNull()
  })
})

describe('sending the link again', () => {
  it('replaces the earlier link: only the newest works, and not more than once every few minutes', async () => {
    const now = new Date()
    const { account, swimmer, token } = await minorAlone(now)
    await sendConsentRequestAgain({ account, swimmer, parentEmail: 'mother.rao@example.com', ip: '203.0.113.21', now })
    const newer = await linkTokenSentTo('mother.rao@example.com')
    expect(await consentLinkView(token, now)).toMatchObject({ state: 'expired' })
    expect(await answerConsentLink(token, { agree: true, guardianName: 'Lakshmi Rao' }, now)).toMatchObject({ outcome: 'expired' })
    expect(await consentStatusOf(swimmer, now)).toMatchObject({ state: 'waiting', parentEmail: 'mother.rao@example.com' })

    await expect(sendConsentRequestAgain({ account, swimmer, parentEmail: 'mother.rao@example.com', ip: '203.0.113.21', now })).rejects.toThrow(RateLimitedError)
    await expect(sendConsentRequestAgain({ account, swimmer, parentEmail: account.email, ip: '203.0.113.21', now })).rejects.toThrow(/own e-mail address/)
    expect(await answerConsentLink(newer, { agree: true, guardianName: 'Lakshmi Rao' }, now)).toMatchObject({ outcome: 'agreed' })
    expect(await mayBeBooked(swimmer, now)).toBe(true)
  })
})

const DATES = ['2030-03-04', '2030-03-05', '2030-03-06', '2030-03-07', '2030-03-08']
// A day and a half before 09:00 on 4 March 2030 in Bangalore.
const EARLY = new Date('2030-03-02T15:30:00Z')

const confirmedBooking = (customer: Customer, start: string) => sandbox.confirmedSession(customer, { date: DATES[0]!, start })

describe("withdrawing a child's consent", () => {
  it('cancels their future bookings, refunded when 24 hours or more ahead, and they cannot be booked until it is given again', async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 2 })))
    const [parent] = await createCustomers(1, 'parent')
    const child = await insertSwimmer(db(), parent!.userId!, 'Kiran Rao', { age: 12, birthDate: null, gender: 'male', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle', participateInEvents: 'no', howDidYouKnow: 'google' }, { isAccountHolder: false, now: new Date() })
    const account = { id: parent!.userId!, name: 'parent 1', email: parent!.email }
    await giveConsentAgain({ account, swimmer: child })
    const forChild = await confirmedBooking({ ...parent!, swimmerId: child.id, swimmerName: child.name }, '10:00')
    const forParent = await confirmedBooking(parent!, '09:00')

    const cancelled = await withdrawConsent({ account, swimmer: child, now: EARLY })
    expect(cancelled.map((booking) => booking.reference)).toEqual([forChild.reference])
    expect((await bookingRow(forChild.bookingId)).status).toBe('cancelled')
    expect((await bookingRow(forParent.bookingId)).status).toBe('confirmed')
    expect(await db().select().from(refunds)).toHaveLength(1)
    expect(await mayBeBooked(child, EARLY)).toBe(false)
    expect(await consentStatusOf(child, EARLY)).toEqual({ state: 'missing' })
    const [withdrawal] = await db().select().from(auditLog).where(eq(auditLog.action, 'consent.withdraw'))
    expect(withdrawal).toMatchObject({ actorId: account.id, actorEmail: account.email, entityType: 'swimmer', entityId: String(child.id) })
    await expect(withdrawConsent({ account, swimmer: child, now: EARLY })).rejects.toThrow(/no consent in force/)

    await giveConsentAgain({ account, swimmer: child, now: EARLY })
    expect(await mayBeBooked(child, EARLY)).toBe(true)
    const given = await db().select().from(guardianConsents).where(eq(guardianConsents.swimmerId, child.id))
    expect(given.map((consent) => [consent.method, consent.withdrawnAt === null])).toEqual([
      ['registration_form', false],
      ['registration_form', true],
    ])
  })

  it('is not for a swimmer under 18 who holds the account: their parent gave it through the link', async () => {
    const { account, swimmer, token } = await minorAlone()
    await answerConsentLink(token, { agree: true, guardianName: 'Lakshmi Rao' })
    await expect(withdrawConsent({ account, swimmer })).rejects.toThrow(/through the link in the e-mail that confirmed it/)
    expect(await mayBeBooked(swimmer)).toBe(true)
  })

  it('by the parent who agreed through the link: the e-mail confirming their consent carries a link that withdraws it, once, and opens nothing else', async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 2 })))
    const { account, swimmer, token } = await minorAlone()
    await answerConsentLink(token, { agree: true, guardianName: 'Lakshmi Rao' })
    const [confirmation] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, PARENT)).orderBy(desc(outboxMessages.id)).limit(1)
    expect(confirmation!.subject).toBe('Your consent for Kiran at Swimming Sport Science Lab')
    const [, consentId, key] = /\/consent\/withdraw\/(\d+)\?key=([A-Za-z0-9_-]+)/.exec(confirmation!.text)!
    const booking = await confirmedBooking({ userId: account.id, swimmerId: swimmer.id, swimmerName: swimmer.name, name: account.name, email: account.email, phone: '9845012345', swimmingExperience: 'beginner' }, '10:00')

    // Another consent's id, a key of another kind, or no key: nothing is shown and nothing changes.
    expect(await consentWithdrawalView(String(Number(consentId) + 1), key!)).toBeNull()
    expect(await consentWithdrawalView(consentId!, 'x'.repeat(32))).toBeNull()
    expect(await withdrawConsentByLink(consentId!, null)).toBeNull()
    expect(await mayBeBooked(swimmer)).toBe(true)

    const view = await consentWithdrawalView(consentId!, key!, EARLY)
    expect(view).toMatchObject({ swimmerFirstName: 'Kiran', withdrawnAt: null })
    expect(view!.future.map((future) => future.reference)).toEqual([booking.reference])

    expect(await withdrawConsentByLink(consentId!, key!, EARLY)).toBe('withdrawn')
    // Under 18 today (by 2030 Kiran is of age, and needs nobody's consent).
    expect(await mayBeBooked(swimmer)).toBe(false)
    expect((await bookingRow(booking.bookingId)).status).toBe('cancelled')
    expect(await db().select().from(refunds)).toHaveLength(1)
    const [withdrawal] = await db().select().from(auditLog).where(eq(auditLog.action, 'consent.withdraw'))
    expect(withdrawal).toMatchObject({ actorId: null, actorEmail: PARENT, entityType: 'swimmer', entityId: String(swimmer.id) })
    const told = await db().select({ to: outboxMessages.to, subject: outboxMessages.subject }).from(outboxMessages).where(eq(outboxMessages.subject, 'Consent withdrawn for Kiran'))
    expect(told).toEqual([{ to: PARENT, subject: 'Consent withdrawn for Kiran' }])
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.subject, 'Your parent has withdrawn their consent at Swimming Sport Science Lab'))).toHaveLength(1)

    expect(await withdrawConsentByLink(consentId!, key!, EARLY)).toBe('already')
    expect(await consentWithdrawalView(consentId!, key!, EARLY)).toMatchObject({ withdrawnAt: EARLY, future: [] })
  })
})

describe('a guest camp registration', () => {
  it("keeps the declaration that the swimmer is an adult or that the person registering is the parent", async () => {
    const now = new Date()
    const hold = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: { swimmerName: 'Arjun Menon', email: 'Menon@example.com', phone: '9845012345', guardianDeclaration: true }, now })
    const [consent] = await db().select().from(guardianConsents).where(eq(guardianConsents.campRegistrationId, hold.id))
    expect(consent).toMatchObject({ swimmerId: null, guardianName: 'Parent or guardian of Arjun Menon', guardianEmail: 'menon@example.com', emailVerifiedBy: 'unverified', method: 'camp_form', noticeVersion: PRIVACY_NOTICE_VERSION })
  })
})

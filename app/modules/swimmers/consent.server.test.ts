import { desc, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, campLine, campWaitlist, consentRequests, guardianConsents, outboxMessages, refunds } from '~/db/schema'
import { addDays, addMinutes } from '~/lib/lab-time'
import { registerCustomer, verifyEmail } from '~/modules/accounts/registration.server'
import type { Customer } from '~/modules/booking/holds.server'
import { joinCampLine } from '~/modules/camps/line.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { joinWaitlist } from '~/modules/camps/waitlist.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { createVerifiedCustomer, latestCodeSentTo, registrationInput } from '../../../tests/support/accounts'
import { bookingRow, createCustomers, setWindows } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { answerConsentLink, consentLinkView, OnlyWithdrawingParentError, sendConsentRequestAgain } from './consent-requests.server'
import { consentWithdrawalView, withdrawConsent, withdrawConsentByLink } from '~/modules/future-bookings/consent-withdrawal.server'
import {
  assertMayDeclareAsGuardian,
  confirmConsent,
  consentStatusOf,
  consentsToConfirm,
  giveConsentAgain,
  GuardianDeclarationRefusedError,
  mayBeBooked,
  PRIVACY_NOTICE_VERSION,
  reopenConsentAsking,
} from './consent.server'
import { insertSwimmer, swimmersOf } from './swimmers.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

const PARENT = 'parent.rao@example.com'

/** Who acts for the lab in the audit log. */
async function staffMember() {
  const { user } = await createVerifiedCustomer({ name: 'Staff Member', email: 'staff@lab.example' }, '203.0.113.99')
  return { id: user.id, email: user.email }
}

/** The token of the newest consent link e-mailed to `to`. */
async function linkTokenSentTo(to: string) {
  const [mail] = await db().select({ text: outboxMessages.text }).from(outboxMessages).where(eq(outboxMessages.to, to)).orderBy(desc(outboxMessages.id)).limit(1)
  const token = mail && /\/consent\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1]
  if (!token) throw new Error(`No consent link e-mailed to ${to}`)
  return token
}

/** A 15-year-old who registered alone, named their parent and verified their own address (which asks the parent). */
async function minorAlone(now = new Date(), { name = 'Kiran Rao', email = 'kiran@example.com', parentEmail = PARENT } = {}) {
  const account = await registerCustomer(registrationInput({ name, email, age: '15', parentEmail }), { ip: '203.0.113.20', now })
  const { code } = await latestCodeSentTo(email)
  expect((await verifyEmail({ email, code, ip: '203.0.113.20', pendingAccountId: account.id, now })).ok).toBe(true)
  const [swimmer] = await swimmersOf(account.id)
  return { account, swimmer: swimmer!, token: await linkTokenSentTo(parentEmail) }
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

describe("the parent of a swimmer under 18 who registers alone", () => {
  it("is asked only once the swimmer's own address is verified, with a link that runs from then", async () => {
    const registeredAt = new Date('2027-03-10T06:00:00Z')
    const account = await registerCustomer(registrationInput({ name: 'Kiran Rao', email: 'kiran@example.com', age: '15', parentEmail: PARENT }), { ip: '203.0.113.20', now: registeredAt })
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.to, PARENT))).toEqual([])
    const [held] = await db().select().from(consentRequests)
    expect(held).toMatchObject({ parentEmail: PARENT, status: 'unsent', tokenHash: null })
    // Nobody can answer a request that was never sent.
    expect(await consentLinkView('A'.repeat(43))).toBeNull()

    const verifiedAt = addMinutes(registeredAt, 20)
    const { code } = await latestCodeSentTo('kiran@example.com')
    await verifyEmail({ email: 'kiran@example.com', code, ip: '203.0.113.20', pendingAccountId: account.id, now: verifiedAt })
    const token = await linkTokenSentTo(PARENT)
    const [sent] = await db().select().from(consentRequests)
    expect(sent).toMatchObject({ parentEmail: PARENT, status: 'waiting', expiresAt: addDays(verifiedAt, 7) })
    expect(await consentLinkView(token, verifiedAt)).toMatchObject({ state: 'open' })
  })

  it('is not asked when the address is verified in another browser: the owner, who may not have typed it, sees it and sends the link', async () => {
    const account = await registerCustomer(registrationInput({ name: 'Kiran Rao', email: 'kiran@example.com', age: '15', parentEmail: PARENT }), { ip: '203.0.113.20' })
    const { code } = await latestCodeSentTo('kiran@example.com')
    expect((await verifyEmail({ email: 'kiran@example.com', code, ip: '203.0.113.20', newPassword: 'owners-own-2027' })).ok).toBe(true)
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.to, PARENT))).toEqual([])
    const [swimmer] = await swimmersOf(account.id)
    expect(await consentStatusOf(swimmer!)).toEqual({ state: 'not_asked', parentEmail: PARENT })
    expect(await mayBeBooked(swimmer!)).toBe(false)

    await sendConsentRequestAgain({ account, swimmer: swimmer!, parentEmail: PARENT, ip: '203.0.113.20' })
    expect(await consentStatusOf(swimmer!)).toMatchObject({ state: 'waiting', parentEmail: PARENT })
    expect(await db().select({ status: consentRequests.status }).from(consentRequests)).toEqual([{ status: 'waiting' }])
    await linkTokenSentTo(PARENT)
  })
})

describe("a signed-in account and the guest forms' parent-or-guardian declaration", () => {
  it('is refused for an account of a swimmer under 18, waiting for consent or not, and allowed for an adult or a parent', async () => {
    const { account, swimmer, token } = await minorAlone()
    await expect(assertMayDeclareAsGuardian(account.id)).rejects.toThrow(GuardianDeclarationRefusedError)
    await answerConsentLink(token, { agree: true, guardianName: 'Lakshmi Rao' })
    expect(await mayBeBooked(swimmer)).toBe(true)
    await expect(assertMayDeclareAsGuardian(account.id)).rejects.toThrow(GuardianDeclarationRefusedError)

    const { user: adult } = await createVerifiedCustomer({ email: 'adult@example.com' })
    await expect(assertMayDeclareAsGuardian(adult.id)).resolves.toBeUndefined()
    const { user: parent } = await createVerifiedCustomer({ email: 'parent.of.child@example.com', whoSwims: 'child', swimmerName: 'Arjun Menon', age: '9', guardianDeclaration: 'on' })
    await expect(assertMayDeclareAsGuardian(parent.id)).resolves.toBeUndefined()
  })

  it("refuses a minor's account on the camp line and the waitlist before anything is kept", async () => {
    const { account } = await minorAlone()
    const refused = new GuardianDeclarationRefusedError()
    const applicant = { swimmerName: 'Kiran Rao', email: 'kiran@example.com', phone: '+919845012345', guardianDeclaration: true as const }
    await expect(joinCampLine({ campCode: 'camp1', batchCode: 'batch1', applicant, holder: { userId: account.id, email: 'kiran@example.com', network: '203.0.113.0', browser: null } })).rejects.toThrow(refused)
    await expect(joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant, accountId: account.id, ip: '203.0.113.20' })).rejects.toThrow(refused)
    expect(await db().select().from(campLine)).toEqual([])
    expect(await db().select().from(campWaitlist)).toEqual([])
  })
})

describe('after a parent withdraws through their link', () => {
  async function withdrawn() {
    const minor = await minorAlone()
    await answerConsentLink(minor.token, { agree: true, guardianName: 'Lakshmi Rao' })
    const [consent] = await db().select().from(guardianConsents).where(eq(guardianConsents.swimmerId, minor.swimmer.id))
    const [mail] = await db().select({ text: outboxMessages.text }).from(outboxMessages).where(eq(outboxMessages.subject, 'Your consent for Kiran at Swimming Sport Science Lab'))
    const key = /\/consent\/withdraw\/\d+\?key=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!
    expect(await withdrawConsentByLink(String(consent!.id), key)).toBe('withdrawn')
    return minor
  }

  it('a new link goes only to the address that withdrew', async () => {
    const { account, swimmer } = await withdrawn()
    const ip = '203.0.113.21'
    await expect(sendConsentRequestAgain({ account, swimmer, parentEmail: 'kiran.second@example.com', ip })).rejects.toThrow(new OnlyWithdrawingParentError(PARENT))
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.to, 'kiran.second@example.com'))).toEqual([])
    await sendConsentRequestAgain({ account, swimmer, parentEmail: PARENT.toUpperCase(), ip })
    expect(await consentStatusOf(swimmer)).toMatchObject({ state: 'waiting', parentEmail: PARENT })
    // Having answered for this account before is no reason to doubt the parent.
    await answerConsentLink(await linkTokenSentTo(PARENT), { agree: true, guardianName: 'Lakshmi Rao' })
    expect(await mayBeBooked(swimmer)).toBe(true)
  })

  it('staff re-open asking another address, once, for a swimmer of that account only', async () => {
    const { account, swimmer } = await withdrawn()
    const actor = await staffMember()
    expect(await reopenConsentAsking({ accountId: account.id + 1, swimmerId: swimmer.id, actor })).toBe(false)
    expect(await reopenConsentAsking({ accountId: account.id, swimmerId: swimmer.id, actor })).toBe(true)
    expect(await reopenConsentAsking({ accountId: account.id, swimmerId: swimmer.id, actor })).toBe(false)
    const [reopened] = await db().select().from(auditLog).where(eq(auditLog.action, 'consent.reopen'))
    expect(reopened).toMatchObject({ actorEmail: 'staff@lab.example', entityType: 'swimmer', entityId: String(swimmer.id) })
    await sendConsentRequestAgain({ account, swimmer, parentEmail: 'kiran.guardian@example.com', ip: '203.0.113.22' })
    expect(await consentStatusOf(swimmer)).toMatchObject({ state: 'waiting', parentEmail: 'kiran.guardian@example.com' })
  })
})

describe("a consent from an address that may be the swimmer's own", () => {
  it('an account with the address registered the same day (Bangalore): nothing can be booked until staff confirm it', async () => {
    // 20:00 UTC on 9 March is 01:30 on 10 March in Bangalore, the day the swimmer registers.
    const parentRegistered = new Date('2027-03-09T20:00:00Z')
    await registerCustomer(registrationInput({ name: 'Parent Rao', email: PARENT }), { ip: '203.0.113.30', now: parentRegistered })
    const { swimmer, token, account } = await minorAlone(new Date('2027-03-10T12:00:00Z'))
    await answerConsentLink(token, { agree: true, guardianName: 'Lakshmi Rao' }, new Date('2027-03-10T13:00:00Z'))
    const now = new Date('2027-03-10T13:00:00Z')
    expect(await mayBeBooked(swimmer, now)).toBe(false)
    expect(await consentStatusOf(swimmer, now)).toMatchObject({ state: 'checking', guardianName: 'Lakshmi Rao' })
    const [told] = await db().select({ subject: outboxMessages.subject }).from(outboxMessages).where(eq(outboxMessages.to, account.email)).orderBy(desc(outboxMessages.id)).limit(1)
    expect(told!.subject).not.toMatch(/you can book/)
    const listed = await consentsToConfirm()
    expect(listed).toMatchObject([{ swimmerName: 'Kiran Rao', guardianEmail: PARENT, weakBecause: 'same_day_account', accountEmail: 'kiran@example.com' }])

    const actor = await staffMember()
    expect(await confirmConsent({ consentId: listed[0]!.consentId, actor, now })).toBe(true)
    expect(await confirmConsent({ consentId: listed[0]!.consentId, actor, now })).toBe(false)
    expect(await mayBeBooked(swimmer, now)).toBe(true)
    expect(await consentStatusOf(swimmer, now)).toMatchObject({ state: 'given' })
    expect(await consentsToConfirm()).toEqual([])
    const [confirmed] = await db().select().from(auditLog).where(eq(auditLog.action, 'consent.confirm'))
    expect(confirmed).toMatchObject({ actorEmail: 'staff@lab.example', entityId: String(swimmer.id) })
  })

  it('an account with the address registered on another day is no reason', async () => {
    await registerCustomer(registrationInput({ name: 'Parent Rao', email: PARENT }), { ip: '203.0.113.30', now: new Date('2027-03-09T12:00:00Z') })
    const { swimmer, token } = await minorAlone(new Date('2027-03-10T12:00:00Z'))
    const now = new Date('2027-03-10T13:00:00Z')
    await answerConsentLink(token, { agree: true, guardianName: 'Lakshmi Rao' }, now)
    expect(await mayBeBooked(swimmer, now)).toBe(true)
  })

  it('an address that has answered for a swimmer of another account', async () => {
    const first = await minorAlone()
    await answerConsentLink(first.token, { agree: true, guardianName: 'Lakshmi Rao' })
    expect(await mayBeBooked(first.swimmer)).toBe(true)
    const second = await minorAlone(new Date(), { name: 'Meera Iyer', email: 'meera@example.com' })
    await answerConsentLink(second.token, { agree: true, guardianName: 'Lakshmi Rao' })
    expect(await mayBeBooked(second.swimmer)).toBe(false)
    expect(await consentsToConfirm()).toMatchObject([{ swimmerName: 'Meera Iyer', weakBecause: 'answers_for_others' }])
  })
})


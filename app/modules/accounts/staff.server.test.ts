import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, oneTimeCodes, sessions } from '~/db/schema'
import { addDays, labToday } from '~/lib/lab-time'
import type { Actor } from '~/modules/audit/audit.server'
import { holdSession } from '~/modules/booking/holds.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { createVerifiedCustomer, latestCodeSentTo, mailCount, registrationInput, swimmerInput, userRow } from '../../../tests/support/accounts'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { LIMITS } from '~/modules/rate-limit/limits.server'
import { registerCustomer, verifyEmail } from './registration.server'
import { findSessionUser } from './sessions.server'
import { signIn } from './sign-in.server'
import {
  AccountDisabledError,
  AlreadyVerifiedError,
  CannotDisableStaffError,
  customerDetails,
  CustomerNotFoundError,
  disableCustomer,
  enableCustomer,
  resendVerification,
  searchCustomers,
} from './staff.server'
import { ensureAdmin } from './users.server'

useTestDatabase()

const STAFF_IP = '198.51.100.7'
let actor: Actor
beforeEach(async () => {
  const email = 'staff@lab.example'
  actor = { id: (await ensureAdmin({ email, password: 'staff-password-1' })).id, email }
})

const entries = () => db().select({ actorId: auditLog.actorId, action: auditLog.action, entityType: auditLog.entityType, entityId: auditLog.entityId, accountId: auditLog.accountId, summary: auditLog.summary, personal: auditLog.personal, before: auditLog.before, after: auditLog.after }).from(auditLog).orderBy(auditLog.id)

describe('finding customers', () => {
  beforeEach(async () => {
    await createVerifiedCustomer({ name: 'Asha Rao', email: 'asha@example.com', phone: '+91 98450 12345' }, '203.0.113.1')
    await createVerifiedCustomer({ name: 'Ravi Kumar', email: 'ravi.k@example.com', phone: '9900011122' }, '203.0.113.2')
  })

  const names = async (query: string) => (await searchCustomers(query)).map((row) => row.name)

  it('by part of the name or e-mail address, in any letter case', async () => {
    expect(await names('ASHA')).toEqual(['Asha Rao'])
    expect(await names('Ravi.K@Example')).toEqual(['Ravi Kumar'])
    expect(await names('kumar')).toEqual(['Ravi Kumar'])
  })

  it("by the name of one of the account's swimmers", async () => {
    const asha = await userRow('asha@example.com')
    await insertSwimmer(db(), asha!.id, 'Kavya Menon', swimmerInput(), { isAccountHolder: false, now: new Date() })
    expect(await names('kavya')).toEqual(['Asha Rao'])
    expect(await names('menon')).toEqual(['Asha Rao'])
  })

  it('by phone number, however it is spaced', async () => {
    expect(await names('98450 12345')).toEqual(['Asha Rao'])
    expect(await names('9845012345')).toEqual(['Asha Rao'])
    expect(await names('990-001-1122')).toEqual(['Ravi Kumar'])
  })

  it('lists the newest customers without a query, and never staff', async () => {
    expect(await names('')).toEqual(['Ravi Kumar', 'Asha Rao'])
    expect(await names('lab.example')).toEqual([])
  })

  it('treats % and _ as the characters themselves', async () => {
    expect(await names('%')).toEqual([])
    expect(await names('ravi_k')).toEqual([])
  })
})

describe("a customer's details", () => {
  it('include their bookings, guest bookings and camp registrations under their address', async () => {
    const { user } = await createVerifiedCustomer({ name: 'Asha Rao', email: 'asha@example.com' })
    const date = addDays(labToday(), 10)
    await setWindows([0, 1, 2, 3].map((offset) => ({ date: addDays(date, offset), capacity: 2 })))
    const own = await holdSession({ customer: { userId: user.id, swimmerId: null, swimmerName: user.name, name: user.name, email: user.email, phone: user.phone, swimmingExperience: 'advanced' }, productCode: 'biomechanical_package', date, start: '09:00', days: 3 })
    const asGuest = await holdSession({ customer: { userId: null, swimmerId: null, swimmerName: 'Asha Rao', name: 'Asha Rao', email: 'asha@example.com', phone: null, swimmingExperience: null }, productCode: 'single_race', date, start: '10:00', days: 1 })
    const camp = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch2', applicant: { swimmerName: 'Kiran Rao', email: 'Asha@Example.com', phone: '9845012345' } })
    await holdCampSeat({ campCode: 'camp1', batchCode: 'batch2', applicant: { swimmerName: 'Someone Else', email: 'other@example.com', phone: '9845012345' } })

    const details = await customerDetails(user.id)
    expect(details?.customer).toMatchObject({ name: 'Asha Rao', email: 'asha@example.com', isVerified: true, disabledAt: null, sessionCount: 1 })
    expect(details?.swimmers).toMatchObject([{ name: 'Asha Rao', isAccountHolder: true, specialization: 'butterfly' }])
    expect(details?.bookings.map((booking) => booking.reference).sort()).toEqual([own.reference, asGuest.reference].sort())
    expect(details?.registrations).toEqual([expect.objectContaining({ reference: camp.reference, swimmerName: 'Kiran Rao', campName: 'Camp 1', batchName: 'Batch 2', status: 'pending' })])
  })

  it('are not given for a staff account or an unknown id', async () => {
    expect(await customerDetails(actor.id)).toBeNull()
    expect(await customerDetails(actor.id + 1000)).toBeNull()
  })
})

describe('disabling an account', () => {
  it('signs the customer out everywhere at once and stops them signing in, until it is enabled again', async () => {
    const { user, session, password } = await createVerifiedCustomer({ email: 'asha@example.com' })
    const second = await signIn({ email: 'asha@example.com', password, ip: '203.0.113.20' })
    expect(second.ok).toBe(true)

    const now = new Date()
    expect(await disableCustomer({ actor, userId: user.id, now })).toBe(true)
    expect(await findSessionUser(session.token)).toBeNull()
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
    expect(await signIn({ email: 'asha@example.com', password, ip: '203.0.113.20' })).toEqual({ ok: false, reason: 'invalid' })
    expect((await userRow('asha@example.com'))?.disabledAt).toEqual(now)

    expect(await enableCustomer({ actor, userId: user.id })).toBe(true)
    expect((await signIn({ email: 'asha@example.com', password, ip: '203.0.113.20' })).ok).toBe(true)

    expect(await entries()).toEqual([
      {
        actorId: actor.id,
        action: 'customer.disable',
        entityType: 'customer',
        entityId: String(user.id),
        accountId: user.id,
        summary: 'Disabled the account of {customer} ({email}) and signed them out everywhere',
        personal: { customer: 'Asha Rao', email: 'asha@example.com' },
        before: { disabledAt: null, signedInSessions: 2 },
        after: { disabledAt: now.toISOString(), signedInSessions: 0 },
      },
      {
        actorId: actor.id,
        action: 'customer.enable',
        entityType: 'customer',
        entityId: String(user.id),
        accountId: user.id,
        summary: 'Re-enabled the account of {customer} ({email})',
        personal: { customer: 'Asha Rao', email: 'asha@example.com' },
        before: { disabledAt: now.toISOString() },
        after: { disabledAt: null },
      },
    ])
  })

  it('does nothing (and logs nothing) a second time', async () => {
    const { user } = await createVerifiedCustomer()
    await disableCustomer({ actor, userId: user.id })
    expect(await disableCustomer({ actor, userId: user.id })).toBe(false)
    await enableCustomer({ actor, userId: user.id })
    expect(await enableCustomer({ actor, userId: user.id })).toBe(false)
    expect((await entries()).map((entry) => entry.action)).toEqual(['customer.disable', 'customer.enable'])
  })

  it('is refused for your own account and for another admin', async () => {
    const other = await ensureAdmin({ email: 'colleague@lab.example', password: 'colleague-password-1' })
    await expect(disableCustomer({ actor, userId: actor.id })).rejects.toThrow('You cannot disable your own account.')
    await expect(disableCustomer({ actor, userId: other.id })).rejects.toThrow(CannotDisableStaffError)
    await expect(disableCustomer({ actor, userId: other.id })).rejects.toThrow('Staff accounts cannot be disabled here.')
    expect((await signIn({ email: 'colleague@lab.example', password: 'colleague-password-1', ip: '203.0.113.21' })).ok).toBe(true)
    expect(await entries()).toEqual([])
  })

  it('is refused for an account that does not exist', async () => {
    await expect(disableCustomer({ actor, userId: actor.id + 1000 })).rejects.toThrow(CustomerNotFoundError)
  })
})

describe('resending the verification code', () => {
  it('e-mails a new code; the old one stops working and the new one verifies', async () => {
    const input = registrationInput({ email: 'new@example.com' })
    const user = await registerCustomer(input, { ip: '203.0.113.30' })
    const first = await latestCodeSentTo('new@example.com')

    await resendVerification({ actor, userId: user.id, ip: STAFF_IP })
    expect(await mailCount('new@example.com')).toBe(2)
    const second = await latestCodeSentTo('new@example.com')
    expect(second.subject).toBe(first.subject)
    expect(await db().select({ id: oneTimeCodes.id }).from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id))).toHaveLength(1)
    if (first.code !== second.code) expect((await verifyEmail({ email: 'new@example.com', code: first.code, ip: '203.0.113.30', pendingAccountId: user.id })).ok).toBe(false)
    expect((await verifyEmail({ email: 'new@example.com', code: second.code, ip: '203.0.113.30', pendingAccountId: user.id })).ok).toBe(true)

    expect(await entries()).toEqual([
      {
        actorId: actor.id,
        action: 'customer.resend-verification',
        entityType: 'customer',
        entityId: String(user.id),
        accountId: user.id,
        summary: 'E-mailed a new verification code to {email}',
        personal: { email: 'new@example.com' },
        before: { isVerified: false },
        after: { verificationCodeSent: true },
      },
    ])
  })

  it('is refused for a verified or disabled account, without an e-mail', async () => {
    const { user } = await createVerifiedCustomer({ email: 'done@example.com' })
    await expect(resendVerification({ actor, userId: user.id, ip: STAFF_IP })).rejects.toThrow(AlreadyVerifiedError)

    const pending = await registerCustomer(registrationInput({ email: 'later@example.com' }), { ip: '203.0.113.31' })
    await disableCustomer({ actor, userId: pending.id })
    await expect(resendVerification({ actor, userId: pending.id, ip: STAFF_IP })).rejects.toThrow(AccountDisabledError)
    expect([await mailCount('done@example.com'), await mailCount('later@example.com')]).toEqual([1, 1])
    expect((await entries()).map((entry) => entry.action)).toEqual(['customer.disable'])
  })

  it('counts against the same limit as the customer asking themselves, so no inbox is flooded', async () => {
    const user = await registerCustomer(registrationInput({ email: 'flood@example.com' }), { ip: '203.0.113.32' })
    const allowed = LIMITS.codeSendingPerAccount.limit - 1
    for (let sent = 0; sent < allowed; sent += 1) await resendVerification({ actor, userId: user.id, ip: STAFF_IP })
    await expect(resendVerification({ actor, userId: user.id, ip: STAFF_IP })).rejects.toThrow(RateLimitedError)
    expect(await mailCount('flood@example.com')).toBe(1 + allowed)
    expect(await entries()).toHaveLength(allowed)
  })
})

import { describe, expect, it, vi } from 'vitest'
import { addMinutes } from '~/lib/lab-time'
import { createVerifiedCustomer, latestCodeSentTo, mailCount, registrationInput, userRow, wrongCode } from '../../../tests/support/accounts'
import { useTestDatabase } from '../../../tests/support/test-database'
import { RateLimitedError } from '../rate-limit/rate-limit.server'
import { requestPasswordReset, resetPassword } from './password-reset.server'
import { registerCustomer } from './registration.server'
import { findSessionUser } from './sessions.server'
import { COMMON_PASSWORD, STAFF_PASSWORD_TOO_SHORT } from './password-policy.server'
import * as passwords from './passwords.server'
import { signIn } from './sign-in.server'
import { ensureAdmin } from './users.server'
import { consentStatusOf } from '~/modules/swimmers/consent.server'
import { swimmersOf } from '~/modules/swimmers/swimmers.server'

useTestDatabase()
const ip = '198.51.100.9'

describe('password reset', () => {
  it('e-mails a code to the address; with it, a new password works and the old one does not', async () => {
    const { password } = await createVerifiedCustomer()
    await requestPasswordReset({ email: 'Asha@Example.com', ip })
    const mail = await latestCodeSentTo('asha@example.com')
    expect(mail.subject).toMatch(/password reset code/i)
    expect(mail.text).toContain(`/forgot-password?email=asha%40example.com&code=${mail.code}`)

    expect(await resetPassword({ email: 'asha@example.com', code: mail.code, password: 'new-password-1', ip })).toEqual({ ok: true, userId: (await userRow('asha@example.com'))!.id })
    expect(await signIn({ email: 'asha@example.com', password, ip })).toEqual({ ok: false, reason: 'invalid' })
    expect((await signIn({ email: 'asha@example.com', password: 'new-password-1', ip })).ok).toBe(true)
  })

  it("verifies an address never verified, and leaves the parent a minor named unasked: whoever typed that address may not be the owner", async () => {
    await registerCustomer(registrationInput({ email: 'teen@example.com', age: '15', parentEmail: 'mum.of.teen@example.com' }), { ip })
    await requestPasswordReset({ email: 'teen@example.com', ip })
    const { code } = await latestCodeSentTo('teen@example.com')
    expect((await resetPassword({ email: 'teen@example.com', code, password: 'new-password-1', ip })).ok).toBe(true)
    expect((await userRow('teen@example.com'))!.isVerified).toBe(true)
    expect(await mailCount('mum.of.teen@example.com')).toBe(0)
    const [teen] = await swimmersOf((await userRow('teen@example.com'))!.id)
    expect(await consentStatusOf(teen!)).toEqual({ state: 'not_asked', parentEmail: 'mum.of.teen@example.com' })
  })

  it('sends nothing for an address without an account, and answers the same way', async () => {
    await expect(requestPasswordReset({ email: 'nobody@example.com', ip })).resolves.toBeUndefined()
    expect(await mailCount('nobody@example.com')).toBe(0)
  })

  it('an address alone can never reset a password', async () => {
    const { password } = await createVerifiedCustomer()
    expect(await resetPassword({ email: 'asha@example.com', code: '000000', password: 'hijacked-password', ip })).toEqual({ ok: false, check: { status: 'missing' } })
    expect((await signIn({ email: 'asha@example.com', password, ip })).ok).toBe(true)
  })

  it('a reset code works only once', async () => {
    await createVerifiedCustomer()
    await requestPasswordReset({ email: 'asha@example.com', ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    expect((await resetPassword({ email: 'asha@example.com', code, password: 'new-password-1', ip })).ok).toBe(true)
    expect(await resetPassword({ email: 'asha@example.com', code, password: 'new-password-2', ip })).toEqual({ ok: false, check: { status: 'missing' } })
    expect((await signIn({ email: 'asha@example.com', password: 'new-password-1', ip })).ok).toBe(true)
  })

  it('five wrong codes invalidate the reset code', async () => {
    await createVerifiedCustomer()
    await requestPasswordReset({ email: 'asha@example.com', ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    for (let i = 0; i < 5; i += 1) await resetPassword({ email: 'asha@example.com', code: wrongCode(code), password: 'new-password-1', ip })
    expect(await resetPassword({ email: 'asha@example.com', code, password: 'new-password-1', ip })).toEqual({ ok: false, check: { status: 'exhausted' } })
  })

  it('a reset code expires after 30 minutes', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    await createVerifiedCustomer()
    await requestPasswordReset({ email: 'asha@example.com', ip, now })
    const { code } = await latestCodeSentTo('asha@example.com')
    const later = addMinutes(now, 30)
    expect(await resetPassword({ email: 'asha@example.com', code, password: 'new-password-1', ip, now: later })).toEqual({ ok: false, check: { status: 'expired' } })
  })

  it('signs the account out everywhere', async () => {
    const { password, session: first } = await createVerifiedCustomer()
    const second = await signIn({ email: 'asha@example.com', password, ip })
    if (!second.ok) throw new Error('sign-in failed')
    await requestPasswordReset({ email: 'asha@example.com', ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    await resetPassword({ email: 'asha@example.com', code, password: 'new-password-1', ip })
    expect(await findSessionUser(first.token)).toBeNull()
    expect(await findSessionUser(second.session.token)).toBeNull()
  })

  it('a verification code cannot be used as a reset code', async () => {
    await registerCustomer(registrationInput(), { ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    expect(await resetPassword({ email: 'asha@example.com', code, password: 'new-password-1', ip })).toEqual({ ok: false, check: { status: 'missing' } })
  })

  it('completing a reset verifies an address that was never verified', async () => {
    await registerCustomer(registrationInput(), { ip })
    await requestPasswordReset({ email: 'asha@example.com', ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    await resetPassword({ email: 'asha@example.com', code, password: 'new-password-1', ip })
    expect((await userRow('asha@example.com'))!.isVerified).toBe(true)
  })

  it('hashes the new password for an unknown address too, so the time taken does not tell', async () => {
    await createVerifiedCustomer()
    await requestPasswordReset({ email: 'asha@example.com', ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    const hashing = vi.spyOn(passwords, 'hashPassword')
    const known = await resetPassword({ email: 'asha@example.com', code: wrongCode(code), password: 'new-password-1', ip })
    expect(hashing).toHaveBeenCalledTimes(1)
    const unknown = await resetPassword({ email: 'nobody@example.com', code: wrongCode(code), password: 'new-password-1', ip })
    expect(hashing).toHaveBeenCalledTimes(2)
    hashing.mockRestore()
    expect([known.ok, unknown.ok]).toEqual([false, false])
  })

  it('refuses a common password before anything else', async () => {
    await createVerifiedCustomer()
    await requestPasswordReset({ email: 'asha@example.com', ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    await expect(resetPassword({ email: 'asha@example.com', code, password: 'Password1', ip })).rejects.toThrow(COMMON_PASSWORD)
    expect((await resetPassword({ email: 'asha@example.com', code, password: 'new-password-1', ip })).ok).toBe(true)
  })

  it('a staff account needs a password of 12 characters; the code survives a too short one', async () => {
    await ensureAdmin({ email: 'staff@lab.example', password: 'first-staff-password' })
    await requestPasswordReset({ email: 'staff@lab.example', ip })
    const { code } = await latestCodeSentTo('staff@lab.example')
    await expect(resetPassword({ email: 'staff@lab.example', code, password: 'short-pass1', ip })).rejects.toThrow(STAFF_PASSWORD_TOO_SHORT)
    expect((await signIn({ email: 'staff@lab.example', password: 'short-pass1', ip })).ok).toBe(false)
    expect((await resetPassword({ email: 'staff@lab.example', code, password: 'a-longer-staff-pass', ip })).ok).toBe(true)
    expect((await signIn({ email: 'staff@lab.example', password: 'a-longer-staff-pass', ip })).ok).toBe(true)
  })

  it('limits reset e-mails per address', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    await createVerifiedCustomer()
    for (let i = 0; i < 5; i += 1) await requestPasswordReset({ email: 'asha@example.com', ip: `10.4.0.${i}`, now })
    await expect(requestPasswordReset({ email: 'asha@example.com', ip: '10.4.1.1', now })).rejects.toThrow(RateLimitedError)
  })
})

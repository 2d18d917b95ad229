import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { sessions } from '~/db/schema'
import { latestCodeSentTo, mailCount, registrationInput, userRow, wrongCode } from '../../../tests/support/accounts'
import { useTestDatabase } from '../../../tests/support/test-database'
import { RateLimitedError } from '../rate-limit/rate-limit.server'
import { CODE_TTL_MINUTES, MAX_CODE_ATTEMPTS } from './codes.server'
import { PasswordNeededError, registerCustomer, registeredInThisBrowser, resendVerificationCode, verifyEmail } from './registration.server'
import { registrationSchema } from './schemas'
import { swimmersOf } from '~/modules/swimmers/swimmers.server'
import { addMinutes, addSeconds, labToday } from '~/lib/lab-time'
import { createSession, findSessionUser } from './sessions.server'
import { verifyPassword } from './passwords.server'
import { EmailTakenError } from './users.server'
import { WeakPasswordError } from './password-policy.server'

useTestDatabase()
const ip = '198.51.100.7'

describe('registration', () => {
  it('creates an unverified account with an argon2id hash and its swimmer, and e-mails a 6-digit code', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    await registerCustomer(registrationInput({ email: 'Asha@Example.com' }), { ip, now })
    const row = await userRow('asha@example.com')
    expect(row).toMatchObject({ email: 'asha@example.com', isVerified: false, isAdmin: false, currentLocation: 'Bengaluru' })
    expect(await swimmersOf(row!.id)).toMatchObject([{ name: 'Asha Rao', isAccountHolder: true, ageYears: 26, ageGivenOn: '2027-03-10', participateInEvents: true, specialization: 'butterfly' }])
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/)
    expect(row!.passwordHash).not.toContain('butterfly-2027')

    const mail = await latestCodeSentTo('asha@example.com')
    expect(mail.code).toMatch(/^\d{6}$/)
    expect(mail.text).toContain(`/verify-email?email=asha%40example.com&code=${mail.code}`)
  })

  it("keeps the age as given on the day in Asia/Kolkata (on 31 December 20:00 UTC it is already 1 January)", async () => {
    const user = await registerCustomer(registrationInput({ age: '20' }), { ip, now: new Date('2026-12-31T20:00:00Z') })
    expect(await swimmersOf(user.id)).toMatchObject([{ name: 'Asha Rao', isAccountHolder: true, ageYears: 20, ageGivenOn: '2027-01-01', birthDate: null }])
  })

  it('stores the code hashed, never the digits', async () => {
    await registerCustomer(registrationInput(), { ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    const { db } = await import('~/db/client.server')
    const rows = await db().execute<{ code_hash: string }>('SELECT code_hash FROM one_time_codes')
    expect(rows.rows).toHaveLength(1)
    expect(rows.rows[0]!.code_hash).not.toContain(code)
    expect(rows.rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('refuses an address that is already registered, in any letter case', async () => {
    await registerCustomer(registrationInput(), { ip })
    await expect(registerCustomer(registrationInput({ email: 'ASHA@example.COM', name: 'Someone Else' }), { ip })).rejects.toThrow(EmailTakenError)
    await expect(registerCustomer(registrationInput({ email: 'ASHA@example.COM' }), { ip })).rejects.toThrow('User with this email already exists')
  })

  it('refuses a common password, in any letter case, and creates nothing', async () => {
    for (const password of ['password123', 'Iloveyou', 'QWERTY']) {
      await expect(registerCustomer(registrationInput({ password }), { ip })).rejects.toThrow(WeakPasswordError)
    }
    await expect(registerCustomer(registrationInput({ password: 'qwerty123' }), { ip })).rejects.toThrow('This password is too common and easy to guess. Please choose another one.')
    expect(await userRow('asha@example.com')).toBeUndefined()
    expect(await mailCount('asha@example.com')).toBe(0)
    // Six characters stay enough for customers.
    await registerCustomer(registrationInput({ password: 'kp7-wz' }), { ip })
    expect(await userRow('asha@example.com')).toMatchObject({ isVerified: false })
    expect(await mailCount('asha@example.com')).toBe(1)
  })

  it('applies the form’s defaults and messages', () => {
    const result = registrationSchema(labToday()).safeParse({ whoSwims: 'myself', name: 'A', email: 'nope', password: '12345', phone: '12345', age: '', currentLocation: 'B', academyName: '', coachName: '' })
    expect(result.success).toBe(false)
    const messages = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]).reverse())
    expect(messages).toMatchObject({
      name: 'Name must be at least 2 characters',
      email: 'Invalid email address',
      password: 'Password must be at least 6 characters',
      phone: 'WhatsApp number must be at least 10 digits',
      age: 'Age is required',
      currentLocation: 'Current location is required',
      gender: 'Please select your gender',
      swimmingExperience: 'Please select your swimming experience',
      academyName: 'Academy name is required (Enter NA if not applicable)',
      coachName: 'Coach name is required (Enter NA if not applicable)',
      specialization: 'Please select your specialization',
      participateInEvents: 'Please select if you participate in events',
      howDidYouKnow: 'Please select how you got to know about us',
    })
  })
})

describe('e-mail verification', () => {
  it('the right code verifies the address and signs in the browser that registered', async () => {
    const registered = await registerCustomer(registrationInput(), { ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    const result = await verifyEmail({ email: 'asha@example.com', code, ip, pendingAccountId: registered.id })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect((await userRow('asha@example.com'))!.isVerified).toBe(true)
    expect(await findSessionUser(result.session!.token)).toMatchObject({ email: 'asha@example.com', name: 'Asha Rao' })
  })

  it('another browser verifies only by choosing the password there: the registrant\'s password and every session end, and that browser is signed in', async () => {
    const asha = await registerCustomer(registrationInput(), { ip })
    const ravi = await registerCustomer(registrationInput({ email: 'ravi@example.com' }), { ip })
    const earlier = await createSession(ravi.id, {})
    // A browser that registered nothing, and one that registered another account.
    for (const [email, pendingAccountId] of [['asha@example.com', null], ['ravi@example.com', asha.id]] as const) {
      const { code } = await latestCodeSentTo(email)
      await expect(verifyEmail({ email, code, ip, pendingAccountId })).rejects.toThrow(PasswordNeededError)
      await expect(verifyEmail({ email, code, ip, pendingAccountId, newPassword: 'Password123' })).rejects.toThrow(WeakPasswordError)
      expect((await userRow(email))!.isVerified).toBe(false)
      const result = await verifyEmail({ email, code, ip, pendingAccountId, newPassword: 'owners-own-2027' })
      expect(result).toMatchObject({ ok: true, user: { email, isVerified: true } })
      if (!result.ok) return
      expect(await findSessionUser(result.session.token)).toMatchObject({ email })
      const { passwordHash } = (await userRow(email))!
      expect([await verifyPassword(passwordHash, 'owners-own-2027'), await verifyPassword(passwordHash, 'butterfly-2027')]).toEqual([true, false])
    }
    expect(await findSessionUser(earlier.token)).toBeNull()
    expect(await db().select({ userId: sessions.userId }).from(sessions)).toHaveLength(2)
  })

  it('the browser that registered needs no new password, and is told so before it posts', async () => {
    const asha = await registerCustomer(registrationInput(), { ip })
    expect(await registeredInThisBrowser('asha@example.com', asha.id)).toBe(true)
    expect(await registeredInThisBrowser('ASHA@example.com', asha.id)).toBe(true)
    expect(await registeredInThisBrowser('asha@example.com', null)).toBe(false)
    expect(await registeredInThisBrowser('asha@example.com', asha.id + 1)).toBe(false)
    expect(await registeredInThisBrowser('nobody@example.com', asha.id)).toBe(false)
  })

  it('a code works once only; an address already verified answers as an unknown one', async () => {
    const registered = await registerCustomer(registrationInput(), { ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    expect((await verifyEmail({ email: 'asha@example.com', code, ip, pendingAccountId: registered.id })).ok).toBe(true)
    expect(await verifyEmail({ email: 'asha@example.com', code, ip, pendingAccountId: registered.id, newPassword: 'owners-own-2027' })).toEqual({ ok: false, check: { status: 'missing' } })
    expect(await verifyEmail({ email: 'nobody@example.com', code, ip, newPassword: 'owners-own-2027' })).toEqual({ ok: false, check: { status: 'missing' } })
  })

  it('five wrong codes invalidate the code, even for the right code afterwards', async () => {
    await registerCustomer(registrationInput(), { ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    const wrong = wrongCode(code)
    for (let attempt = 1; attempt < MAX_CODE_ATTEMPTS; attempt += 1) {
      expect(await verifyEmail({ email: 'asha@example.com', code: wrong, ip, newPassword: 'owners-own-2027' })).toEqual({ ok: false, check: { status: 'wrong', attemptsLeft: MAX_CODE_ATTEMPTS - attempt } })
    }
    expect(await verifyEmail({ email: 'asha@example.com', code: wrong, ip, newPassword: 'owners-own-2027' })).toEqual({ ok: false, check: { status: 'exhausted' } })
    expect(await verifyEmail({ email: 'asha@example.com', code, ip, newPassword: 'owners-own-2027' })).toEqual({ ok: false, check: { status: 'exhausted' } })
    expect((await userRow('asha@example.com'))!.isVerified).toBe(false)
  })

  it('a code expires after 30 minutes', async () => {
    const issuedAt = new Date('2027-03-10T06:00:00Z')
    await registerCustomer(registrationInput(), { ip, now: issuedAt })
    const { code } = await latestCodeSentTo('asha@example.com')
    const later = addMinutes(issuedAt, CODE_TTL_MINUTES)
    expect(await verifyEmail({ email: 'asha@example.com', code, ip, newPassword: 'owners-own-2027', now: later })).toEqual({ ok: false, check: { status: 'expired' } })
    const justInTime = addSeconds(later, -1)
    expect((await verifyEmail({ email: 'asha@example.com', code, ip, newPassword: 'owners-own-2027', now: justInTime })).ok).toBe(true)
  })

  it('a new code replaces the old one', async () => {
    await registerCustomer(registrationInput(), { ip })
    const first = await latestCodeSentTo('asha@example.com')
    await resendVerificationCode({ email: 'asha@example.com', ip })
    const second = await latestCodeSentTo('asha@example.com')
    expect(await mailCount('asha@example.com')).toBe(2)
    if (first.code !== second.code) {
      expect(await verifyEmail({ email: 'asha@example.com', code: first.code, ip, newPassword: 'owners-own-2027' })).toMatchObject({ ok: false })
    }
    expect((await verifyEmail({ email: 'asha@example.com', code: second.code, ip, newPassword: 'owners-own-2027' })).ok).toBe(true)
  })

  it('re-sending sends nothing for an unknown or already verified address', async () => {
    await resendVerificationCode({ email: 'nobody@example.com', ip })
    expect(await mailCount('nobody@example.com')).toBe(0)
    await registerCustomer(registrationInput(), { ip })
    const { code } = await latestCodeSentTo('asha@example.com')
    await verifyEmail({ email: 'asha@example.com', code, ip, newPassword: 'owners-own-2027' })
    await resendVerificationCode({ email: 'asha@example.com', ip })
    expect(await mailCount('asha@example.com')).toBe(1)
  })

  it('re-sending is limited per account', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    await registerCustomer(registrationInput(), { ip, now })
    for (let i = 0; i < 4; i += 1) await resendVerificationCode({ email: 'asha@example.com', ip: `10.0.0.${i}`, now })
    await expect(resendVerificationCode({ email: 'asha@example.com', ip: '10.0.1.1', now })).rejects.toThrow(RateLimitedError)
    expect(await mailCount('asha@example.com')).toBe(5)
    // The next hour's window opens again.
    await resendVerificationCode({ email: 'asha@example.com', ip, now: addMinutes(now, 60) })
    expect(await mailCount('asha@example.com')).toBe(6)
  })

  it('code sending is limited per IP address, with a clear message', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    for (let i = 0; i < 20; i += 1) await resendVerificationCode({ email: `person${i}@example.com`, ip, now })
    const attempt = resendVerificationCode({ email: 'one-more@example.com', ip, now })
    await expect(attempt).rejects.toThrow(RateLimitedError)
    await expect(resendVerificationCode({ email: 'one-more@example.com', ip, now })).rejects.toThrow(/Too many attempts\. Please wait \d+ minutes? and try again\./)
  })

  it('code entry is limited per account, across codes', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    await registerCustomer(registrationInput(), { ip, now })
    for (let round = 0; round < 2; round += 1) {
      await resendVerificationCode({ email: 'asha@example.com', ip, now })
      const { code } = await latestCodeSentTo('asha@example.com')
      for (let i = 0; i < 5; i += 1) await verifyEmail({ email: 'asha@example.com', code: wrongCode(code), ip: `10.1.${round}.${i}`, newPassword: 'owners-own-2027', now })
    }
    await resendVerificationCode({ email: 'asha@example.com', ip, now })
    const { code } = await latestCodeSentTo('asha@example.com')
    await expect(verifyEmail({ email: 'asha@example.com', code, ip, newPassword: 'owners-own-2027', now })).rejects.toThrow(RateLimitedError)
  })
})

import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { db } from '~/db/client.server'
import { users } from '~/db/schema'
import { addMinutes, addSeconds } from '~/lib/lab-time'
import { createVerifiedCustomer, registrationInput, userRow } from '../../../tests/support/accounts'
import { useTestDatabase } from '../../../tests/support/test-database'
import { RateLimitedError } from '../rate-limit/rate-limit.server'
import { registerCustomer } from './registration.server'
import { findSessionUser, revokeSession, SESSION_TTL_SECONDS } from './sessions.server'
import { signIn } from './sign-in.server'
import { decoyPasswordHash, verifyAgainstDecoy } from './passwords.server'
import { WeakPasswordError } from './password-policy.server'
import { AdminNotPromotedError, createAdmin, ensureAdmin } from './users.server'

// The real decoy check, recorded: a sign-in for an unknown address must still run it.
vi.mock('./passwords.server', async (importOriginal) => {
  const original = await importOriginal<typeof import('./passwords.server')>()
  return { ...original, verifyAgainstDecoy: vi.fn(original.verifyAgainstDecoy) }
})

useTestDatabase()
const ip = '198.51.100.8'

describe('signing in', () => {
  it('signs in with the right password, whatever the letter case of the address', async () => {
    const { password } = await createVerifiedCustomer()
    const result = await signIn({ email: '  ASHA@example.com ', password, ip })
    expect(result).toMatchObject({ ok: true, user: { email: 'asha@example.com', name: 'Asha Rao', isAdmin: false } })
    expect(result).not.toHaveProperty('user.passwordHash')
  })

  it('gives the same answer for a wrong password and an unknown address', async () => {
    await createVerifiedCustomer()
    const wrongPassword = await signIn({ email: 'asha@example.com', password: 'not-the-password', ip })
    const unknown = await signIn({ email: 'nobody@example.com', password: 'not-the-password', ip })
    expect(wrongPassword).toEqual({ ok: false, reason: 'invalid' })
    expect(unknown).toEqual(wrongPassword)
  })

  it('spends one argon2id verification with a real hash\'s parameters on an unknown address, so timing tells nothing', async () => {
    const { user } = await createVerifiedCustomer()
    const [account] = await db().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id))
    vi.mocked(verifyAgainstDecoy).mockClear()
    await signIn({ email: 'asha@example.com', password: 'not-the-password', ip })
    expect(verifyAgainstDecoy).not.toHaveBeenCalled()
    await signIn({ email: 'nobody@example.com', password: 'not-the-password', ip })
    expect(verifyAgainstDecoy).toHaveBeenCalledTimes(1)
    const parameters = (hash: string) => hash.split('$').slice(1, 4).join('$')
    expect(parameters(await decoyPasswordHash())).toBe(parameters(account!.passwordHash))
    expect(parameters(account!.passwordHash)).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1$/)
  })

  it('refuses an unverified account, but tells so only to someone who knows the password', async () => {
    const input = registrationInput()
    const registered = await registerCustomer(input, { ip })
    expect(await signIn({ email: input.email, password: input.password, ip })).toEqual({ ok: false, reason: 'unverified', userId: registered.id })
    expect(await signIn({ email: input.email, password: 'wrong-password', ip })).toEqual({ ok: false, reason: 'invalid' })
  })

  it('refuses a disabled account', async () => {
    const { password, user } = await createVerifiedCustomer()
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id))
    expect(await signIn({ email: 'asha@example.com', password, ip })).toEqual({ ok: false, reason: 'invalid' })
  })

  it('rotates the session: a new id at every sign-in, the previous one revoked', async () => {
    const { password, session: first } = await createVerifiedCustomer()
    const second = await signIn({ email: 'asha@example.com', password, ip, previousSessionToken: first.token })
    expect(second.ok).toBe(true)
    if (!second.ok) return
    expect(second.session.token).not.toBe(first.token)
    expect(await findSessionUser(first.token)).toBeNull()
    expect(await findSessionUser(second.session.token)).toMatchObject({ email: 'asha@example.com' })
  })

  it('sessions last 7 days and can be revoked', async () => {
    const { password } = await createVerifiedCustomer()
    const now = new Date('2027-03-10T06:00:00Z')
    const result = await signIn({ email: 'asha@example.com', password, ip, now })
    if (!result.ok) throw new Error('sign-in failed')
    expect(result.session.expiresAt.getTime() - now.getTime()).toBe(SESSION_TTL_SECONDS * 1000)
    expect(SESSION_TTL_SECONDS).toBe(7 * 24 * 60 * 60)
    expect(await findSessionUser(result.session.token, addSeconds(now, SESSION_TTL_SECONDS - 1))).not.toBeNull()
    expect(await findSessionUser(result.session.token, addSeconds(now, SESSION_TTL_SECONDS))).toBeNull()
    await revokeSession(result.session.token)
    expect(await findSessionUser(result.session.token, now)).toBeNull()
  })

  it('limits attempts per account, also for an address that has no account', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    const { password } = await createVerifiedCustomer()
    for (let i = 0; i < 10; i += 1) await signIn({ email: 'asha@example.com', password: 'wrong-password', ip: `10.2.0.${i}`, now })
    await expect(signIn({ email: 'asha@example.com', password, ip: '10.2.1.1', now })).rejects.toThrow(RateLimitedError)
    for (let i = 0; i < 10; i += 1) await signIn({ email: 'nobody@example.com', password: 'wrong-password', ip: `10.3.0.${i}`, now })
    await expect(signIn({ email: 'nobody@example.com', password: 'wrong-password', ip: '10.3.1.1', now })).rejects.toThrow(RateLimitedError)
    // After the 15-minute window the right password works again.
    expect((await signIn({ email: 'asha@example.com', password, ip, now: addMinutes(now, 15) })).ok).toBe(true)
  })

  it('a browser that signed in to the account before still gets in after strangers used up its limit; it has a limit of its own', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    const { password, user } = await createVerifiedCustomer()
    const owners = { id: 'owners-laptop-browser-0001', accountIds: [user.id] }
    for (let i = 0; i < 10; i += 1) await signIn({ email: 'asha@example.com', password: `guess-${i}`, ip: `10.5.0.${i}`, now })
    await expect(signIn({ email: 'asha@example.com', password, ip: '10.5.1.1', now })).rejects.toThrow(RateLimitedError)
    // A browser known for another account is a stranger to this one.
    await expect(signIn({ email: 'asha@example.com', password, ip: '10.5.1.2', browser: { id: 'strangers-browser-0001', accountIds: [user.id + 1] }, now })).rejects.toThrow(RateLimitedError)
    expect(await signIn({ email: 'asha@example.com', password, ip: '10.5.1.3', browser: owners, now })).toMatchObject({ ok: true, user: { id: user.id } })

    for (let i = 0; i < 9; i += 1) expect(await signIn({ email: 'asha@example.com', password: `typo-${i}`, ip: `10.5.2.${i}`, browser: owners, now })).toEqual({ ok: false, reason: 'invalid' })
    await expect(signIn({ email: 'asha@example.com', password, ip: '10.5.3.1', browser: owners, now })).rejects.toThrow(RateLimitedError)
    // The limit per client address still applies to a known browser.
    const later = addMinutes(now, 15)
    for (let i = 0; i < 30; i += 1) await signIn({ email: `spray${i}@example.com`, password: 'wrong-password', ip: '10.5.4.1', now: later })
    await expect(signIn({ email: 'asha@example.com', password, ip: '10.5.4.1', browser: owners, now: later })).rejects.toThrow(RateLimitedError)
  })

  it('limits attempts per IP address across accounts', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    for (let i = 0; i < 30; i += 1) await signIn({ email: `guess${i}@example.com`, password: 'wrong-password', ip, now })
    await expect(signIn({ email: 'another@example.com', password: 'wrong-password', ip, now })).rejects.toThrow(RateLimitedError)
  })
})

describe('admin accounts', () => {
  it('ensureAdmin creates a verified admin who can sign in, and keeps a changed password at start-up', async () => {
    expect((await ensureAdmin({ email: 'Staff@Lab.example', password: 'first-password' })).created).toBe(true)
    expect(await signIn({ email: 'staff@lab.example', password: 'first-password', ip })).toMatchObject({ ok: true, user: { isAdmin: true } })
    expect(await ensureAdmin({ email: 'staff@lab.example', password: 'other-password' })).toMatchObject({ created: false, disabled: false })
    expect((await signIn({ email: 'staff@lab.example', password: 'first-password', ip })).ok).toBe(true)
    expect((await signIn({ email: 'staff@lab.example', password: 'other-password', ip })).ok).toBe(false)
  })

  it('ensureAdmin promotes an existing account only when its password is the one given', async () => {
    const { password } = await createVerifiedCustomer({ password: 'asha-is-the-operator' })
    await ensureAdmin({ email: 'asha@example.com', password })
    expect(await signIn({ email: 'asha@example.com', password, ip })).toMatchObject({ ok: true, user: { isAdmin: true } })
  })

  it('ensureAdmin never hands the admin role to someone who registered the address first', async () => {
    // Registered (and never verified) by a stranger before the operator set ADMIN_EMAIL.
    const squatter = registrationInput({ email: 'staff@lab.example', password: 'squatters-password' })
    await registerCustomer(squatter, { ip })
    await expect(ensureAdmin({ email: 'staff@lab.example', password: 'operators-password' })).rejects.toThrow(AdminNotPromotedError)
    await expect(ensureAdmin({ email: 'staff@lab.example', password: 'operators-password' })).rejects.toThrow(/NOT made an admin.*admin:create.*--existing/)
    expect(await userRow('staff@lab.example')).toMatchObject({ isAdmin: false, isVerified: false })
    expect(await signIn({ email: 'staff@lab.example', password: 'squatters-password', ip })).toMatchObject({ ok: false, reason: 'unverified' })
    expect(await signIn({ email: 'staff@lab.example', password: 'operators-password', ip })).toEqual({ ok: false, reason: 'invalid' })
  })

  it('ensureAdmin leaves a disabled admin disabled', async () => {
    const { id } = await ensureAdmin({ email: 'staff@lab.example', password: 'first-password' })
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, id))
    expect(await ensureAdmin({ email: 'staff@lab.example', password: 'first-password' })).toEqual({ id, created: false, disabled: true })
    expect((await userRow('staff@lab.example'))!.disabledAt).not.toBeNull()
    expect(await signIn({ email: 'staff@lab.example', password: 'first-password', ip })).toEqual({ ok: false, reason: 'invalid' })
  })

  it('ensureAdmin does not promote a disabled customer, even with the right password', async () => {
    const { user, password } = await createVerifiedCustomer({ password: 'asha-is-the-operator' })
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id))
    await expect(ensureAdmin({ email: 'asha@example.com', password })).rejects.toThrow(/disabled account/)
    expect(await userRow('asha@example.com')).toMatchObject({ isAdmin: false })
  })

  it('createAdmin leaves an existing account alone unless told to take it over; then only its new password works, everywhere signed out', async () => {
    const { password, session } = await createVerifiedCustomer()
    expect(await createAdmin({ email: 'asha@example.com', password: 'operators-password' })).toEqual({ status: 'exists' })
    expect(await userRow('asha@example.com')).toMatchObject({ isAdmin: false })
    expect(await findSessionUser(session.token)).not.toBeNull()

    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.email, 'asha@example.com'))
    expect(await createAdmin({ email: 'ASHA@example.com', password: 'operators-password', name: 'Lab Admin' }, { existing: true })).toMatchObject({ status: 'taken-over' })
    expect(await userRow('asha@example.com')).toMatchObject({ isAdmin: true, isVerified: true, disabledAt: null, name: 'Lab Admin' })
    expect(await findSessionUser(session.token)).toBeNull()
    expect((await signIn({ email: 'asha@example.com', password, ip })).ok).toBe(false)
    expect(await signIn({ email: 'asha@example.com', password: 'operators-password', ip })).toMatchObject({ ok: true, user: { isAdmin: true } })
    expect(await createAdmin({ email: 'new-staff@lab.example', password: 'operators-password' })).toMatchObject({ status: 'created' })
  })

  it('staff passwords: 12 characters or more, not a common one', async () => {
    await expect(ensureAdmin({ email: 'staff@lab.example', password: 'eleven-char' })).rejects.toThrow('Staff passwords must be at least 12 characters')
    await expect(createAdmin({ email: 'staff@lab.example', password: 'qwerty123456' })).rejects.toThrow(WeakPasswordError)
    expect(await userRow('staff@lab.example')).toBeUndefined()
  })
})

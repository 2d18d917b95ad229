import { describe, expect, it } from 'vitest'
import { config, loadConfig, setConfig } from '~/config.server'
import { addDays, addSeconds } from '~/lib/lab-time'
import { ensureAdmin } from '~/modules/accounts/users.server'
import { signIn } from '~/modules/accounts/sign-in.server'
import { createVerifiedCustomer } from '../../tests/support/accounts'
import { useTestDatabase } from '../../tests/support/test-database'
import { endSession, getUser, requireAdmin, requireGuest, requireUser, safeRedirect, sessionHeader } from './auth.server'

useTestDatabase()

async function requestWithSession(url: string, session: { token: string; expiresAt: Date }) {
  const cookie = (await sessionHeader(session)).split(';')[0]!
  return new Request(url, { headers: { Cookie: cookie } })
}

async function thrown(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the guard to throw')
}

describe('redirect targets', () => {
  it.each([
    ['/my-bookings', '/my-bookings'],
    ['/book-slot?date=2027-03-10#slots', '/book-slot?date=2027-03-10#slots'],
    ['https://evil.example/phish', '/book-slot'],
    ['//evil.example/phish', '/book-slot'],
    ['/\\evil.example', '/book-slot'],
    ['/.//evil.example', '/book-slot'],
    ['/a/..//evil.example', '/book-slot'],
    ['/./\\evil.example', '/book-slot'],
    ['/%2e//evil.example', '/book-slot'],
    ['javascript:alert(1)', '/book-slot'],
    ['/\tevil', '/book-slot'],
    ['', '/book-slot'],
    [null, '/book-slot'],
  ])('%s → %s', (to, expected) => {
    expect(safeRedirect(to, '/book-slot')).toBe(expected)
  })
})

describe('access rules', () => {
  it('a guest opening a protected page is sent to /login, remembering the page', async () => {
    const response = (await thrown(requireUser(new Request('http://localhost/my-bookings?tab=past')))) as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fmy-bookings%3Ftab%3Dpast')
  })

  it('remembers the page, not the data URL, on client-side navigations', async () => {
    const response = (await thrown(requireUser(new Request('http://localhost/my-bookings.data?_routes=routes%2Faccount%2Fmy-bookings')))) as Response
    expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fmy-bookings')
  })

  it('a signed-in customer is let through protected pages, and sent to /book-slot from guest pages', async () => {
    const { session } = await createVerifiedCustomer()
    const request = await requestWithSession('http://localhost/my-bookings', session)
    expect(await requireUser(request)).toMatchObject({ email: 'asha@example.com' })
    const response = (await thrown(requireGuest(await requestWithSession('http://localhost/login', session)))) as Response
    expect(response.headers.get('Location')).toBe('/book-slot')
  })

  it('a customer opening /admin gets 403', async () => {
    const { session } = await createVerifiedCustomer()
    const error = (await thrown(requireAdmin(await requestWithSession('http://localhost/admin', session)))) as { init: ResponseInit }
    expect(error.init.status).toBe(403)
  })

  it('an admin is let into /admin, and sent there from guest pages', async () => {
    await ensureAdmin({ email: 'staff@lab.example', password: 'staff-password' })
    const result = await signIn({ email: 'staff@lab.example', password: 'staff-password', ip: '127.0.0.1' })
    if (!result.ok) throw new Error('sign-in failed')
    expect(await requireAdmin(await requestWithSession('http://localhost/admin', result.session))).toMatchObject({ isAdmin: true })
    const response = (await thrown(requireGuest(await requestWithSession('http://localhost/login', result.session)))) as Response
    expect(response.headers.get('Location')).toBe('/admin')
  })

  it('logging out revokes the session in the database, not just the cookie', async () => {
    const { session } = await createVerifiedCustomer()
    const clearing = await endSession(await requestWithSession('http://localhost/logout', session))
    expect(clearing).toMatch(/Max-Age=0/)
    expect(await getUser(await requestWithSession('http://localhost/book-slot', session))).toBeNull()
  })

  it('the session cookie is httpOnly, SameSite=Lax, 7 days', async () => {
    const header = await sessionHeader({ token: 'token', expiresAt: addDays(new Date(), 7) })
    expect(header).toMatch(/HttpOnly/)
    expect(header).toMatch(/SameSite=Lax/)
    expect(header).toMatch(/Max-Age=604800/)
    expect(header).toMatch(/Path=\//)
  })

  it('the session cookie is Secure when the site is served over https', async () => {
    const previous = config()
    setConfig(loadConfig({ SITE_URL: 'https://lab.example.in', ALLOW_SANDBOX_PAYMENTS: 'true' }))
    try {
      expect(await sessionHeader({ token: 'token', expiresAt: addSeconds(new Date(), 1) })).toMatch(/; Secure/)
    } finally {
      setConfig(previous)
    }
    expect(await sessionHeader({ token: 'token', expiresAt: addSeconds(new Date(), 1) })).not.toMatch(/Secure/)
  })

  it('an unknown or forged cookie is no session', async () => {
    expect(await getUser(await requestWithSession('http://localhost/', { token: 'forged-token', expiresAt: new Date() }))).toBeNull()
    expect(await getUser(new Request('http://localhost/', { headers: { Cookie: 'swimlab_session=garbage' } }))).toBeNull()
  })
})

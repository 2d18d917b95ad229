import { afterAll, beforeAll, expect } from 'vitest'
import { startSmtpSink } from './smtp-sink'
import { startTestServer, type TestServer, type TestServerOptions } from './test-server'
import { signUp, Visitor } from './visitor'

/** The staff account a test site is started with. */
export const STAFF = { email: 'staff@lab.example', password: 'staff-password-1' }

type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>

/** Staff, signed in on a new browser of the site at `url` (signing in lands on /admin). */
export async function signInStaff(url: string) {
  const admin = new Visitor(url)
  expect((await admin.post('/login', { ...STAFF, website_url: '' })).location).toBe('/admin')
  return admin
}

/** Staff's pages: a guest is sent to sign in from each, and `customer` refused (403) shown nothing of `secret`. */
export async function expectStaffOnly(url: string, customer: Visitor, pages: string[], secret: string) {
  const guest = new Visitor(url)
  for (const path of pages) expect((await guest.get(path)).location, path).toMatch(/^\/login\?/)
  for (const path of pages) {
    const response = await customer.get(path)
    expect(response.status, path).toBe(403)
    expect(response.html, path).not.toContain(secret)
  }
}

/** The address a test customer signs up with: their name, in lower case and without spaces, at example.com. */
export const emailFor = (name: string) => `${name.toLowerCase().replace(/\W/g, '')}@example.com`

/**
 * Server settings for a test site. A setting given as undefined is left unset (no SMTP_URL: the
 * local mailbox). A function is called when the site starts, after the hooks declared before it
 * (for settings that point at a fake started there).
 */
type SiteEnv = Record<string, string | undefined>

/**
 * The site for a test file, started before its tests and stopped after them: the real server with
 * its staff account, trusting each Visitor's X-Forwarded-For, its mail delivered to an SMTP sink.
 * `env` adds server settings or replaces these; `prepare` writes data the site starts with.
 */
export function useTestSite(env: SiteEnv | (() => SiteEnv) = {}, { prepare }: Pick<TestServerOptions, 'prepare'> = {}) {
  let server: TestServer | undefined
  let sink: SmtpSink | undefined
  let signedInStaff: Promise<Visitor> | undefined
  beforeAll(async () => {
    sink = await startSmtpSink()
    const settings = { SMTP_URL: sink.url, TRUST_PROXY: 'true', ADMIN_EMAIL: STAFF.email, ADMIN_PASSWORD: STAFF.password, ...(typeof env === 'function' ? env() : env) }
    server = await startTestServer(Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined)), { prepare })
  })
  afterAll(async () => {
    await server?.stop()
    await sink?.close()
  })
  const started = () => {
    if (!server || !sink) throw new Error('The test site starts before the tests (beforeAll)')
    return { server, sink }
  }
  return {
    get server() {
      return started().server
    },
    get sink() {
      return started().sink
    },
    get url() {
      return started().server.url
    },
    /** Staff, signed in on a new browser. */
    staff: () => signInStaff(started().server.url),
    /** Staff signed in once for all the file's tests (signing in for each would meet the sign-in limit). */
    sharedStaff: () => (signedInStaff ??= signInStaff(started().server.url)),
    /** A new customer, registered and verified through the pages, signed in. */
    customer: (name: string, email = emailFor(name)) => signUp(new Visitor(started().server.url), started().sink, { email, name }),
  }
}

import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookableDate } from '../support/booking-flow'
import { codeIn, startSmtpSink } from '../support/smtp-sink'
import { startTestServer, type TestServer } from '../support/test-server'
import { registrationForm, text, Visitor } from '../support/visitor'
import { signInStaff, STAFF } from '../support/site'

// Each instance keeps signed-in users and availability in memory. What changes through one
// instance must show on the other at once: two servers on one PostgreSQL. PGlite serves a single
// instance, so there the same visits go to that one server (which must still drop what it keeps).
// The database announces each change to every instance as it commits; on PostgreSQL the test
// hears the same announcement before it asks the other instance, as a person would only after it.

let sink: Awaited<ReturnType<typeof startSmtpSink>>
let first: TestServer
let second: TestServer | undefined
/** Where the changes are made, and where they must show at once. */
let changes: string
let elsewhere: string
let listener: pg.Client | undefined
const heard: string[] = []

beforeAll(async () => {
  sink = await startSmtpSink()
  const env = { SMTP_URL: sink.url, ADMIN_EMAIL: STAFF.email, ADMIN_PASSWORD: STAFF.password, TRUST_PROXY: 'true' }
  first = await startTestServer(env)
  if (first.databaseUrl) second = await startTestServer({ ...env, DATABASE_URL: first.databaseUrl })
  changes = first.url
  elsewhere = (second ?? first).url
  if (first.databaseUrl) {
    listener = new pg.Client({ connectionString: first.databaseUrl })
    await listener.connect()
    listener.on('notification', (message) => heard.push(message.channel))
    await listener.query('LISTEN account_changed')
    await listener.query('LISTEN availability_changed')
  }
})
afterAll(async () => {
  await listener?.end()
  await second?.stop()
  await first?.stop()
  await sink?.close()
})

/** Makes a change through the first instance and waits until the database has announced it on `channel`. */
async function announced<T>(channel: 'account_changed' | 'availability_changed', change: () => Promise<T>): Promise<T> {
  heard.length = 0
  const result = await change()
  while (listener && !heard.includes(channel)) await new Promise((resolve) => setTimeout(resolve, 5))
  return result
}

async function customer(name: string) {
  const email = `${name.toLowerCase().replace(/\W/g, '')}@example.com`
  const visitor = new Visitor(changes)
  expect((await visitor.post('/registration', registrationForm({ name, email }))).status).toBe(302)
  const code = codeIn((await sink.waitForMailTo(email, /verification code/)).text)
  expect((await visitor.post(`/verify-email?${new URLSearchParams({ email })}`, { email, code, website_url: '' })).location).toBe('/book-slot')
  return visitor
}

const staff = () => signInStaff(changes)

/** What /book-slot on the other instance says of the 9 AM time slot of `date`, to `visitor`. */
async function nineOclock(visitor: Visitor, date: string) {
  const page = await visitor.get(`${elsewhere}/book-slot?date=${date}`)
  expect(page.status).toBe(200)
  // An available time names its session's days ("Sat 5 Dec, Sun 6 Dec, Mon 7 Dec") before its state.
  return /9:00 AM - 10:00 AM (?:[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2,3},? )*(Available|Full|Booked|Not Available)/.exec(text(page.html))?.[1]
}

async function nineOclockForGuests(date: string) {
  const response = await fetch(`${elsewhere}/booking/times?date=${date}`)
  const { times } = (await response.json()) as { times: { time: string; state: string }[] }
  return times.find((time) => time.time === '09:00')?.state
}

const hold = (visitor: Visitor, date: string) => visitor.post(`/book-slot?date=${date}`, { date, time: '09:00', website_url: '' })

describe(`kept in memory on ${process.env.DATABASE_URL ? 'two instances of one PostgreSQL' : 'the one PGlite instance'}`, () => {
  it('seats held through one instance show on the other’s /book-slot and /booking/times at once, and come back when released', async () => {
    const date = bookableDate(3)
    const [asha, ravi, neha] = [await customer('Asha Rao'), await customer('Ravi Kumar'), await customer('Neha Singh')]
    expect(await nineOclock(neha, date)).toBe('Available')
    expect(await nineOclockForGuests(date)).toBe('available')

    // The seeded windows have two seats.
    const held = await announced('availability_changed', () => hold(asha, date))
    expect(held.location).toMatch(/^\/slot-payment\?booking=\d+$/)
    expect(await nineOclock(asha, date)).toBe('Booked')
    expect(text((await asha.get(`${elsewhere}/book-slot?date=${date}`)).html)).toContain('Your seats are held until')
    expect(await nineOclock(neha, date)).toBe('Available')
    expect((await announced('availability_changed', () => hold(ravi, date))).location).toMatch(/^\/slot-payment\?booking=\d+$/)
    expect(await nineOclock(neha, date)).toBe('Full')
    expect(await nineOclockForGuests(date)).toBe('full')

    // A payment declined on the gateway releases the hold.
    const pay = await asha.post(held.location!, { website_url: '' })
    const declined = await asha.post(pay.location!, { outcome: 'failure' })
    await announced('availability_changed', async () => expect(text((await asha.get(declined.location!)).html)).toContain('Payment Failed'))
    expect(await nineOclock(neha, date)).toBe('Available')
    expect(await nineOclock(asha, date)).toBe('Available')
    expect(await nineOclockForGuests(date)).toBe('available')
  })

  it('signing out through one instance ends the session on the other at once', async () => {
    const priya = await customer('Priya Nair')
    expect((await priya.get(`${elsewhere}/my-bookings`)).status).toBe(200)
    const session = priya.cookies.get('swimlab_session')!
    expect((await announced('account_changed', () => priya.post('/logout', {}))).location).toBe('/')

    const replay = new Visitor(elsewhere)
    replay.cookies.set('swimlab_session', session)
    expect((await replay.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')
  })

  it('an account disabled through one instance is signed out on the other at once', async () => {
    const kiran = await customer('Kiran Das')
    expect((await kiran.get(`${elsewhere}/book-slot`)).status).toBe(200)
    const admin = await staff()
    const results = await admin.get(`/admin/customers?${new URLSearchParams({ q: 'kirandas@example.com' })}`)
    const page = /href="(\/admin\/customers\/\d+)"/.exec(results.html)![1]!
    expect((await announced('account_changed', () => admin.post(page, { intent: 'disable' }))).location).toBe(page)

    expect((await kiran.get(`${elsewhere}/book-slot`)).location).toBe('/login?redirectTo=%2Fbook-slot')
  })
})

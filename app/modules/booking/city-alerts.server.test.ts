import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { cityAlertNotices, cityAlerts, outboxMessages, users, venues } from '~/db/schema'
import { addDays } from '~/lib/lab-time'
import { accountDataOf } from '~/modules/privacy/export.server'
import { eraseAccount } from '~/modules/privacy/erasure.server'
import { applyRetention } from '~/modules/privacy/retention.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { optInToWhatsApp, optOutOfWhatsApp } from '~/modules/whatsapp/consent.server'
import { analysisDayForm, readyVenue } from '../../../tests/support/analysis-days'
import { createCustomers, createStaff, mailTo, refusal } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { useWhatsAppOn } from '../../../tests/support/whatsapp-on'
import { createAnalysisDay, publishAnalysisDay } from './analysis-days.server'
import { CITY_ALERTS_PER_ADDRESS, cityAlertTokenHash, cityAlertToConfirm, cityAlertToStop, cityKey, confirmCityAlert, purgeUnconfirmedCityAlerts, requestCityAlert, stopCityAlert, type CityAlertAsker } from './city-alerts.server'

useTestDatabase()
useWhatsAppOn()

// 1 December 2030, 10 AM at the lab; the analysis days are on Saturday 7 December and after, released the day before.
const NOW = new Date('2030-12-01T04:30:00Z')
const SATURDAY = '2030-12-07'

let clients = 0
/** A stranger on a client address of their own (each under its own rate limit). */
const stranger = (): CityAlertAsker => {
  clients += 1
  return { ip: `198.51.100.${clients}`, account: null }
}

const ask = (email: string, city: string, asker = stranger(), now = NOW, whatsapp = false) => requestCityAlert({ email, city, whatsapp }, asker, now)

/** The token of the last link of `kind` e-mailed to `email`. */
async function linkTo(email: string, kind: 'confirm' | 'stop') {
  const mails = await mailTo(email)
  const pattern = kind === 'confirm' ? /\/city-alerts\/([A-Za-z0-9_-]{43})/ : /\/city-alerts\/stop\/([A-Za-z0-9_-]{43})/
  const token = mails
    .map((mail) => pattern.exec(mail.text)?.[1])
    .filter(Boolean)
    .at(-1)
  expect(token, `a ${kind} link e-mailed to ${email}`).toBeDefined()
  return token!
}

async function confirmed(email: string, city: string, asker?: CityAlertAsker, whatsapp = false) {
  await ask(email, city, asker, NOW, whatsapp)
  expect(await confirmCityAlert(await linkTo(email, 'confirm'), NOW)).toEqual({ city: expect.any(String) })
}

const alertRows = (email: string) => db().select().from(cityAlerts).where(eq(cityAlerts.email, email))

/** An analysis day at a new ready venue in `city`, published on `now`. */
async function dayIn(city: string, date: string, venueName: string, publish = true) {
  const actor = await staff()
  const venueId = await readyVenue(actor, date, NOW, venueName)
  await db().update(venues).set({ city }).where(eq(venues.id, venueId))
  const dayId = await createAnalysisDay(actor, analysisDayForm(venueId, date, { releaseDate: addDays(date, -1) }), NOW)
  if (publish) await publishAnalysisDay(actor, dayId, NOW)
  return { actor, dayId }
}

/** The staff member who publishes (created by the first day of a test). */
async function staff() {
  const [row] = await db().select({ id: users.id, email: users.email }).from(users).where(eq(users.email, 'staff@lab.example'))
  return row ?? createStaff()
}

const alertMailsTo = async (email: string) => (await mailTo(email)).filter((mail) => mail.subject.startsWith('The lab comes to'))

describe('asking to be told when the lab comes to a city', () => {
  it('keeps the request unconfirmed and e-mails a single-use link, of which only the hash is kept', async () => {
    await ask('Asha@Example.com', '  Pune ')
    const [row] = await alertRows('asha@example.com')
    expect(row).toMatchObject({ city: 'Pune', cityKey: 'pune', confirmedAt: null, userId: null, whatsapp: false, expiresAt: addDays(NOW, 7) })
    const [mail] = await mailTo('asha@example.com')
    expect(mail!.subject).toBe('Please confirm: analysis days in Pune')
    const token = await linkTo('asha@example.com', 'confirm')
    expect(row!.tokenHash).toBe(cityAlertTokenHash(token))
    expect(JSON.stringify(await db().select().from(cityAlerts))).not.toContain(token)
    // Opening the link confirms nothing; the button does, once.
    expect(await cityAlertToConfirm(token, NOW)).toEqual({ city: 'Pune' })
    expect((await alertRows('asha@example.com'))[0]!.confirmedAt).toBeNull()
    expect(await confirmCityAlert(token, NOW)).toEqual({ city: 'Pune' })
    expect((await alertRows('asha@example.com'))[0]).toMatchObject({ confirmedAt: NOW, tokenHash: null, expiresAt: null })
    expect(await confirmCityAlert(token, NOW)).toBeNull()
    expect(await cityAlertToConfirm(token, NOW)).toBeNull()
  })

  it('treats a city under any letter case, spacing or other spelling as one', async () => {
    expect(cityKey('  BENGALURU ')).toBe(cityKey('Bangalore'))
    expect(cityKey('Navi   Mumbai')).toBe('navi mumbai')
    await ask('ravi@example.com', 'Bengaluru')
    const first = await linkTo('ravi@example.com', 'confirm')
    await ask('ravi@example.com', ' bangalore  ')
    const rows = await alertRows('ravi@example.com')
    expect(rows).toHaveLength(1)
    // Asked again while waiting: a new link, and the old one no longer works.
    const second = await linkTo('ravi@example.com', 'confirm')
    expect(second).not.toBe(first)
    expect(await confirmCityAlert(first, NOW)).toBeNull()
    expect(await confirmCityAlert(second, NOW)).toEqual({ city: 'bangalore' })
    // Confirmed: asked again, nothing changes and nothing is sent.
    const sent = (await mailTo('ravi@example.com')).length
    await ask('ravi@example.com', 'BANGALORE')
    expect(await mailTo('ravi@example.com')).toHaveLength(sent)
    expect((await alertRows('ravi@example.com'))[0]!.confirmedAt).toEqual(NOW)
  })

  it('expires unconfirmed: the link stops working, the request is purged, a confirmed one stays', async () => {
    await ask('late@example.com', 'Pune')
    await confirmed('kept@example.com', 'Pune')
    const token = await linkTo('late@example.com', 'confirm')
    const later = addDays(NOW, 7)
    expect(await cityAlertToConfirm(token, later)).toBeNull()
    expect(await confirmCityAlert(token, later)).toBeNull()
    expect(await purgeUnconfirmedCityAlerts(addDays(NOW, 6))).toBe(0)
    // The hourly retention job purges it.
    expect((await applyRetention(later)).cityAlerts).toBe(1)
    expect(await alertRows('late@example.com')).toEqual([])
    expect(await alertRows('kept@example.com')).toHaveLength(1)
  })

  it('keeps at most a few cities per address, telling the address (not the one who asks) why another is not added', async () => {
    const cities = ['Pune', 'Mysuru', 'Chennai', 'Kochi', 'Hyderabad']
    expect(cities).toHaveLength(CITY_ALERTS_PER_ADDRESS)
    for (const [index, city] of cities.entries()) await ask('many@example.com', city, stranger(), new Date(NOW.getTime() + index * 3_600_000))
    await ask('many@example.com', 'Goa', stranger(), new Date(NOW.getTime() + 6 * 3_600_000))
    expect((await alertRows('many@example.com')).map((row) => row.city)).toEqual(cities)
    const last = (await mailTo('many@example.com')).at(-1)!
    expect(last.subject).toBe('Analysis days in Goa: not added')
    expect(last.text).toContain('Pune, Mysuru, Chennai, Kochi, Hyderabad')
  })

  it('is counted per client address and per address typed', async () => {
    const asker = stranger()
    for (let index = 0; index < 10; index += 1) await ask(`person${index}@example.com`, 'Pune', asker)
    expect(await refusal(ask('person10@example.com', 'Pune', asker))).toBeInstanceOf(RateLimitedError)
    for (let index = 0; index < 3; index += 1) await ask('target@example.com', 'Pune')
    expect(await refusal(ask('target@example.com', 'Pune'))).toBeInstanceOf(RateLimitedError)
    expect(await mailTo('target@example.com')).toHaveLength(3)
  })
})

describe('publishing an analysis day', () => {
  it('tells each confirmed request of its city once, with the day and a link to stop; not the unconfirmed, not other cities', async () => {
    await confirmed('pune@example.com', 'pune')
    await ask('waiting@example.com', 'Pune')
    await confirmed('mysuru@example.com', 'Mysuru')
    const { actor, dayId } = await dayIn('Pune', SATURDAY, 'Balewadi Aquatics')
    const [alert, ...more] = await alertMailsTo('pune@example.com')
    expect(more).toEqual([])
    expect(alert!.subject).toBe('The lab comes to Pune: Saturday, 7 December')
    expect(alert!.text).toContain('Competition Race Analysis')
    expect(alert!.text).toContain('Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi')
    expect(alert!.text).toContain('₹1,500.00 a slot')
    expect(alert!.text).toContain(`/analysis-days/${dayId}`)
    expect(alert!.text).toContain('Booking opens to everyone at')
    expect(await alertMailsTo('waiting@example.com')).toEqual([])
    expect(await alertMailsTo('mysuru@example.com')).toEqual([])
    // Published again: nobody is told twice.
    await publishAnalysisDay(actor, dayId, NOW)
    expect(await alertMailsTo('pune@example.com')).toHaveLength(1)
    expect(await db().select().from(cityAlertNotices)).toHaveLength(1)
  })

  it('tells each request once when two instances publish the same day at once', async () => {
    await confirmed('one@example.com', 'Pune')
    await confirmed('two@example.com', 'pune ')
    const { actor, dayId } = await dayIn('Pune', SATURDAY, 'Balewadi Aquatics', false)
    await Promise.all([publishAnalysisDay(actor, dayId, NOW), publishAnalysisDay(actor, dayId, NOW), publishAnalysisDay(actor, dayId, NOW)])
    expect(await alertMailsTo('one@example.com')).toHaveLength(1)
    expect(await alertMailsTo('two@example.com')).toHaveLength(1)
  })

  it('tells again of another day in the city, until the link in an e-mail stops the alerts', async () => {
    await confirmed('stop@example.com', 'Pune')
    await dayIn('Pune', SATURDAY, 'Balewadi Aquatics')
    const token = await linkTo('stop@example.com', 'stop')
    expect(await cityAlertToStop(token)).toEqual({ city: 'Pune' })
    expect(await alertRows('stop@example.com')).toHaveLength(1)
    expect(await stopCityAlert(token)).toEqual({ city: 'Pune' })
    expect(await alertRows('stop@example.com')).toEqual([])
    expect(await stopCityAlert(token)).toBeNull()
    expect(await cityAlertToStop(token)).toBeNull()
    await dayIn('Pune', '2030-12-14', 'Kothrud Pool')
    expect(await alertMailsTo('stop@example.com')).toHaveLength(1)
  })
})

describe('an account’s alerts', () => {
  async function customer() {
    const [person] = await createCustomers(1, 'family')
    const userId = person!.userId!
    await db().update(users).set({ phoneVerifiedAt: NOW }).where(eq(users.id, userId))
    await optInToWhatsApp({ phone: '+919845012345', source: 'account' }, db(), NOW)
    return { ...person!, userId, asker: { ip: '192.0.2.7', account: { id: userId, email: person!.email, isVerified: true } } }
  }

  it('are the account’s only when asked signed in with its own address, and add WhatsApp while its number is proven and opted in', async () => {
    const person = await customer()
    await confirmed(person.email, 'Pune', person.asker, true)
    await confirmed('someone.else@example.com', 'Pune', person.asker, true)
    expect((await alertRows(person.email))[0]).toMatchObject({ userId: person.userId, whatsapp: true })
    expect((await alertRows('someone.else@example.com'))[0]).toMatchObject({ userId: null, whatsapp: false })
    await dayIn('Pune', SATURDAY, 'Balewadi Aquatics')
    const whatsapp = await db().select().from(outboxMessages).where(eq(outboxMessages.channel, 'whatsapp'))
    expect(whatsapp.map((message) => [message.to, message.templateName, message.accountId])).toEqual([['+919845012345', 'analysis_day_in_city', person.userId]])
    // After STOP, e-mail only.
    await optOutOfWhatsApp({ phone: '+919845012345', source: 'reply' }, db(), NOW)
    await dayIn('Pune', '2030-12-14', 'Kothrud Pool')
    expect(await alertMailsTo(person.email)).toHaveLength(2)
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.channel, 'whatsapp'))).toHaveLength(1)
  })

  it('are exported and erased with the account by its key, never by the address', async () => {
    const person = await customer()
    await confirmed(person.email, 'Pune', person.asker)
    // The same address, asked for without signing in: not the account's.
    await confirmed(person.email, 'Mysuru')
    const data = await accountDataOf(person.userId)
    expect(data!.cityAlerts.map((alert) => alert.city)).toEqual(['Pune'])
    await eraseAccount(person.userId, { reason: 'The account was deleted.', now: NOW })
    expect((await alertRows(person.email)).map((row) => row.city)).toEqual(['Mysuru'])
  })
})

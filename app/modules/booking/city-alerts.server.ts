import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, asc, eq, gt, isNotNull, isNull, lte } from 'drizzle-orm'
import { config } from '~/config.server'
import { lockKeys } from '~/db/advisory-locks.server'
import { db, type Executor } from '~/db/client.server'
import { analysisDays, catalogueItems, cityAlertNotices, cityAlerts, venues } from '~/db/schema'
import { addDays, formatLabDateTime, formatTimeRange, toHourMinute } from '~/lib/lab-time'
import { analysisDayLink, cityAlertConfirmLink, cityAlertStopLink } from '~/lib/links'
import { formatRupees } from '~/lib/money'
import { PRODUCT_NAME } from '~/lib/seo'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { cityAlertLimits } from '~/modules/rate-limit/limits.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { accountNumber } from '~/modules/whatsapp/account.server'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { isOptedIn } from '~/modules/whatsapp/consent.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import type { CityAlertInput } from './city-alert-schemas'

// "Tell me when the lab comes to my city": an address asks, from the list of analysis days, to hear
// of the days in a city. Nothing is sent to it but the confirmation until its owner confirms through
// the e-mailed link (a page with a button: a mail scanner following the link confirms nothing);
// unconfirmed requests expire and are purged by the retention job. Publishing a day in the city tells each confirmed
// request once (`tellCityAlerts`, in the publishing transaction), each e-mail with a link that stops
// the alerts. Whoever asks is told the same, whatever the address already asked.

/** How long the confirmation link works; an unconfirmed request is purged after it. */
export const CITY_ALERT_CONFIRM_DAYS = 7

/** The most cities one address is told about (confirmed or waiting for its confirmation). */
export const CITY_ALERTS_PER_ADDRESS = 5

/** Names of one city under another spelling, by their key (lower case, single spaces). */
const SAME_CITY: Record<string, string> = { bengaluru: 'bangalore' }

/** A city as typed, tidied: no spaces around it, single spaces inside. */
export const cityName = (city: string) => city.normalize('NFC').trim().replace(/\s+/g, ' ')

/** The one key of a city, whatever its letter case, spacing or other spelling: "  BENGALURU " is "bangalore". */
export function cityKey(city: string) {
  const key = cityName(city).toLowerCase()
  return SAME_CITY[key] ?? key
}

/** The cities of the lab's open venues, for the form's list of suggestions. */
export async function cityAlertCities(executor: Executor = db()) {
  const rows = await executor.selectDistinct({ city: venues.city }).from(venues).where(isNull(venues.closedAt)).orderBy(asc(venues.city))
  return rows.map((row) => row.city)
}

/** Whether an account may have its alerts on WhatsApp too: WhatsApp on, its number proven and opted in. */
export async function mayAddWhatsApp(accountId: number, executor: Executor = db()) {
  if (!whatsappEnabled()) return false
  const { phone, provenAt } = await accountNumber(accountId, executor)
  return Boolean(phone && provenAt && (await isOptedIn(phone, executor)))
}

/** A link's token is random; only its SHA-256 is stored, so the tables cannot be used to confirm or stop anything. */
export function cityAlertTokenHash(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

const newToken = () => randomBytes(32).toString('base64url')

/** A token as the site makes them: 32 random bytes in base64url. Anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** Who asks: their client address (for the rate limits) and, when signed in, their account. */
export type CityAlertAsker = { ip: string; account: { id: number; email: string; isVerified: boolean } | null }

/**
 * Asks for alerts of a city for an address. Counted per client address and per address typed
 * (refused with RateLimitedError past either). A new request, or one still waiting, gets a new
 * confirmation link by e-mail; a confirmed one stays as it is; an address already asking about
 * CITY_ALERTS_PER_ADDRESS cities is told so by e-mail. The caller answers the same in every case.
 * Signed in with the account's own verified address, the request belongs to the account (erased and
 * exported with it) and may add WhatsApp while the account's number is proven and opted in.
 */
export async function requestCityAlert(input: CityAlertInput, { ip, account }: CityAlertAsker, now = new Date()) {
  const email = input.email.toLowerCase()
  await enforce(cityAlertLimits({ ip, email }), now)
  const city = cityName(input.city)
  const key = cityKey(city)
  const accountId = account?.isVerified && account.email.toLowerCase() === email ? account.id : null
  await db().transaction(async (tx) => {
    // One request of an address at a time: its count of cities holds.
    await lockKeys(tx, [`city-alerts:${email}`])
    await tx.delete(cityAlerts).where(and(eq(cityAlerts.email, email), isNull(cityAlerts.confirmedAt), lte(cityAlerts.expiresAt, now)))
    const owner = accountId === null ? {} : { userId: accountId, whatsapp: input.whatsapp && (await mayAddWhatsApp(accountId, tx)) }
    const held = await tx.select({ id: cityAlerts.id, city: cityAlerts.city, cityKey: cityAlerts.cityKey, confirmedAt: cityAlerts.confirmedAt }).from(cityAlerts).where(eq(cityAlerts.email, email)).orderBy(asc(cityAlerts.id))
    const same = held.find((row) => row.cityKey === key)
    if (same?.confirmedAt) {
      if (accountId !== null) await tx.update(cityAlerts).set(owner).where(eq(cityAlerts.id, same.id))
      return
    }
    if (!same && held.length >= CITY_ALERTS_PER_ADDRESS) {
      await enqueueEmail(tooManyCitiesEmail(email, city, held.map((row) => row.city)), { accountId }, tx, now)
      return
    }
    const token = newToken()
    const expiresAt = addDays(now, CITY_ALERT_CONFIRM_DAYS)
    const pending = { city, tokenHash: cityAlertTokenHash(token), expiresAt, ...owner }
    if (same) await tx.update(cityAlerts).set(pending).where(eq(cityAlerts.id, same.id))
    else await tx.insert(cityAlerts).values({ email, cityKey: key, createdAt: now, ...pending })
    await enqueueEmail(confirmationEmail(email, city, token, expiresAt), { accountId }, tx, now)
  })
}

function confirmationEmail(to: string, city: string, token: string, expiresAt: Date) {
  return letter({
    to,
    subject: `Please confirm: analysis days in ${city}`,
    name: 'there',
    paragraphs: [
      `Someone (we hope you) asked on the website of the ${PRODUCT_NAME} to be told by e-mail when the lab holds an analysis day in ${city}.`,
      `To get these e-mails, open the link below and press the button on the page by ${formatLabDateTime(expiresAt)}. Until then we send nothing more.`,
    ],
    action: { label: 'Confirm the alerts', url: `${config().SITE_URL}${cityAlertConfirmLink(token)}` },
    closing: `If it was not you, ignore this e-mail: the request is deleted after ${CITY_ALERT_CONFIRM_DAYS} days without the confirmation.`,
  })
}

function tooManyCitiesEmail(to: string, city: string, cities: string[]) {
  return letter({
    to,
    subject: `Analysis days in ${city}: not added`,
    name: 'there',
    paragraphs: [
      `Someone (we hope you) asked on the website of the ${PRODUCT_NAME} to be told by e-mail when the lab holds an analysis day in ${city}.`,
      `This address already asks about ${cities.length} cities (${cities.join(', ')}), the most we keep for one address, so ${city} was not added.`,
      `To add it, stop the alerts of another city with the link at the end of one of its e-mails (a request not confirmed within ${CITY_ALERT_CONFIRM_DAYS} days is deleted on its own), then ask again.`,
    ],
  })
}

/** A confirmation link's request, waiting and not expired, or null (a token the site never made, used, or expired). */
async function waitingRequest(executor: Executor, token: string, now: Date, { lock }: { lock: boolean }) {
  if (!TOKEN_SHAPE.test(token)) return null
  const hash = cityAlertTokenHash(token)
  const query = executor
    .select({ id: cityAlerts.id, city: cityAlerts.city, tokenHash: cityAlerts.tokenHash })
    .from(cityAlerts)
    .where(and(eq(cityAlerts.tokenHash, hash), isNull(cityAlerts.confirmedAt), gt(cityAlerts.expiresAt, now)))
  const [row] = lock ? await query.for('update') : await query
  return row?.tokenHash && sameHash(row.tokenHash, hash) ? row : null
}

/** The index found the row by its hash; comparing again in constant time leaves no timing to learn from. */
const sameHash = (stored: string, hash: string) => timingSafeEqual(Buffer.from(stored), Buffer.from(hash))

/** What the confirmation page shows for its link: the city, or null when the link no longer works. */
export async function cityAlertToConfirm(token: string, now = new Date()) {
  const request = await waitingRequest(db(), token, now, { lock: false })
  return request ? { city: request.city } : null
}

/** Confirms the request of a link (once: the token is forgotten), or null when the link no longer works. */
export async function confirmCityAlert(token: string, now = new Date()) {
  return db().transaction(async (tx) => {
    const request = await waitingRequest(tx, token, now, { lock: true })
    if (!request) return null
    await tx.update(cityAlerts).set({ confirmedAt: now, tokenHash: null, expiresAt: null }).where(eq(cityAlerts.id, request.id))
    return { city: request.city }
  })
}

/** The alert an alert e-mail's stop link belongs to, or null (a token the site never made, or alerts already stopped). */
async function noticedAlert(executor: Executor, token: string) {
  if (!TOKEN_SHAPE.test(token)) return null
  const hash = cityAlertTokenHash(token)
  const [row] = await executor
    .select({ alertId: cityAlertNotices.cityAlertId, city: cityAlerts.city, tokenHash: cityAlertNotices.tokenHash })
    .from(cityAlertNotices)
    .innerJoin(cityAlerts, eq(cityAlerts.id, cityAlertNotices.cityAlertId))
    .where(eq(cityAlertNotices.tokenHash, hash))
  return row && sameHash(row.tokenHash, hash) ? row : null
}

/** What the stop page shows for its link: the city, or null when the link no longer works. */
export async function cityAlertToStop(token: string) {
  const alert = await noticedAlert(db(), token)
  return alert ? { city: alert.city } : null
}

/** Stops an alert from its e-mail's link: the request is deleted (with what it was told). Null when the link no longer works. */
export async function stopCityAlert(token: string) {
  return db().transaction(async (tx) => {
    const alert = await noticedAlert(tx, token)
    if (!alert) return null
    const [deleted] = await tx.delete(cityAlerts).where(eq(cityAlerts.id, alert.alertId)).returning({ city: cityAlerts.city })
    return deleted ?? null
  })
}

/** Deletes the requests whose confirmation link ran out (the retention job, `applyRetention`). */
export async function purgeUnconfirmedCityAlerts(now = new Date()) {
  const purged = await db()
    .delete(cityAlerts)
    .where(and(isNull(cityAlerts.confirmedAt), lte(cityAlerts.expiresAt, now)))
    .returning({ id: cityAlerts.id })
  return purged.length
}

/**
 * Tells every confirmed request of a day's city of the day, in the transaction that publishes it:
 * one notice per request and day (a unique row, written before its messages are queued), so a day
 * published again, or by two instances at once, tells nobody twice. Each gets an e-mail with the
 * day's dates, venue, product, price and page, and the link to stop the alerts; WhatsApp too where
 * the request asked for it and the account's number is still proven and opted in.
 */
export async function tellCityAlerts(tx: Executor, day: { id: number; dates: string }, now: Date) {
  const [about] = await tx
    .select({ city: venues.city, venueName: venues.name, address: venues.address, productName: catalogueItems.name, pricePaise: analysisDays.pricePaise, startTime: analysisDays.startTime, endTime: analysisDays.endTime, releaseAt: analysisDays.releaseAt })
    .from(analysisDays)
    .innerJoin(venues, eq(venues.id, analysisDays.venueId))
    .innerJoin(catalogueItems, eq(catalogueItems.code, analysisDays.productCode))
    .where(eq(analysisDays.id, day.id))
  if (!about) return 0
  const alerts = await tx
    .select({ id: cityAlerts.id, email: cityAlerts.email, userId: cityAlerts.userId, whatsapp: cityAlerts.whatsapp })
    .from(cityAlerts)
    .where(and(eq(cityAlerts.cityKey, cityKey(about.city)), isNotNull(cityAlerts.confirmedAt)))
    .orderBy(asc(cityAlerts.id))
  const shown = { ...about, dates: day.dates, hours: formatTimeRange(toHourMinute(about.startTime), toHourMinute(about.endTime)), price: formatRupees(about.pricePaise), url: `${config().SITE_URL}${analysisDayLink(day.id)}` }
  let told = 0
  for (const alert of alerts) {
    const token = newToken()
    const [notice] = await tx
      .insert(cityAlertNotices)
      .values({ cityAlertId: alert.id, analysisDayId: day.id, tokenHash: cityAlertTokenHash(token), createdAt: now })
      .onConflictDoNothing({ target: [cityAlertNotices.cityAlertId, cityAlertNotices.analysisDayId] })
      .returning({ id: cityAlertNotices.id })
    if (!notice) continue
    told += 1
    await enqueueEmail(dayAlertEmail(alert.email, shown, token, now), { accountId: alert.userId }, tx, now)
    const accountId = alert.userId
    if (alert.whatsapp && accountId !== null)
      await notifyOnWhatsApp(
        'analysis_day_in_city',
        async () => {
          const { phone, provenAt } = await accountNumber(accountId, tx)
          return { phone: provenAt ? phone : null, parameters: [shown.city, shown.productName, shown.venueName, shown.dates, shown.price, shown.url], about: { accountId } }
        },
        tx,
        now,
      )
  }
  return told
}

type DayShown = { city: string; venueName: string; address: string; productName: string; dates: string; hours: string; price: string; url: string; releaseAt: Date }

function dayAlertEmail(to: string, day: DayShown, token: string, now: Date) {
  return letter({
    to,
    subject: `The lab comes to ${day.city}: ${day.dates}`,
    name: 'there',
    paragraphs: [
      `The ${PRODUCT_NAME} is bringing its underwater cameras to ${day.venueName} in ${day.city}, and films swimmers there one slot at a time.`,
      day.releaseAt > now ? `Booking opens to everyone at ${formatLabDateTime(day.releaseAt)}.` : 'Slots can be booked now.',
    ],
    details: [
      ['What', day.productName],
      ['Dates', day.dates],
      ['Hours', day.hours],
      ['Venue', `${day.venueName}, ${day.address}`],
      ['Price', `${day.price} a slot, GST included`],
    ],
    action: { label: 'See the slots and book', url: day.url },
    closing: `You get this e-mail because you asked us to tell you when the lab comes to ${day.city}. To stop these e-mails, open ${config().SITE_URL}${cityAlertStopLink(token)}`,
  })
}

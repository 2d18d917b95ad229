import { and, eq, inArray, ne } from 'drizzle-orm'
import { config } from '~/config.server'
import { campBatches, campRegistrations, camps, campWaitlist } from '~/db/schema'
import { registrationContactAndPriceColumns } from '~/db/camp-columns.server'
import { refundPolicyIn } from '~/modules/site/site.server'
import { formatRupees } from '~/lib/money'
import { daysBetween, formatDateRange, formatTimeRange } from '~/lib/lab-time'
import { refundedHow } from '~/modules/booking/fulfilment.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { campFormFilledIn } from '~/modules/whatsapp/links.server'
import type { Executor } from '~/db/client.server'
import { calendarAttachment, calendarFile } from '~/modules/mail/ics.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { setStatus } from '~/modules/statuses/status.server'
import { campPaidSentence } from './texts'
import { refundedBy, type CompletedRefund, type PaidOutcome, type Payable, type PaymentTerms, type UnpaidBecause } from '~/modules/payments/payable-contract.server'
import { campSeatsTaken, registrationOpen } from './camps.server'
import { sameSwimmer } from './registrations.server'
import { campSeatFreed } from '~/modules/statuses/camp-seat-freed.server'
import { lockBatchById } from './waitlist.server'
import { draftCampLines, groupPaid, groupRefunded, groupTerms, groupUnpaid, leadsGroup, lockedRegistrationColumns } from './groups.server'
import { campOrderLines, campOrderQuote, repriceCampOrder } from './pricing.server'
import { quoteRows } from '~/modules/payments/quote'
import { campRegistrationLink } from '~/lib/links'

async function lockRegistration(tx: Executor, registrationId: number) {
  const [row] = await tx
    .select(lockedRegistrationColumns)
    .from(campRegistrations)
    .where(eq(campRegistrations.id, registrationId))
    .for('update')
  return row ?? null
}

/**
 * A payment completed. Confirms the registration while its hold stands; after the hold ran out,
 * only if a seat is still free and the camp still takes registrations; otherwise the money goes back.
 */
async function paid(tx: Executor, registrationId: number, now: Date): Promise<PaidOutcome> {
  const { batch, registration } = await lockBatchThenRegistration(tx, registrationId)
  if (!registration) return { result: 'refund', reason: 'The registration no longer exists.' }
  if (registration.status === 'confirmed') return { result: 'refund', reason: 'This registration had already been paid for: a second payment is refunded.' }
  if (registration.status === 'cancelled' || registration.status === 'refund_pending' || registration.status === 'refunded') {
    return { result: 'refund', reason: 'The registration had been cancelled before the payment arrived.' }
  }
  // The same swimmer may have tried again while this payment was on its way: the first payment to
  // complete wins; a swimmer already registered gets this money back.
  const others = await tx
    .select({ id: campRegistrations.id, status: campRegistrations.status })
    .from(campRegistrations)
    .where(and(sameSwimmer(registration.campId, { email: registration.email, swimmerName: registration.name }), ne(campRegistrations.id, registrationId), inArray(campRegistrations.status, ['pending', 'confirmed'])))
    .for('update')
  if (others.some((other) => other.status === 'confirmed')) return { result: 'refund', reason: 'This swimmer was already registered for the camp: a second payment is refunded.' }
  for (const other of others) await setStatus(tx, campRegistrations, 'expired', eq(campRegistrations.id, other.id), { updatedAt: now })

  const holdStands = registration.status === 'pending' && registration.holdExpiresAt !== null && registration.holdExpiresAt > now
  if (!holdStands && !(await seatStillFree(tx, registrationId, batch, now))) {
    await setStatus(tx, campRegistrations, 'refund_pending', eq(campRegistrations.id, registrationId), { holdExpiresAt: null, updatedAt: now })
    await enqueueEmail(await latePaymentEmail(tx, registrationId), { campRegistrationId: registrationId }, tx, now)
    await notifyOnWhatsApp(
      'refund_started',
      async () => {
        const mail = await registrationDetails(tx, registrationId)
        return { phone: mail.phone, parameters: [campPaidFor(mail, mail.swimmerName), mail.reference, campLatePaymentReason(), formatRupees(mail.amountPaise), await refundPolicyIn(tx)], names: [mail.swimmerName], about: { campRegistrationId: registrationId } }
      },
      tx,
      now,
    )
    return { result: 'refund', reason: 'The payment arrived after the seat hold had expired and the batch was full.' }
  }
  await setStatus(tx, campRegistrations, 'confirmed', eq(campRegistrations.id, registrationId), { confirmedAt: now, holdExpiresAt: null, updatedAt: now })
  await tx.update(campWaitlist).set({ status: 'registered' }).where(eq(campWaitlist.registrationId, registrationId))
  await enqueueEmail(await confirmationEmail(tx, registrationId, now), { campRegistrationId: registrationId }, tx, now)
  await notifyOnWhatsApp(
    'camp_confirmed',
    async () => {
      const mail = await registrationDetails(tx, registrationId)
      return { phone: mail.phone, parameters: [mail.swimmerName, mail.campName, formatDateRange(mail.startsOn, mail.endsOn), batchLine(mail), mail.reference], names: [mail.swimmerName], about: { campRegistrationId: registrationId } }
    },
    tx,
    now,
  )
  return { result: 'confirmed', late: !holdStands }
}

async function seatStillFree(tx: Executor, registrationId: number, batch: LockedBatch | null, now: Date) {
  if (!batch || !registrationOpen(batch, now)) return false
  const taken = (await campSeatsTaken([batch.batchId], now, tx, registrationId)).get(batch.batchId) ?? 0
  return taken < batch.capacity
}

type LockedBatch = NonNullable<Awaited<ReturnType<typeof lockBatchById>>> & { batchId: number }

/**
 * Every camp path that changes seats locks the batch before its registrations (holds, waitlist
 * offers, staff moves): a payment taking them the other way round could wait in a circle with a
 * parent retrying at the same moment, and PostgreSQL would abort one of the two. Staff may move the
 * registration to another batch between the look and the lock, hence the second look.
 */
async function lockBatchThenRegistration(tx: Executor, registrationId: number) {
  for (let attempt = 0; ; attempt += 1) {
    const [current] = await tx.select({ batchId: campRegistrations.batchId }).from(campRegistrations).where(eq(campRegistrations.id, registrationId))
    if (!current) return { batch: null, registration: null }
    const locked = await lockBatchById(tx, current.batchId)
    const batch = locked ? { ...locked, batchId: current.batchId } : null
    const registration = await lockRegistration(tx, registrationId)
    if (!registration || registration.batchId === current.batchId) return { batch, registration }
    // Moved again and again while we looked: no batch is vouched for, so a late payment is refunded.
    if (attempt === 2) return { batch: null, registration }
  }
}

/**
 * Every payment failed: the seat is released at once (an offered waitlist seat passes to the next),
 * and the parent is told where to register again. Given up before paying, it is only released.
 */
async function unpaid(tx: Executor, registrationId: number, now: Date, why: UnpaidBecause) {
  const released = await setStatus(tx, campRegistrations, 'payment_failed', eq(campRegistrations.id, registrationId), { holdExpiresAt: null, updatedAt: now }).returning({ id: campRegistrations.id })
  if (!released.length) return
  if (why === 'payment_failed') {
    const mail = await registrationDetails(tx, registrationId)
    await enqueueEmail(paymentFailedEmail(mail, { total: mail.amountPaise, names: mail.swimmerName, greeting: mail.swimmerName }), { campRegistrationId: registrationId }, tx, now)
    await notifyOnWhatsApp(
      'payment_failed',
      { phone: mail.phone, parameters: [formatRupees(mail.amountPaise), campPaidFor(mail, mail.swimmerName), mail.reference, { kind: 'register-again', registrationId }], names: [mail.swimmerName], about: { campRegistrationId: registrationId } },
      tx,
      now,
    )
  }
  await tx.update(campWaitlist).set({ status: 'expired' }).where(and(eq(campWaitlist.registrationId, registrationId), eq(campWaitlist.status, 'offered')))
  await campSeatFreed(tx)
}

async function refunded(tx: Executor, registrationId: number, { amountPaise, how, creditNote }: CompletedRefund, now: Date) {
  const registration = await lockRegistration(tx, registrationId)
  if (registration?.status === 'refund_pending' || registration?.status === 'cancelled') {
    await setStatus(tx, campRegistrations, 'refunded', eq(campRegistrations.id, registrationId), { updatedAt: now })
  }
  const mail = await registrationDetails(tx, registrationId)
  await enqueueEmail(
    letter({
      to: mail.email,
      subject: `Refund completed (${mail.reference})`,
      name: mail.swimmerName,
      attachments: creditNote ? [creditNote] : undefined,
      paragraphs: [`Your refund of ${formatRupees(amountPaise)} for ${mail.campName} (${mail.reference}) ${refundedBy(how)}`],
      details: [
        ['Registration ID', mail.reference],
        ['Refunded', formatRupees(amountPaise)],
      ],
    }),
    { campRegistrationId: registrationId },
    tx,
    now,
  )
  await notifyOnWhatsApp('refund_completed', { phone: mail.phone, parameters: [formatRupees(amountPaise), campPaidFor(mail, mail.swimmerName), mail.reference, refundedHow(how)], names: [mail.swimmerName], about: { campRegistrationId: registrationId } }, tx, now)
}

async function terms(tx: Executor, registrationId: number, now: Date): Promise<PaymentTerms | null> {
  const registration = await lockRegistration(tx, registrationId)
  if (!registration || registration.status !== 'pending' || !registration.holdExpiresAt || registration.holdExpiresAt <= now) return null
  return {
    amountPaise: registration.amountPaise,
    holdExpiresAt: registration.holdExpiresAt,
    customer: { name: registration.name, email: registration.email, phone: registration.phone },
    reference: registration.reference,
    lines: [{ id: registrationId, pricePaise: registration.amountPaise + registration.promoDiscountPaise }],
    promoProduct: 'camp',
    accountId: registration.accountId,
  }
}

/**
 * A camp payment pays for one registration, or for the group of registrations it leads (an
 * account's swimmers registered together, see groups.server.ts).
 */
export const campPayable: Payable = {
  orderPrefix: 'CAMP',
  termsForPayment: async (tx, id, now) => ((await leadsGroup(tx, id)) ? groupTerms(tx, id, now) : terms(tx, id, now)),
  paid: async (tx, id, now) => ((await leadsGroup(tx, id)) ? groupPaid(tx, id, now) : paid(tx, id, now)),
  unpaid: async (tx, id, now, why) => ((await leadsGroup(tx, id)) ? groupUnpaid(tx, id, now, why) : unpaid(tx, id, now, why)),
  refunded: async (tx, id, refund, now) => ((await leadsGroup(tx, id)) ? groupRefunded(tx, id, refund, now) : refunded(tx, id, refund, now)),
  quoting: { lines: campOrderLines, reprice: repriceCampOrder, draft: draftCampLines },
}

/** A registration with its camp and batch: what its e-mails, calendar invitation, receipt and payment's status page say. */
export async function registrationDetails(executor: Executor, registrationId: number) {
  const [row] = await executor
    .select({
      status: campRegistrations.status,
      reference: campRegistrations.reference,
      ...registrationContactAndPriceColumns,
      campCode: camps.code,
      campName: camps.name,
      startsOn: camps.startsOn,
      endsOn: camps.endsOn,
      venue: camps.venue,
      batchCode: campBatches.code,
      batchName: campBatches.name,
      timeRanges: campBatches.timeRanges,
    })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
    .where(eq(campRegistrations.id, registrationId))
  if (!row) throw new Error(`Camp registration ${registrationId} not found`)
  return row
}

type RegistrationDetails = Awaited<ReturnType<typeof registrationDetails>>

export function batchTimes(timeRanges: RegistrationDetails['timeRanges']) {
  return timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' and ')
}

/** The batch with its times, in a message: "Morning batch, 7:00 AM - 9:00 AM". */
export function batchLine(mail: Pick<RegistrationDetails, 'batchName' | 'timeRanges'>) {
  return `${mail.batchName}, ${batchTimes(mail.timeRanges)}`
}

/** What a camp payment is for, in a message: "Summer Camp 2027 for Aarav Sharma" (or for several swimmers). */
export function campPaidFor(mail: Pick<RegistrationDetails, 'campName'>, swimmers: string) {
  return `${mail.campName} for ${swimmers}`
}

/** Why a camp payment that came too late goes back, in the refund message. */
export function campLatePaymentReason() {
  return `your payment reached us after the ${config().SEAT_HOLD_MINUTES}-minute seat hold had ended, and meanwhile the batch filled up`
}

function campRows(mail: RegistrationDetails): Array<[string, string]> {
  return [
    ['Registration ID', mail.reference],
    ['Swimmer', mail.swimmerName],
    ['Camp', `${mail.campName}, ${formatDateRange(mail.startsOn, mail.endsOn)}`],
    ['Batch', `${mail.batchName}: ${batchTimes(mail.timeRanges)}, every day`],
    ['Location', mail.venue],
  ]
}

function campDays(mail: RegistrationDetails) {
  return daysBetween(mail.startsOn, mail.endsOn) + 1
}

/**
 * The camp's daily sessions in the registration's batch as a calendar file. The event ids stay the
 * same for the registration, so a later copy with a higher sequence (after a batch move) replaces
 * the first in the parent's calendar.
 */
export function campCalendar(mail: RegistrationDetails, { sequence = 0, now }: { sequence?: number; now: Date }) {
  return calendarFile(
    mail.timeRanges.map((range, index) => ({
      uid: `camp-${mail.reference}-session-${index + 1}@swimlab`,
      date: mail.startsOn,
      start: range.start,
      end: range.end,
      dailyFor: campDays(mail),
      summary: `${mail.campName} swimming camp (${mail.batchName})`,
      location: mail.venue,
      description: `Registration ${mail.reference} for ${mail.swimmerName}. Please arrive 15 minutes early with swimming gear and a towel.`,
    })),
    { sequence, now },
  )
}

async function confirmationEmail(executor: Executor, registrationId: number, now: Date) {
  const mail = await registrationDetails(executor, registrationId)
  const ics = campCalendar(mail, { now })
  return letter({
    to: mail.email,
    subject: `Camp registration confirmed: ${mail.swimmerName}, ${mail.campName} (${mail.reference})`,
    name: mail.swimmerName,
    paragraphs: [`${campPaidSentence(mail.amountPaise)} You're registered for the camp! Here are the details.`],
    details: [
      ...campRows(mail),
      ...quoteRows(await campOrderQuote(executor, registrationId), 'Amount paid').map(({ term, value }): [string, string] => [term, value]),
    ],
    list: { title: 'Before the camp', items: ['Please arrive 15 minutes before your batch.', 'Bring swimming gear, a towel and a water bottle.'] },
    action: { label: 'Register another swimmer', url: `${config().SITE_URL}${campRegistrationLink(mail)}` },
    closing: `The attached calendar file adds the camp (${formatDateRange(mail.startsOn, mail.endsOn)}) to your calendar.`,
    attachments: [calendarAttachment(ics, `${mail.reference}.ics`)],
  })
}

/**
 * The e-mail after a camp payment failed: for one registration, or a family's group (`names` of its
 * swimmers, `total` their fees), with the link to the form, filled in, to register again.
 */
export function paymentFailedEmail(mail: RegistrationDetails, { total, names, greeting }: { total: number; names: string; greeting: string }) {
  return letter({
    to: mail.email,
    subject: `Payment failed: ${campPaidFor(mail, names)} (${mail.reference})`,
    name: greeting,
    paragraphs: [
      `Your payment of ${formatRupees(total)} for ${campPaidFor(mail, names)} did not go through, so the registration is not confirmed and the seat is no longer held for you.`,
      'You can register and pay again with the link below. If you have registered again already, please ignore this e-mail.',
    ],
    details: [
      ['Registration ID', mail.reference],
      ['Camp', `${mail.campName}, ${formatDateRange(mail.startsOn, mail.endsOn)}`],
      ['Batch', `${mail.batchName}: ${batchTimes(mail.timeRanges)}`],
    ],
    action: { label: 'Try Again', url: campFormFilledIn(mail) },
  })
}

async function latePaymentEmail(executor: Executor, registrationId: number) {
  const mail = await registrationDetails(executor, registrationId)
  const refundPolicy = await refundPolicyIn(executor)
  return letter({
    to: mail.email,
    subject: `Your payment is being refunded (${mail.reference})`,
    name: mail.swimmerName,
    paragraphs: [
      `Your payment of ${formatRupees(mail.amountPaise)} reached us after the ${config().SEAT_HOLD_MINUTES}-minute hold on your seat had ended, and meanwhile the batch filled up. We are sorry: we could not confirm this registration.`,
      `The full amount is being refunded ${refundPolicy}. You do not need to do anything. You can join the waitlist for the batch on the registration form.`,
    ],
    details: campRows(mail),
  })
}

import { and, asc, eq, inArray } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { campRegistrations, campWaitlist, swimmers, users } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addMinutes, formatDateRange } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { setStatus } from '~/modules/statuses/status.server'
import { campPaidSentence } from './texts'
import { holderColumns, limitHoldAttempts, makeRoomForHold, type Holder } from '~/modules/holders/holders.server'
import { calendarAttachment } from '~/modules/mail/ics.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { refundedBy, type CompletedRefund, type OrderDraft, type PaidOutcome, type PaymentTerms, type UnpaidBecause } from '~/modules/payments/payable-contract.server'
import { refundPolicyIn } from '~/modules/site/site.server'
import { mayBeBooked } from '~/modules/swimmers/consent.server'
import { swimmerAge, swimmersOf } from '~/modules/swimmers/swimmers.server'
import { campSeatsTaken, registrationOpen, waitingCounts } from './camps.server'
import { batchLine, batchTimes, campCalendar, campLatePaymentReason, campPaidFor, paymentFailedEmail, registrationDetails } from './fulfilment.server'
import { refundedHow } from '~/modules/booking/fulfilment.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { AlreadyRegisteredError, BatchFullError, findBatchOrExplain, insertRegistration, lockBatchOrExplain, RegistrationClosedError, sameSwimmer } from './registrations.server'
import { campSeatFreed } from '~/modules/statuses/camp-seat-freed.server'
import { lockBatchById } from './waitlist.server'
import { campLine, campOrderQuote, priceColumns, registrationPrices, type Family } from './pricing.server'
import { quoteRows } from '~/modules/payments/quote'
import { href } from 'react-router'

/**
 * A signed-in parent registers several of their account's swimmers for one batch of a camp at once
 * and pays for them together. Each swimmer gets a registration and a seat of their own; the seats
 * are held together (all of them or none) and the one payment, recorded under the first of them,
 * confirms or releases them all. Staff still cancel and refund each registration on its own: a
 * refund of one gives back that swimmer's fee from the shared payment.
 *
 * Such registrations do not join the camp line: an account has a bounded number of swimmers, and
 * its holds count against the same per-account, per-address and per-network limits as any other.
 * The seats are held in one transaction under the batch's lock, as the line itself holds them.
 */

/** At least one swimmer must be chosen; the form says so next to the list. */
export const SWIMMERS_FIELD = 'swimmers'

/** A swimmer id of another account (or none at all): nothing is said about it and nothing held. */
export class SwimmerNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'Swimmer not found.')
  }
}

/** Minors among the chosen swimmers whose parent has not consented (or has withdrawn consent). */
export class ConsentMissingError extends DomainError {
  constructor(names: string[]) {
    super(
      'conflict',
      `${listNames(names)} ${names.length === 1 ? 'is' : 'are'} under 18 and cannot be registered without a parent's or guardian's consent. Please give consent on the Swimmers page first, or choose only the other swimmers.`,
      SWIMMERS_FIELD,
    )
  }
}

/** The batch has seats, but fewer than the swimmers chosen: none is held. */
export class NotEnoughSeatsError extends DomainError {
  constructor(campName: string, batchName: string, seatsLeft: number, wanted: number) {
    super('conflict', `${batchName} of ${campName} has only ${seatsLeft} ${seatsLeft === 1 ? 'seat' : 'seats'} left, not enough for the ${wanted} swimmers you chose. No seat has been held. Please choose fewer swimmers or another batch.`)
  }
}

export function listNames(names: string[]) {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/**
 * The account's swimmers as the form offers them: name and age, and for a minor without a parent's
 * consent in force, that it is needed (the registration is refused without it).
 */
export async function swimmerChoices(accountId: number, now = new Date()) {
  const rows = await swimmersOf(accountId)
  return Promise.all(
    rows.map(async (swimmer) => {
      const age = swimmerAge(swimmer, now)
      const consent = (await mayBeBooked(swimmer, now)) ? '' : ", needs a parent's consent"
      return { id: String(swimmer.id), name: swimmer.name, label: `${swimmer.name} (${age} ${age === 1 ? 'year' : 'years'}${consent})` }
    }),
  )
}

/**
 * The account's swimmers with these ids, in the order their seats are held and priced (the first
 * pays the fee): the account holder first, then as they were added. Another account's swimmer: refused.
 */
async function chosenSwimmers(accountId: number, swimmerIds: number[]) {
  const ids = [...new Set(swimmerIds)]
  const chosen = ids.length ? await db().select().from(swimmers).where(and(eq(swimmers.accountId, accountId), inArray(swimmers.id, ids))).orderBy(asc(swimmers.id)) : []
  if (ids.length === 0 || chosen.length !== ids.length) throw new SwimmerNotFoundError()
  return chosen.sort((a, b) => Number(b.isAccountHolder) - Number(a.isAccountHolder) || a.id - b.id)
}

/**
 * The lines of a camp order not held yet, priced as holding its seats now would price them (the fee
 * in force and the sibling price, registrationPrices), before a promo code. Nothing is held or
 * locked. A parent without an account is priced as a new family: whether an e-mail address and
 * phone number have a swimmer paid for is not told to whoever types them (the summary after the
 * seat is held shows the sibling price when it applies).
 */
export async function draftCampLines(executor: Executor, draft: OrderDraft, now: Date) {
  const batch = await findBatchOrExplain(executor, draft.campCode, draft.batchCode)
  if (!registrationOpen(batch, now)) throw new RegistrationClosedError(batch.campName)
  const names = 'ids' in draft.swimmers ? (await chosenSwimmers(draft.swimmers.accountId, draft.swimmers.ids)).map((swimmer) => swimmer.name) : [draft.swimmers.name || 'your swimmer']
  const family: Family | null = 'ids' in draft.swimmers ? { accountId: draft.swimmers.accountId } : null
  const prices = await registrationPrices(executor, batch, family, names.length, now)
  const lines = names.map((swimmerName, index) => campLine({ id: index + 1, swimmerName, feePaise: prices[index]!.feePaise, siblingDiscountPaise: prices[index]!.siblingDiscountPaise, promoDiscountPaise: 0 }))
  return { lines, promoProduct: 'camp' as const }
}

type GroupRequest = {
  accountId: number
  swimmerIds: number[]
  campCode: string
  batchCode: string
  contact: { email: string; phone: string }
  holder: Holder
  now?: Date
}

/**
 * Holds a seat for each chosen swimmer of the account in the batch, for SEAT_HOLD_MINUTES while the
 * parent pays, all or none. Another account's swimmer, a minor without consent in force, a swimmer
 * already registered for the camp, or too few seats: refused, nothing held. The first swimmer pays
 * the fee and each further one the camp's sibling price (every one of them, when the account has a
 * swimmer paid for in the camp already). Returns the first registration's id, under which the
 * payment of their amounts' sum is made.
 */
export async function holdFamilySeats({ accountId, swimmerIds, campCode, batchCode, contact, holder, now = new Date() }: GroupRequest) {
  const chosen = await chosenSwimmers(accountId, swimmerIds)
  const withoutConsent: string[] = []
  for (const swimmer of chosen) if (!(await mayBeBooked(swimmer, now))) withoutConsent.push(swimmer.name)
  if (withoutConsent.length) throw new ConsentMissingError(withoutConsent)
  await limitHoldAttempts(holder, now)

  const email = contact.email.toLowerCase()
  return db().transaction(async (tx) => {
    const holdExpiresAt = addMinutes(now, config().SEAT_HOLD_MINUTES)
    // The holder's locks first, then the batch's, as every hold takes them.
    await makeRoomForHold(tx, holder, now)
    const batch = await lockBatchOrExplain(tx, campCode, batchCode)
    if (!registrationOpen(batch, now)) throw new RegistrationClosedError(batch.campName)
    for (const swimmer of chosen) {
      const [live] = await tx
        .select({ id: campRegistrations.id })
        .from(campRegistrations)
        .where(and(sameSwimmer(batch.campId, { email, swimmerName: swimmer.name }), inArray(campRegistrations.status, ['pending', 'confirmed'])))
        .limit(1)
      if (live) throw new AlreadyRegisteredError(swimmer.name, batch.campName)
    }
    const taken = (await campSeatsTaken([batch.batchId], now, tx)).get(batch.batchId) ?? 0
    const waiting = (await waitingCounts([batch.batchId], tx)).get(batch.batchId) ?? 0
    const seatsLeft = Math.max(0, batch.capacity - taken - waiting)
    if (seatsLeft === 0) throw new BatchFullError(batch.campName, batch.batchName)
    if (seatsLeft < chosen.length) throw new NotEnoughSeatsError(batch.campName, batch.batchName, seatsLeft, chosen.length)

    const prices = await registrationPrices(tx, batch, { accountId }, chosen.length, now)
    const held: Array<{ id: number; reference: string; swimmerName: string; amountPaise: number; siblingDiscountPaise: number }> = []
    for (const [index, swimmer] of chosen.entries()) {
      const price = prices[index]!
      const registration = await insertRegistration(tx, {
        campId: batch.campId,
        batchId: batch.batchId,
        swimmerName: swimmer.name,
        email,
        phone: contact.phone,
        accountId,
        swimmerId: swimmer.id,
        groupId: held[0]?.id ?? null,
        ...priceColumns(price),
        status: 'pending',
        holdExpiresAt,
        ...holderColumns(holder),
        createdAt: now,
        updatedAt: now,
      })
      if (held.length === 0) await tx.update(campRegistrations).set({ groupId: registration.id }).where(eq(campRegistrations.id, registration.id))
      held.push({ ...registration, swimmerName: swimmer.name, ...priceColumns(price) })
    }
    return { leadId: held[0]!.id, registrations: held, amountPaise: held.reduce((sum, registration) => sum + registration.amountPaise, 0), holdExpiresAt, campName: batch.campName }
  })
}

/** The group a registration leads (its payment pays for all of them), in order; empty when it leads none. */
export async function groupMembers(executor: Executor, leadId: number) {
  return executor
    .select({ id: campRegistrations.id, reference: campRegistrations.reference, swimmerName: campRegistrations.swimmerName, amountPaise: campRegistrations.amountPaise, status: campRegistrations.status })
    .from(campRegistrations)
    .where(eq(campRegistrations.groupId, leadId))
    .orderBy(asc(campRegistrations.id))
}

/** Whether the registration's payment pays for a group (it leads one). */
export async function leadsGroup(executor: Executor, registrationId: number) {
  const [row] = await executor.select({ groupId: campRegistrations.groupId }).from(campRegistrations).where(eq(campRegistrations.id, registrationId))
  return row?.groupId === registrationId
}

/** What a payment's outcome needs of a registration it locks (one alone, or each of a group). */
export const lockedRegistrationColumns = {
  status: campRegistrations.status,
  holdExpiresAt: campRegistrations.holdExpiresAt,
  amountPaise: campRegistrations.amountPaise,
  promoDiscountPaise: campRegistrations.promoDiscountPaise,
  accountId: campRegistrations.accountId,
  batchId: campRegistrations.batchId,
  campId: campRegistrations.campId,
  name: campRegistrations.swimmerName,
  email: campRegistrations.email,
  phone: campRegistrations.phone,
  reference: campRegistrations.reference,
}

/** The group's registrations locked, after their batch (every camp path locks the batch first). */
async function lockGroup(tx: Executor, leadId: number) {
  const [lead] = await tx.select({ batchId: campRegistrations.batchId }).from(campRegistrations).where(eq(campRegistrations.id, leadId))
  const batch = lead ? await lockBatchById(tx, lead.batchId) : null
  const members = await tx
    .select({ id: campRegistrations.id, ...lockedRegistrationColumns })
    .from(campRegistrations)
    .where(eq(campRegistrations.groupId, leadId))
    .orderBy(asc(campRegistrations.id))
    .for('update')
  return { batch: batch && lead ? { ...batch, batchId: lead.batchId } : null, members }
}

/** The one payment for the group: the sum of its fees, while every seat's hold stands. */
export async function groupTerms(tx: Executor, leadId: number, now: Date): Promise<PaymentTerms | null> {
  const { members } = await lockGroup(tx, leadId)
  const lead = members.find((member) => member.id === leadId)
  if (!lead || members.some((member) => member.status !== 'pending' || !member.holdExpiresAt || member.holdExpiresAt <= now)) return null
  return {
    amountPaise: members.reduce((sum, member) => sum + member.amountPaise, 0),
    holdExpiresAt: new Date(Math.min(...members.map((member) => member.holdExpiresAt!.getTime()))),
    customer: { name: await guardianName(tx, lead), email: lead.email, phone: lead.phone },
    reference: lead.reference,
    lines: members.map((member) => ({ id: member.id, pricePaise: member.amountPaise + member.promoDiscountPaise })),
    promoProduct: 'camp',
    accountId: lead.accountId,
  }
}

/**
 * The group's payment completed: every registration is confirmed while the holds stand; after they
 * ran out, only if a seat is still free for each of them (and the camp takes registrations).
 * Otherwise none is, and the whole payment goes back.
 */
export async function groupPaid(tx: Executor, leadId: number, now: Date): Promise<PaidOutcome> {
  const { batch, members } = await lockGroup(tx, leadId)
  if (members.length === 0) return { result: 'refund', reason: 'The registrations no longer exist.' }
  if (members.some((member) => member.status === 'confirmed')) return { result: 'refund', reason: 'These registrations had already been paid for: a second payment is refunded.' }
  if (members.some((member) => member.status === 'cancelled' || member.status === 'refund_pending' || member.status === 'refunded')) {
    return { result: 'refund', reason: 'The registrations had been cancelled before the payment arrived.' }
  }
  const holdsStand = members.every((member) => member.status === 'pending' && member.holdExpiresAt !== null && member.holdExpiresAt > now)
  if (!holdsStand && !(await seatsStillFree(tx, members, batch, now))) {
    await setStatus(tx, campRegistrations, 'refund_pending', groupRows(leadId), { holdExpiresAt: null, updatedAt: now })
    await enqueueEmail(await groupLatePaymentEmail(tx, leadId), { campRegistrationId: leadId }, tx, now)
    await notifyOnWhatsApp(
      'refund_started',
      async () => {
        const { first, names, swimmers, total } = await groupSummary(tx, leadId)
        return { phone: first.phone, parameters: [campPaidFor(first, names), first.reference, campLatePaymentReason(), formatRupees(total), await refundPolicyIn(tx)], names: swimmers, about: { campRegistrationId: leadId } }
      },
      tx,
      now,
    )
    return { result: 'refund', reason: 'The payment arrived after the seat holds had expired and the batch had too few seats left.' }
  }
  await setStatus(tx, campRegistrations, 'confirmed', groupRows(leadId), { confirmedAt: now, holdExpiresAt: null, updatedAt: now })
  await enqueueEmail(await groupConfirmationEmail(tx, leadId, now), { campRegistrationId: leadId }, tx, now)
  // One message for the family's group, as one e-mail.
  await notifyOnWhatsApp(
    'camp_confirmed',
    async () => {
      const { first, names, swimmers } = await groupSummary(tx, leadId)
      return { phone: first.phone, parameters: [names, first.campName, formatDateRange(first.startsOn, first.endsOn), batchLine(first), first.reference], names: swimmers, about: { campRegistrationId: leadId } }
    },
    tx,
    now,
  )
  return { result: 'confirmed', late: !holdsStand }
}

function groupRows(leadId: number) {
  return eq(campRegistrations.groupId, leadId)
}

async function seatsStillFree(tx: Executor, members: Array<{ id: number; status: string; holdExpiresAt: Date | null }>, batch: Awaited<ReturnType<typeof lockGroup>>['batch'], now: Date) {
  if (!batch || !registrationOpen(batch, now)) return false
  // Seats taken by everyone else, then whether the group still fits.
  const all = (await campSeatsTaken([batch.batchId], now, tx)).get(batch.batchId) ?? 0
  const ours = members.filter((member) => member.status === 'pending' && member.holdExpiresAt !== null && member.holdExpiresAt > now).length
  return all - ours + members.length <= batch.capacity
}

/** Every payment for the group failed: all its seats are released at once, and after a failed payment the parent is told where to try again. */
export async function groupUnpaid(tx: Executor, leadId: number, now: Date, why: UnpaidBecause) {
  const released = await setStatus(tx, campRegistrations, 'payment_failed', groupRows(leadId), { holdExpiresAt: null, updatedAt: now }).returning({ id: campRegistrations.id })
  if (!released.length) return
  if (why === 'payment_failed') {
    const { first, names, swimmers, total } = await groupSummary(tx, leadId)
    await enqueueEmail(paymentFailedEmail(first, { total, names, greeting: await guardianNameOf(tx, leadId) }), { campRegistrationId: leadId }, tx, now)
    await notifyOnWhatsApp(
      'payment_failed',
      { phone: first.phone, parameters: [formatRupees(total), campPaidFor(first, names), first.reference, { kind: 'register-again', registrationId: leadId }], names: swimmers, about: { campRegistrationId: leadId } },
      tx,
      now,
    )
  }
  await tx
    .update(campWaitlist)
    .set({ status: 'expired' })
    .where(and(inArray(campWaitlist.registrationId, released.map((row) => row.id)), eq(campWaitlist.status, 'offered')))
  await campSeatFreed(tx)
}

/**
 * A refund of the group's payment completed: of one registration's fee (`part`, a staff
 * cancellation), or of the whole payment (it could not confirm them, or was paid twice).
 */
export async function groupRefunded(tx: Executor, leadId: number, { amountPaise, how, part, creditNote }: CompletedRefund, now: Date) {
  const which = part !== undefined ? and(groupRows(leadId), eq(campRegistrations.id, part)) : groupRows(leadId)
  await setStatus(tx, campRegistrations, 'refunded', and(which, inArray(campRegistrations.status, ['refund_pending', 'cancelled'])), { updatedAt: now })
  const members = await groupMembers(tx, leadId)
  const refundedOnes = part !== undefined ? members.filter((member) => member.id === part) : members
  const lead = await registrationDetails(tx, leadId)
  const reference = refundedOnes.length === 1 ? refundedOnes[0]!.reference : lead.reference
  await enqueueEmail(
    letter({
      to: lead.email,
      subject: `Refund completed (${reference})`,
      name: await guardianNameOf(tx, leadId),
      attachments: creditNote ? [creditNote] : undefined,
      paragraphs: [`Your refund of ${formatRupees(amountPaise)} for ${lead.campName} (${listNames(refundedOnes.map((member) => member.swimmerName))}) ${refundedBy(how)}`],
      details: [
        ...refundedOnes.map((member): [string, string] => [`Registration ID (${member.swimmerName})`, member.reference]),
        ['Refunded', formatRupees(amountPaise)],
      ],
    }),
    { campRegistrationId: leadId },
    tx,
    now,
  )
  const refundedNames = refundedOnes.map((member) => member.swimmerName)
  await notifyOnWhatsApp('refund_completed', { phone: lead.phone, parameters: [formatRupees(amountPaise), campPaidFor(lead, listNames(refundedNames)), reference, refundedHow(how)], names: refundedNames, about: { campRegistrationId: leadId } }, tx, now)
}

async function guardianName(executor: Executor, registration: { accountId: number | null; name: string }) {
  if (registration.accountId === null) return registration.name
  const [account] = await executor.select({ name: users.name }).from(users).where(eq(users.id, registration.accountId))
  return account?.name ?? registration.name
}

async function guardianNameOf(executor: Executor, leadId: number) {
  const [row] = await executor.select({ accountId: campRegistrations.accountId, name: campRegistrations.swimmerName }).from(campRegistrations).where(eq(campRegistrations.id, leadId))
  return row ? guardianName(executor, row) : 'there'
}

async function groupDetails(executor: Executor, leadId: number) {
  const members = await groupMembers(executor, leadId)
  return Promise.all(members.map((member) => registrationDetails(executor, member.id)))
}

/** The group as its WhatsApp messages name it: the lead's details, every swimmer's name (listed, and each), and the sum of their fees. */
async function groupSummary(executor: Executor, leadId: number) {
  const details = await groupDetails(executor, leadId)
  const swimmers = details.map((mail) => mail.swimmerName)
  return { first: details[0]!, names: listNames(swimmers), swimmers, total: details.reduce((sum, mail) => sum + mail.amountPaise, 0) }
}

async function groupConfirmationEmail(executor: Executor, leadId: number, now: Date) {
  const details = await groupDetails(executor, leadId)
  const first = details[0]!
  const names = listNames(details.map((mail) => mail.swimmerName))
  const total = details.reduce((sum, mail) => sum + mail.amountPaise, 0)
  return letter({
    to: first.email,
    subject: `Camp registration confirmed: ${names}, ${first.campName} (${first.reference})`,
    name: await guardianNameOf(executor, leadId),
    paragraphs: [`${campPaidSentence(total)} ${names} are registered for the camp! Here are the details.`],
    details: [
      ['Camp', `${first.campName}, ${formatDateRange(first.startsOn, first.endsOn)}`],
      ['Batch', `${first.batchName}: ${batchTimes(first.timeRanges)}, every day`],
      ['Location', first.venue],
      ...details.map((mail): [string, string] => [`Swimmer`, `${mail.swimmerName} (Registration ID ${mail.reference})`]),
      ...quoteRows(await campOrderQuote(executor, leadId), 'Amount paid').map(({ term, value }): [string, string] => [term, value]),
    ],
    list: { title: 'Before the camp', items: ['Please arrive 15 minutes before your batch.', 'Bring swimming gear, a towel and a water bottle.'] },
    action: { label: 'Register another swimmer', url: `${config().SITE_URL}${href('/onboarding')}` },
    closing: `The attached calendar files add the camp (${formatDateRange(first.startsOn, first.endsOn)}) to your calendar, one for each swimmer.`,
    attachments: details.map((mail) => calendarAttachment(campCalendar(mail, { now }), `${mail.reference}.ics`)),
  })
}

async function groupLatePaymentEmail(executor: Executor, leadId: number) {
  const details = await groupDetails(executor, leadId)
  const first = details[0]!
  const total = details.reduce((sum, mail) => sum + mail.amountPaise, 0)
  const refundPolicy = await refundPolicyIn(executor)
  return letter({
    to: first.email,
    subject: `Your payment is being refunded (${first.reference})`,
    name: await guardianNameOf(executor, leadId),
    paragraphs: [
      `Your payment of ${formatRupees(total)} reached us after the ${config().SEAT_HOLD_MINUTES}-minute hold on the seats had ended, and meanwhile the batch filled up. We are sorry: we could not confirm the registrations of ${listNames(details.map((mail) => mail.swimmerName))}.`,
      `The full amount is being refunded ${refundPolicy}. You do not need to do anything.`,
    ],
    details: details.map((mail): [string, string] => ['Registration ID', `${mail.reference} (${mail.swimmerName})`]),
  })
}


import { and, eq, inArray, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { bookings, campRegistrations, payments, type PromoProduct } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { applyPromoCode, limitPromoAttempts, previewPromoCode, promoCustomerKey, promoOfOrder, releasePromoUse, storedCode } from '~/modules/promotions/uses.server'
import { payableOf, promoOrderOf, type OrderDraft, type PayableKind, type PayableRef, type PaymentTerms } from './payable-contract.server'
import { payableKind } from './payable-kinds.server'
import { HoldExpiredError, payableColumn, startPayment, type StartedPayment } from './payments.server'
import { limitHoldAttempts, type Holder } from '~/modules/holders/holders.server'
import { requestIfTicked, type WhatsAppBox } from '~/modules/whatsapp/consent.server'
import { quoteLine, quoteOf, type Quote } from './quote'

/**
 * The checkout: every page that takes payment runs `checkout` (at the end of this file), whose steps
 * go in one order. And its prices: whatever is bought (a 3-day session, a single session, a camp for one
 * swimmer or several), a promo code is checked and the order repriced on the server, in one
 * transaction with the order locked, before the gateway is asked for anything. What each line is
 * charged stays its `amount_paise`; the promo code's share of it is `promo_discount_paise`.
 */

/** A payment for the order is already with the gateway: its amount can no longer change. */
export class PaymentUnderWayError extends DomainError {
  constructor() {
    super('conflict', 'A payment for this order is already under way, so its price can no longer change. Complete or cancel it on the payment page first.', 'promoCode')
  }
}

/** Whose use of a code the order counts as: the paying account's, or the e-mail address's for a guest. */
export function customerKeyOf(terms: Pick<PaymentTerms, 'accountId' | 'customer'>) {
  return promoCustomerKey({ accountId: terms.accountId, email: terms.customer.email })
}

/**
 * Applies a promo code to an order waiting for payment, and reprices it; each refusal says why, next
 * to the code's field. Attempts are counted per network and per order, so codes cannot be guessed.
 */
export async function applyCodeToOrder({ payable, code, network, now = new Date() }: { payable: PayableRef; code: string; network: string; now?: Date }) {
  await limitPromoAttempts({ network, order: promoOrderOf(payable) }, now)
  return db().transaction(async (tx) => {
    const terms = await lockedTerms(tx, payable, now)
    const applied = await applyPromoCode(tx, { code, product: terms.promoProduct, customerKey: customerKeyOf(terms), order: promoOrderOf(payable), pricesPaise: terms.lines.map((line) => line.pricePaise), now })
    await setPromoDiscounts(tx, payable.kind, terms.lines.map((line, index) => ({ id: line.id, discountPaise: applied.discountsPaise[index]! })))
    return { code: applied.code, discountPaise: applied.discountsPaise.reduce((sum, paise) => sum + paise, 0) }
  })
}

/** Takes an order's promo code off (its use goes back) and restores its price. */
export async function removeCodeFromOrder({ payable, now = new Date() }: { payable: PayableRef; now?: Date }) {
  await db().transaction(async (tx) => {
    const terms = await lockedTerms(tx, payable, now)
    await releasePromoUse(tx, promoOrderOf(payable), now)
    await setPromoDiscounts(tx, payable.kind, terms.lines.map((line) => ({ id: line.id, discountPaise: 0 })))
  })
}

/** The code an order carries, with what it takes off: for its summary before payment. */
export async function promoCodeOfOrder(payable: PayableRef) {
  return promoOfOrder(db(), promoOrderOf(payable))
}

/** The code a payment's order carried, with what it took off: for its status page. */
export async function promoCodeOfPayment(orderId: string) {
  const [payment] = await db().select({ bookingId: payments.bookingId, campRegistrationId: payments.campRegistrationId }).from(payments).where(eq(payments.orderId, orderId))
  return payment ? promoCodeOfOrder(payableOf(payment)) : null
}

/** The order locked with its terms, refused when it can no longer be paid or a payment for it is with the gateway. */
async function lockedTerms(tx: Executor, payable: PayableRef, now: Date) {
  const terms = await payableKind(payable.kind).termsForPayment(tx, payable.id, now)
  if (!terms) throw new HoldExpiredError()
  const column = payableColumn(payable.kind)
  const [open] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(column, payable.id), inArray(payments.state, ['initiated', 'pending'])))
    .limit(1)
  if (open) throw new PaymentUnderWayError()
  return terms
}

/** Writes each line's promo discount: what it is charged moves by the difference, so any other discount on it stays. */
async function setPromoDiscounts(tx: Executor, kind: PayableKind, lines: Array<{ id: number; discountPaise: number }>) {
  const table = kind === 'booking' ? bookings : campRegistrations
  for (const line of lines) {
    await tx
      .update(table)
      .set({ amountPaise: sql`${table.amountPaise} + ${table.promoDiscountPaise} - ${line.discountPaise}`, promoDiscountPaise: line.discountPaise })
      .where(eq(table.id, line.id))
  }
}

/**
 * What a promo code would take off an order not held yet (/booking's summary, before its seat is
 * held): checked as applying it would be, nothing held; attempts counted like applying.
 */
export async function previewCode({ code, product, customer, pricesPaise, network, now = new Date() }: { code: string; product: PromoProduct; customer: { accountId: number | null; email: string }; pricesPaise: number[]; network: string | null; now?: Date }) {
  const customerKey = promoCustomerKey(customer)
  if (network !== null) await limitPromoAttempts({ network, customerKey }, now)
  const preview = await previewPromoCode(db(), { code, product, customerKey, pricesPaise, now })
  return { code: preview.code, discountsPaise: preview.discountsPaise, discountPaise: preview.discountsPaise.reduce((sum, paise) => sum + paise, 0) }
}

/**
 * What an order not held yet would cost now, shown live on the form while the customer chooses: its
 * lines priced as holding it would price them, less `code`'s discount as applying it would take it
 * off, so the total is the one its summary and the gateway will ask. Nothing is held. A code that
 * does not apply is left off and its refusal returned, to show next to the code's field; `network`
 * counts the attempt (previewCode).
 */
export async function quoteDraft({
  kind,
  draft,
  code,
  customer,
  network,
  now = new Date(),
}: {
  kind: PayableKind
  draft: OrderDraft
  code: string | null
  customer: { accountId: number | null; email: string }
  network: string | null
  now?: Date
}): Promise<{ quote: Quote; refusal: DomainError | null }> {
  const { lines, promoProduct } = await quotingOf({ kind }).draft(db(), draft, now)
  if (!code) return { quote: quoteOf(lines, null), refusal: null }
  try {
    const preview = await previewCode({ code, product: promoProduct, customer, pricesPaise: lines.map((line) => line.amountPaise), network, now })
    return { quote: quoteOf(lines.map((line, index) => quoteLine({ ...line, promoDiscountPaise: preview.discountsPaise[index]! })), preview.code), refusal: null }
  } catch (error) {
    if (!(error instanceof DomainError && error.field === 'promoCode')) throw error
    return { quote: quoteOf(lines, null), refusal: error }
  }
}

/** An order given up before payment (its promo code refused when the seat was held): its seats and its code go back. */
export async function abandonOrder({ payable, now = new Date() }: { payable: PayableRef; now?: Date }) {
  await db().transaction(async (tx) => {
    await payableKind(payable.kind).unpaid(tx, payable.id, now, 'given_up')
    await releasePromoUse(tx, promoOrderOf(payable), now)
  })
}

function quotingOf(payable: Pick<PayableRef, 'kind'>) {
  const quoting = payableKind(payable.kind).quoting
  if (!quoting) throw new Error(`A ${payable.kind} order has no quote`)
  return quoting
}

/** The quote a payment's order was paid (or is being paid) at: for its status page. */
export async function quoteOfPayment(orderId: string) {
  const [payment] = await db().select({ bookingId: payments.bookingId, campRegistrationId: payments.campRegistrationId }).from(payments).where(eq(payments.orderId, orderId))
  return payment ? storedQuote(payableOf(payment)) : null
}

/** An order's quote as stored: what its summary, its payment, its status page, e-mails and receipt show. */
export async function storedQuote(payable: PayableRef, executor: Executor = db()): Promise<Quote> {
  const lines = await quotingOf(payable).lines(executor, payable.id)
  return quoteOf(lines, (await promoOfOrder(executor, promoOrderOf(payable)))?.code ?? null)
}

/**
 * Prices an order held for payment, once, and stores the price: each line at the price in force now
 * (a camp's fee and sibling price), less `code`'s discount. A code that no longer applies (used up,
 * switched off, expired) is taken off and its refusal returned, to show next to the code; the rest of the quote stands.
 * `network` counts the attempt at a code the customer typed (null when re-checking the order's own).
 */
export async function quoteOrder({ payable, code, network, now = new Date() }: { payable: PayableRef; code: string | null; network: string | null; now?: Date }): Promise<{ quote: Quote; refusal: DomainError | null }> {
  const quoting = quotingOf(payable)
  if (code && network !== null) await limitPromoAttempts({ network, order: promoOrderOf(payable) }, now)
  return db().transaction(async (tx) => {
    await lockedTerms(tx, payable, now)
    await quoting.reprice(tx, payable.id, now)
    let refusal: DomainError | null = null
    if (code) {
      try {
        await tx.transaction(async (savepoint) => {
          const terms = (await payableKind(payable.kind).termsForPayment(savepoint, payable.id, now))!
          const applied = await applyPromoCode(savepoint, { code, product: terms.promoProduct, customerKey: customerKeyOf(terms), order: promoOrderOf(payable), pricesPaise: terms.lines.map((line) => line.pricePaise), now })
          await setPromoDiscounts(savepoint, payable.kind, terms.lines.map((line, index) => ({ id: line.id, discountPaise: applied.discountsPaise[index]! })))
        })
      } catch (error) {
        if (!(error instanceof DomainError && error.field === 'promoCode')) throw error
        refusal = error
      }
    }
    if (!code || refusal) await releasePromoUse(tx, promoOrderOf(payable), now)
    return { quote: await storedQuote(payable, tx), refusal }
  })
}

/**
 * The customer confirms the quote they were shown (`quotedTotalPaise`): priced again now, and paid
 * only if the total is still the one they saw. Otherwise (the early-bird price ended, the code was
 * used up meanwhile) the new quote is stored and returned for them to see; nothing goes to the gateway.
 * A payment already under way for the order is resumed.
 */
export async function confirmQuote({
  payable,
  quotedTotalPaise,
  description,
  statusUrl,
  now = new Date(),
}: {
  payable: PayableRef
  quotedTotalPaise: number
  description: string
  statusUrl: (orderId: string) => string | Promise<string>
  now?: Date
}): Promise<StartedPayment | PriceChanged> {
  try {
    const current = await promoCodeOfOrder(payable)
    const { quote, refusal } = await quoteOrder({ payable, code: current?.code ?? null, network: null, now })
    if (refusal || quote.totalPaise !== quotedTotalPaise) return { changed: quote, refusal }
  } catch (error) {
    if (!(error instanceof PaymentUnderWayError)) throw error
  }
  return startPayment({ payable, description, statusUrl, now })
}

/** The steps of a checkout, in the order it takes them; a refusal says at which one it stopped. */
export type CheckoutStep = 'attempts' | 'promo' | 'payment'

/** Sent to pay: the gateway's page, or (an order the code made free, paid at once) its status page. */
export type Paying = { paying: StartedPayment }
/** Everything before the payment is done: the customer confirms the price on the order's summary, and pays from there. */
export type ToConfirm = { toConfirm: true }
/** The price changed since the customer was shown it: the new quote is stored for them to see, nothing went to the gateway. */
export type PriceChanged = { changed: Quote; refusal: DomainError | null }
/** A step refused (its DomainError says why, next to its field if it has one); `gaveUp`: the order was given up, its seats and code back. */
export type CheckoutRefused = { refused: DomainError; step: CheckoutStep; gaveUp: boolean }
export type CheckoutResult = Paying | ToConfirm | PriceChanged | CheckoutRefused

/** The code a form sent with the order, and what its refusal gives up. */
export type CheckoutCode = {
  code: string
  /** Who typed it: attempts at codes are counted per network and per order. */
  network: string
  /**
   * The order is given up (nothing stays held at a price the customer did not agree to) when the
   * code is refused ('refused'), or when anything stops it from being applied, a limit of attempts
   * included ('anything': /booking, whose summary showed the code before the seat was held).
   */
  givesUpWhen: 'refused' | 'anything'
}

type CheckoutOrder = {
  payable: PayableRef
  attempts?: Pick<Holder, 'network' | 'email'>
  whatsapp?: WhatsAppBox
  promo?: CheckoutCode
  now?: Date
}

/** What the gateway is told the payment is for, where it sends the customer back, and the total they confirmed (when they were shown a quote). */
type PayNow = { description: string; statusUrl: (orderId: string) => string | Promise<string>; quotedTotalPaise?: number }

/**
 * Every checkout, whatever is bought and from whichever page: the steps run in this one order, each
 * only when the page asks for it, and the first that refuses ends it.
 * 1. `attempts`: an attempt to pay counts against the holder's limits (per network and e-mail
 *    address); left out where holding the order has just counted it.
 * 2. `whatsapp`: the form's box, the number asked to confirm when it was ticked (requestIfTicked).
 * 3. `promo`: the code the form sent, taken off the order (quoted with it, for a kind that quotes;
 *    else applied), unless the order carries it already or a payment for it is under way (the
 *    customer came back to it). Its refusal is returned to show next to the code's field.
 * 4. `pay.quotedTotalPaise`: the quote the customer confirms, priced again; a changed total is
 *    returned instead of paying (confirmQuote).
 * 5. `pay`: the payment (or, when nothing is left to pay, the order paid at once); a payment already
 *    open for the order is resumed. Without `pay` the customer confirms a summary first (toConfirm).
 * A refusal of the rules comes back as a result; anything else (a fault) is thrown.
 */
export function checkout(order: CheckoutOrder & { pay: PayNow & { quotedTotalPaise: number } }): Promise<Paying | PriceChanged | CheckoutRefused>
export function checkout(order: CheckoutOrder & { pay: PayNow }): Promise<Paying | CheckoutRefused>
export function checkout(order: CheckoutOrder & { pay?: undefined }): Promise<ToConfirm | CheckoutRefused>
export async function checkout({ payable, attempts, whatsapp, promo, pay, now = new Date() }: CheckoutOrder & { pay?: PayNow }): Promise<CheckoutResult> {
  if (attempts) {
    try {
      // Each attempt may create an order at the gateway.
      await limitHoldAttempts(attempts, now)
    } catch (error) {
      return refusedAt('attempts', error)
    }
  }
  if (whatsapp) await requestIfTicked(whatsapp, db(), now)
  if (promo) {
    const refused = await takeCode(payable, promo, now)
    if (refused) return refused
  }
  if (!pay) return { toConfirm: true }
  try {
    if (pay.quotedTotalPaise === undefined) return { paying: await startPayment({ payable, description: pay.description, statusUrl: pay.statusUrl, now }) }
    const confirmed = await confirmQuote({ payable, quotedTotalPaise: pay.quotedTotalPaise, description: pay.description, statusUrl: pay.statusUrl, now })
    return 'redirectUrl' in confirmed ? { paying: confirmed } : confirmed
  } catch (error) {
    return refusedAt('payment', error)
  }
}

/** A step's refusal as a result; a fault (not a refusal of the rules) is thrown on. */
function refusedAt(step: CheckoutStep, error: unknown, gaveUp = false): CheckoutRefused {
  if (!(error instanceof DomainError)) throw error
  return { refused: error, step, gaveUp }
}

/** The checkout's code step: null once the code is on the order (or left as it is), else the refusal, the order given up as `givesUpWhen` says. */
async function takeCode(payable: PayableRef, { code, network, givesUpWhen }: CheckoutCode, now: Date) {
  if ((await promoCodeOfOrder(payable))?.code === storedCode(code)) return null
  try {
    if (payableKind(payable.kind).quoting) {
      const { refusal } = await quoteOrder({ payable, code, network, now })
      if (refusal) throw refusal
    } else {
      await applyCodeToOrder({ payable, code, network, now })
    }
    return null
  } catch (error) {
    if (error instanceof PaymentUnderWayError) return null
    const gaveUp = givesUpWhen === 'anything' || (error instanceof DomainError && error.field === 'promoCode')
    if (gaveUp) await abandonOrder({ payable, now })
    return refusedAt('promo', error, gaveUp)
  }
}

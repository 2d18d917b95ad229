import type { Executor } from '~/db/client.server'
import type { MailAttachment, PromoProduct } from '~/db/schema'
import type { PromoOrder } from '~/modules/promotions/uses.server'
import type { QuoteLine } from './quote'

/**
 * What a payment can pay for. Each kind (a booking, a camp registration) says how to lock itself
 * for payment and what its payment completing, failing or being refunded means for it; the
 * payments module handles the gateway, the order states and exactly-once.
 */
export type PayableKind = 'booking' | 'camp'
export type PayableRef = { kind: PayableKind; id: number }

export type PaidOutcome = { result: 'confirmed'; late: boolean } | { result: 'refund'; reason: string }

export type PaymentTerms = {
  amountPaise: number
  /** The seat hold's end; the gateway order expires with it. */
  holdExpiresAt: Date
  customer: { name: string; email: string; phone: string | null }
  reference: string
  /** What is bought, line by line (the booking, or each swimmer's registration), each with its price before a promo code. */
  lines: Array<{ id: number; pricePaise: number }>
  /** What a promo code must be for to apply to it. */
  promoProduct: PromoProduct
  /** The account paying, if signed in: a promo code's uses per customer count by it (else by e-mail address). */
  accountId: number | null
}

/** Why an order ends unpaid: its payment failed, or the customer gave it up before paying (and is on the page that says why). */
export type UnpaidBecause = 'payment_failed' | 'given_up'

export type RefundedHow = 'gateway' | 'by_hand'

/** A refund that completed, as the product it refunds hears of it. */
export type CompletedRefund = {
  amountPaise: number
  /** Through the gateway, or paid by the lab's staff directly. */
  how: RefundedHow
  /** The one item refunded when the payment paid for several (see refunds.campRegistrationId). */
  part?: number
  /** Its credit note, which the "Refund completed" e-mail carries. */
  creditNote?: MailAttachment
}

/** How the "Refund completed" e-mail says the money came back. */
export function refundedBy(how: RefundedHow) {
  return how === 'gateway'
    ? 'has been completed by our payment provider. Depending on your bank it can take a few days to show in your account.'
    : 'has been completed: our team has repaid you directly, not through the payment provider. If it has not reached you, please contact us.'
}

/**
 * An order not held yet, as a form describes it while the customer chooses: a camp's batch, and who
 * swims (a signed-in parent's swimmers by id, or the name typed for one swimmer registered without an account).
 */
export type OrderDraft = { campCode: string; batchCode: string; swimmers: { accountId: number; ids: number[] } | { name: string } }

export type Payable = {
  /** The prefix of its order ids: SLOT for sessions, CAMP for camps. */
  orderPrefix: string
  /** Locks it (in the caller's transaction) and says what to charge; null when it cannot be paid now. */
  termsForPayment(tx: Executor, id: number, now: Date): Promise<PaymentTerms | null>
  /** A payment completed: confirm, or say why the money must go back. */
  paid(tx: Executor, id: number, now: Date): Promise<PaidOutcome>
  /**
   * Its payments all failed, or it was given up before any payment started: release what it holds,
   * and after a failed payment tell the customer where to try again.
   */
  unpaid(tx: Executor, id: number, now: Date, why: UnpaidBecause): Promise<void>
  /** A refund of one of its payments completed: settle it and tell the customer. */
  refunded(tx: Executor, id: number, refund: CompletedRefund, now: Date): Promise<void>
  /** What is quoted before payment (see checkout.server.ts quoteOrder); a kind without it shows its own summary. */
  quoting?: {
    /** Its lines as stored. */
    lines(executor: Executor, id: number): Promise<QuoteLine[]>
    /** Prices it again at `now` (locked by the caller), with no promo code taken off. */
    reprice(tx: Executor, id: number, now: Date): Promise<void>
    /** The lines of an order not held yet, priced as holding it now would price them, with no promo code taken off; nothing is held. */
    draft(executor: Executor, draft: OrderDraft, now: Date): Promise<{ lines: QuoteLine[]; promoProduct: PromoProduct }>
  }
}

/** What a payment row pays for. */
export function payableOf(row: { bookingId: number | null; campRegistrationId: number | null }): PayableRef {
  return row.bookingId !== null ? { kind: 'booking', id: row.bookingId } : { kind: 'camp', id: row.campRegistrationId! }
}

/** The order a promo code's use belongs to: the booking, or the registration that leads a camp payment. */
export function promoOrderOf(payable: PayableRef): PromoOrder {
  return payable.kind === 'booking' ? { bookingId: payable.id } : { campRegistrationId: payable.id }
}

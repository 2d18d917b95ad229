import { and, desc, eq, exists, gt, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { bookings, campRegistrations, promoCodes, promoCodeUses, users, type PromoProduct } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { formatLabDate, formatLastDayBefore } from '~/lib/lab-time'
import { discountsOff } from '~/lib/money'
import { enforce, type RateLimitRule } from '~/modules/rate-limit/rate-limit.server'
import { promoDiscountRow, promoProductsText, timesText } from './texts'

// A promo code applied to an order: checked, then one of its uses held for the order while it waits
// for payment, counted for good once it is paid, given back when it is not.

/** A booking, or a camp registration (the group's first one when several swimmers pay at once). */
export type PromoOrder = { bookingId: number } | { campRegistrationId: number }

/** What a code may look like (as staff create them), in either letter case; anything else is no code at all. */
const CODE_AS_TYPED = /^[A-Za-z0-9_-]{1,32}$/

const NOT_VALID = 'This promo code is not valid.'

function refused(message: string): DomainError {
  return new DomainError('invalid', message, 'promoCode')
}

/** `account:<id>` for a signed-in customer, `email:<lower-cased address>` for a guest. */
export function promoCustomerKey(who: { accountId: number | null; email: string }): string {
  return who.accountId !== null ? `account:${who.accountId}` : `email:${who.email.trim().toLowerCase()}`
}

const ACCOUNT_KEY = /^account:(\d+)$/
const EMAIL_PREFIX = 'email:'

/**
 * Every key a customer's uses are stored under. An account and its address are one customer: a use as
 * a guest under the address counts for the account, and the account's uses for a guest typing it. Only
 * once the address is verified, though: before that it is merely what the registrant typed, and must
 * neither spend the owner's uses nor be charged with them.
 */
async function keysOfCustomer(ex: Executor, customerKey: string): Promise<string[]> {
  const account = ACCOUNT_KEY.exec(customerKey)
  if (account) {
    const [owner] = await ex.select({ email: users.email }).from(users).where(and(eq(users.id, Number(account[1])), eq(users.isVerified, true)))
    return owner ? [customerKey, promoCustomerKey({ accountId: null, email: owner.email })] : [customerKey]
  }
  const email = customerKey.slice(EMAIL_PREFIX.length)
  const [owner] = await ex.select({ id: users.id }).from(users).where(and(eq(users.email, email), eq(users.isVerified, true)))
  return owner ? [customerKey, promoCustomerKey({ accountId: owner.id, email })] : [customerKey]
}

/**
 * The code as stored (upper case), or null when what was typed cannot be a code: too long, a NUL,
 * letters outside A-Z (checked before changing case, since some characters upper-case to Latin letters).
 */
export function storedCode(typed: string): string | null {
  const trimmed = typed.trim()
  return CODE_AS_TYPED.test(trimmed) ? trimmed.toUpperCase() : null
}

function ofOrder(order: PromoOrder): SQL {
  return 'bookingId' in order ? eq(promoCodeUses.bookingId, order.bookingId) : eq(promoCodeUses.campRegistrationId, order.campRegistrationId)
}

/**
 * In the caller's transaction: checks the code for this product and customer, and holds one use of it
 * for the order (replacing a use the order already holds, which is released first). Throws
 * DomainError('invalid', <message>, 'promoCode') for every refusal. Uses are counted exactly under
 * concurrency: the code's row is locked (FOR UPDATE) while its uses (held + used) are counted and the
 * new one inserted, so 50 simultaneous applications of a code with 10 uses left hold exactly 10.
 */
export async function applyPromoCode(
  tx: Executor,
  args: { code: string; product: PromoProduct; customerKey: string; order: PromoOrder; pricesPaise: number[]; now: Date },
): Promise<{ promoCodeId: number; code: string; discountsPaise: number[] }> {
  const { customerKey, order, pricesPaise, now } = args
  const promo = await usableCode(tx, { ...args, lock: true })
  const [paid] = await tx.select({ id: promoCodeUses.id }).from(promoCodeUses).where(and(ofOrder(order), eq(promoCodeUses.state, 'used')))
  if (paid) throw refused('This order has already been paid for, so its promo code can no longer be changed.')
  await releasePromoUse(tx, order, now)

  const discountsPaise = discountsOff(pricesPaise, { kind: promo.discountKind, value: promo.discountValue })
  await tx.insert(promoCodeUses).values({
    promoCodeId: promo.id,
    ...('bookingId' in order ? { bookingId: order.bookingId } : { campRegistrationId: order.campRegistrationId }),
    customerKey,
    discountPaise: discountsPaise.reduce((sum, paise) => sum + paise, 0),
    state: 'held',
    createdAt: now,
    updatedAt: now,
  })
  return { promoCodeId: promo.id, code: promo.code, discountsPaise }
}

/**
 * The code, once every check has passed: it exists and is switched on, is valid now, is for this
 * product, and has uses left in all and for this customer (the order's own use not counted).
 * `lock` takes the code's row for the rest of the transaction, so uses are counted exactly.
 */
async function usableCode(ex: Executor, args: { code: string; product: PromoProduct; customerKey: string; order: PromoOrder | null; now: Date; lock: boolean }) {
  const { product, customerKey, order, now, lock } = args
  const code = storedCode(args.code)
  if (code === null) throw refused(NOT_VALID)
  const [promo] = await (lock ? ex.select().from(promoCodes).where(eq(promoCodes.code, code)).for('update') : ex.select().from(promoCodes).where(eq(promoCodes.code, code)))
  if (!promo || !promo.active) throw refused(NOT_VALID)
  if (promo.validFrom && now < promo.validFrom) throw refused(`This promo code can be used from ${formatLabDate(promo.validFrom)}.`)
  if (promo.validUntil && now >= promo.validUntil) throw refused(`This promo code expired: its last day was ${formatLastDayBefore(promo.validUntil)}.`)
  if (promo.products.length > 0 && !promo.products.includes(product)) throw refused(`This promo code is only for ${promoProductsText(promo.products)}.`)

  // The order's own use does not count against it: it is given back when the new one is held.
  const sameCustomer = inArray(promoCodeUses.customerKey, await keysOfCustomer(ex, customerKey))
  const [counts] = await ex
    .select({
      taken: sql<number>`count(*)::int`,
      byCustomer: sql<number>`(count(*) FILTER (WHERE ${sameCustomer}))::int`,
    })
    .from(promoCodeUses)
    .where(and(eq(promoCodeUses.promoCodeId, promo.id), ne(promoCodeUses.state, 'released'), order ? sql`NOT (${ofOrder(order)})` : undefined))
  const { taken, byCustomer } = counts ?? { taken: 0, byCustomer: 0 }
  if (promo.maxUses !== null && taken >= promo.maxUses) throw refused('This promo code has been used up: all its uses have been taken.')
  if (promo.maxUsesPerCustomer !== null && byCustomer >= promo.maxUsesPerCustomer) {
    throw refused(`You have already used this promo code ${timesText(promo.maxUsesPerCustomer)}, as often as one person may use it.`)
  }

  return promo
}

/**
 * What a code would take off prices not yet held (the summary before a seat is held): every check of
 * `applyPromoCode`, nothing held. Applying it to the order afterwards checks again.
 */
export async function previewPromoCode(ex: Executor, args: { code: string; product: PromoProduct; customerKey: string; pricesPaise: number[]; now: Date }) {
  const promo = await usableCode(ex, { ...args, order: null, lock: false })
  return { code: promo.code, discountsPaise: discountsOff(args.pricesPaise, { kind: promo.discountKind, value: promo.discountValue }) }
}

/** The order's held use goes back (its payment failed, its hold expired, the customer removed the code); no-op when none. */
export async function releasePromoUse(tx: Executor, order: PromoOrder, now: Date): Promise<void> {
  await tx
    .update(promoCodeUses)
    .set({ state: 'released', updatedAt: now })
    .where(and(ofOrder(order), eq(promoCodeUses.state, 'held')))
}

/**
 * The order was paid: its held use counts for good. A payment that completes after its hold ran out
 * (and the use was given back meanwhile) still paid the discounted price: its latest use counts again.
 */
export async function markPromoUsed(tx: Executor, order: PromoOrder, now: Date): Promise<void> {
  const held = await tx
    .update(promoCodeUses)
    .set({ state: 'used', updatedAt: now })
    .where(and(ofOrder(order), eq(promoCodeUses.state, 'held')))
    .returning({ id: promoCodeUses.id })
  if (held.length > 0) return
  const [discounted] =
    'bookingId' in order
      ? await tx.select({ id: bookings.id }).from(bookings).where(and(eq(bookings.id, order.bookingId), gt(bookings.promoDiscountPaise, 0)))
      : await tx
          .select({ id: campRegistrations.id })
          .from(campRegistrations)
          .where(and(or(eq(campRegistrations.id, order.campRegistrationId), eq(campRegistrations.groupId, order.campRegistrationId)), gt(campRegistrations.promoDiscountPaise, 0)))
          .limit(1)
  if (!discounted) return
  const [latest] = await tx.select({ id: promoCodeUses.id, state: promoCodeUses.state }).from(promoCodeUses).where(ofOrder(order)).orderBy(desc(promoCodeUses.id)).limit(1)
  if (latest?.state === 'released') await tx.update(promoCodeUses).set({ state: 'used', updatedAt: now }).where(eq(promoCodeUses.id, latest.id))
}

/** The code an order holds or used (for summaries, receipts): null when none. */
export async function promoOfOrder(ex: Executor, order: PromoOrder): Promise<{ code: string; discountPaise: number } | null> {
  // At most one use of an order is not released (a unique index); the newest first all the same.
  const [use] = await ex
    .select({ code: promoCodes.code, discountPaise: promoCodeUses.discountPaise })
    .from(promoCodeUses)
    .innerJoin(promoCodes, eq(promoCodes.id, promoCodeUses.promoCodeId))
    .where(and(ofOrder(order), ne(promoCodeUses.state, 'released')))
    .orderBy(desc(promoCodeUses.id))
    .limit(1)
  return use ?? null
}

/**
 * How often one network, and one order (or one customer before anything is held), may try a promo
 * code: enough for typing mistakes, far too few to guess codes by trying them.
 */
export const PROMO_ATTEMPT_LIMITS = {
  perNetwork: { limit: 30, windowSeconds: 10 * 60 },
  perOrder: { limit: 10, windowSeconds: 10 * 60 },
} satisfies Record<string, RateLimitRule>

/** The counter of attempts at promo codes for an order (`booking:<id>`, `camp:<id>`) or a customer (promoCustomerKey). */
export const promoAttemptsKey = (subject: string) => `promo:order:${subject}`

/** Counts an attempt at a promo code for an order, or for a customer's order to be; throws RateLimitedError past PROMO_ATTEMPT_LIMITS. */
export function limitPromoAttempts({ network, order, customerKey }: { network: string } & ({ order: PromoOrder; customerKey?: never } | { customerKey: string; order?: never }), now = new Date()) {
  const subject = order ? ('bookingId' in order ? `booking:${order.bookingId}` : `camp:${order.campRegistrationId}`) : customerKey
  return enforce(
    [
      { key: `promo:network:${network}`, rule: PROMO_ATTEMPT_LIMITS.perNetwork },
      { key: promoAttemptsKey(subject), rule: PROMO_ATTEMPT_LIMITS.perOrder },
    ],
    now,
  )
}

/**
 * Gives back the uses held by orders that will not be paid: their hold ran out, their payment
 * failed, they were released for another. (A payment that completes later still counts its use:
 * `markPromoUsed` takes a given-back use too while its order carries the discount.)
 */
export async function releaseLapsedPromoUses(now = new Date()) {
  // Driven by the few held uses, each looking up its own order, however many orders there are.
  const lapsed = (table: typeof bookings | typeof campRegistrations, id: typeof promoCodeUses.bookingId | typeof promoCodeUses.campRegistrationId) =>
    exists(
      db()
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.id, id), or(inArray(table.status, ['expired', 'payment_failed']), and(eq(table.status, 'pending'), lte(table.holdExpiresAt, now))))),
    )
  const released = await db()
    .update(promoCodeUses)
    .set({ state: 'released', updatedAt: now })
    .where(and(eq(promoCodeUses.state, 'held'), or(lapsed(bookings, promoCodeUses.bookingId), lapsed(campRegistrations, promoCodeUses.campRegistrationId))))
    .returning({ id: promoCodeUses.id })
  return released.length
}

/** The line a confirmation e-mail gives an order's promo code, when it has one. */
export async function promoDetailRows(ex: Executor, order: PromoOrder): Promise<Array<[string, string]>> {
  const promo = await promoOfOrder(ex, order)
  if (!promo) return []
  const { term, value } = promoDiscountRow(promo)
  return [[term, value]]
}

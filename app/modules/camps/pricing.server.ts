import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { campRegistrations, camps } from '~/db/schema'
import type { Discount } from '~/lib/money'
import { toE164 } from '~/lib/phone'
import { quoteLine, quoteOf, type QuoteLine } from '~/modules/payments/quote'
import { promoOfOrder } from '~/modules/promotions/uses.server'
import { campPrice } from './camps.server'
import { campPricingColumns } from '~/db/camp-columns.server'
import { siblingDiscountOf, swimmerPrices, type SwimmerPrice } from './sibling-price'

/**
 * Who a family is, for the sibling price: an account (its registrations), or a parent registering
 * without one, known by the e-mail address (in any letter case) and the phone number (in E.164,
 * however it was typed).
 */
export type Family = { accountId: number } | { email: string; phone: string }

/** A camp's prices, as the camp's row holds them. */
export type CampPricing = {
  campId: number
  earlyBirdPricePaise: number
  regularPricePaise: number
  earlyBirdEndsAt: Date
  siblingDiscountKind: Discount['kind'] | null
  siblingDiscountValue: number
}

/** A number as typed and in E.164 (as every form now keeps it), so a family is found however its number was written. */
function samePhone(phone: string) {
  const e164 = toE164(phone)
  return e164 && e164 !== phone ? [phone, e164] : [phone]
}

/** Registrations of the camp by the family. */
function familyRegistrations(campId: number, family: Family) {
  return and(
    eq(campRegistrations.campId, campId),
    'accountId' in family ? eq(campRegistrations.accountId, family.accountId) : and(sql`lower(${campRegistrations.email}) = ${family.email.toLowerCase()}`, inArray(campRegistrations.phone, samePhone(family.phone))),
  )
}

/**
 * Whether a swimmer of the family is already paid for in the camp (any batch). Only a paid
 * registration counts: a family could otherwise hold a seat, let it lapse, and keep the lower price.
 */
export async function familyHasPaidSwimmer(executor: Executor, campId: number, family: Family) {
  const [row] = await executor
    .select({ id: campRegistrations.id })
    .from(campRegistrations)
    .where(and(familyRegistrations(campId, family), eq(campRegistrations.status, 'confirmed')))
    .limit(1)
  return Boolean(row)
}

/**
 * The price of each of `count` registrations of one family's swimmers, held together at `now`:
 * the fee in force then (early-bird or regular), less the camp's sibling price for every swimmer
 * after the family's first (see swimmerPrices); a `family` of null is a new one. Every camp registration's price is set here.
 */
export async function registrationPrices(executor: Executor, camp: CampPricing, family: Family | null, count: number, now: Date): Promise<SwimmerPrice[]> {
  const sibling = siblingDiscountOf(camp)
  const earlierSiblingPaid = sibling && family ? await familyHasPaidSwimmer(executor, camp.campId, family) : false
  return swimmerPrices(campPrice(camp, now), sibling, count, earlierSiblingPaid)
}

/** The codes of the camps in which the account has a swimmer paid for: there, every swimmer it registers pays the sibling price. */
export async function campsWithPaidSwimmer(accountId: number) {
  const rows = await db()
    .selectDistinct({ code: camps.code })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .where(and(eq(campRegistrations.accountId, accountId), eq(campRegistrations.status, 'confirmed')))
    .orderBy(camps.code)
  return rows.map((row) => row.code)
}

/** The price of one swimmer's registration, held on its own (see registrationPrices). */
export async function registrationPrice(executor: Executor, camp: CampPricing, family: Family, now: Date): Promise<SwimmerPrice> {
  const [price] = await registrationPrices(executor, camp, family, 1, now)
  return price!
}

/** The columns of a registration a price fills in. */
export function priceColumns(price: SwimmerPrice) {
  return { amountPaise: price.amountPaise, siblingDiscountPaise: price.siblingDiscountPaise }
}

/** The registrations one camp payment pays for: the group a registration leads, or the registration alone. */
function paidTogether(registrationId: number) {
  return or(eq(campRegistrations.groupId, registrationId), and(eq(campRegistrations.id, registrationId), isNull(campRegistrations.groupId)))
}

/** A camp order's lines as stored, one for each swimmer it pays for. */
export async function campOrderLines(executor: Executor, registrationId: number): Promise<QuoteLine[]> {
  const rows = await executor
    .select({ id: campRegistrations.id, swimmerName: campRegistrations.swimmerName, amountPaise: campRegistrations.amountPaise, siblingDiscountPaise: campRegistrations.siblingDiscountPaise, promoDiscountPaise: campRegistrations.promoDiscountPaise })
    .from(campRegistrations)
    .where(paidTogether(registrationId))
    .orderBy(asc(campRegistrations.id))
  return rows.map((row) => campLine({ id: row.id, swimmerName: row.swimmerName, feePaise: row.amountPaise + row.siblingDiscountPaise + row.promoDiscountPaise, siblingDiscountPaise: row.siblingDiscountPaise, promoDiscountPaise: row.promoDiscountPaise }))
}

/** One swimmer's line of a camp order, held or not yet. */
export function campLine(parts: Omit<QuoteLine, 'amountPaise' | 'label'>): QuoteLine {
  return quoteLine({ ...parts, label: `Camp fee for ${parts.swimmerName}` })
}

/** A camp order's quote as stored (see checkout.server.ts storedQuote): what its e-mails show. */
export async function campOrderQuote(executor: Executor, registrationId: number) {
  return quoteOf(await campOrderLines(executor, registrationId), (await promoOfOrder(executor, { campRegistrationId: registrationId }))?.code ?? null)
}

/**
 * Prices a held camp order again at `now`, before its payment starts (the caller has locked it): the
 * fee in force and the sibling price as they are now, no promo code yet. A parent who held a seat at
 * the early-bird price and pays after its deadline is shown the new price before paying it.
 */
export async function repriceCampOrder(tx: Executor, registrationId: number, now: Date) {
  const rows = await tx
    .select({ id: campRegistrations.id, campId: campRegistrations.campId, accountId: campRegistrations.accountId, email: campRegistrations.email, phone: campRegistrations.phone })
    .from(campRegistrations)
    .where(paidTogether(registrationId))
    .orderBy(asc(campRegistrations.id))
  const first = rows[0]
  if (!first) return
  const [camp] = await tx.select(campPricingColumns).from(camps).where(eq(camps.id, first.campId))
  const family: Family = first.accountId !== null ? { accountId: first.accountId } : { email: first.email, phone: first.phone }
  const prices = await registrationPrices(tx, { campId: first.campId, ...camp! }, family, rows.length, now)
  for (const [index, row] of rows.entries()) {
    await tx.update(campRegistrations).set({ ...priceColumns(prices[index]!), promoDiscountPaise: 0 }).where(eq(campRegistrations.id, row.id))
  }
}

import { desc, eq, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { isUniqueViolation } from '~/db/unique-violation.server'
import { promoCodes, promoCodeUses } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addDays, formatLastDayBefore, formatLabDate, labInstant } from '~/lib/lab-time'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import type { PromoCodeDetails } from './staff-schemas'
import { promoDiscountText, promoProductsText } from './texts'

// Promo codes as staff create, edit, switch on and off, and follow: how often each was used and how
// much it has taken off.

const CODE_TAKEN = 'promo_codes_code_unique'

const promoColumns = {
  id: promoCodes.id,
  code: promoCodes.code,
  description: promoCodes.description,
  discountKind: promoCodes.discountKind,
  discountValue: promoCodes.discountValue,
  products: promoCodes.products,
  validFrom: promoCodes.validFrom,
  validUntil: promoCodes.validUntil,
  maxUses: promoCodes.maxUses,
  maxUsesPerCustomer: promoCodes.maxUsesPerCustomer,
  active: promoCodes.active,
  createdAt: promoCodes.createdAt,
}

/** Per code: uses paid for, uses held by orders waiting for payment, uses ever made, and what the paid ones took off. */
function useCounts() {
  return db()
    .select({
      promoCodeId: promoCodeUses.promoCodeId,
      used: sql<number>`(count(*) FILTER (WHERE ${promoCodeUses.state} = 'used'))::int`.as('used'),
      held: sql<number>`(count(*) FILTER (WHERE ${promoCodeUses.state} = 'held'))::int`.as('held'),
      applied: sql<number>`count(*)::int`.as('applied'),
      discountGivenPaise: sql<number>`(coalesce(sum(${promoCodeUses.discountPaise}) FILTER (WHERE ${promoCodeUses.state} = 'used'), 0))::int`.as('discount_given_paise'),
    })
    .from(promoCodeUses)
    .groupBy(promoCodeUses.promoCodeId)
    .as('use_counts')
}

/** The codes with their uses (none counted as 0). */
function promoCodesWithUses() {
  const counts = useCounts()
  return db()
    .select({
      ...promoColumns,
      used: sql<number>`coalesce(${counts.used}, 0)`,
      held: sql<number>`coalesce(${counts.held}, 0)`,
      applied: sql<number>`coalesce(${counts.applied}, 0)`,
      discountGivenPaise: sql<number>`coalesce(${counts.discountGivenPaise}, 0)`,
    })
    .from(promoCodes)
    .leftJoin(counts, eq(counts.promoCodeId, promoCodes.id))
    .$dynamic()
}

export type StaffPromoCode = Awaited<ReturnType<typeof staffPromoCodes>>[number]

/** Every code with its uses, the newest first. */
export async function staffPromoCodes() {
  return promoCodesWithUses().orderBy(desc(promoCodes.createdAt), desc(promoCodes.id))
}

/** One code with its uses, or null. */
export async function staffPromoCode(id: number) {
  const [found] = await promoCodesWithUses().where(eq(promoCodes.id, id))
  return found ?? null
}

/** The stored values of a code's details: the window's days as instants, its last day up to midnight after it (IST). */
function promoValues(details: PromoCodeDetails) {
  return {
    code: details.code,
    description: details.description,
    discountKind: details.discountKind,
    discountValue: details.discountValue,
    products: details.products,
    validFrom: details.validFrom === null ? null : labInstant(details.validFrom),
    validUntil: details.validUntil === null ? null : labInstant(addDays(details.validUntil, 1)),
    maxUses: details.maxUses,
    maxUsesPerCustomer: details.maxUsesPerCustomer,
  }
}

type PromoValues = ReturnType<typeof promoValues>

const FIELD_NAMES: Record<keyof PromoValues, string> = {
  code: 'code',
  description: 'description',
  discountKind: 'discount',
  discountValue: 'discount',
  products: 'for',
  validFrom: 'valid from',
  validUntil: 'valid until',
  maxUses: 'uses',
  maxUsesPerCustomer: 'uses per customer',
}

function describe(key: keyof PromoValues, values: PromoValues): string {
  switch (key) {
    case 'discountKind':
    case 'discountValue':
      return promoDiscountText(values.discountKind, values.discountValue)
    case 'products':
      return promoProductsText(values.products)
    case 'validFrom':
      return values.validFrom ? formatLabDate(values.validFrom) : 'any time'
    case 'validUntil':
      return values.validUntil ? formatLastDayBefore(values.validUntil) : 'no end'
    case 'maxUses':
    case 'maxUsesPerCustomer':
      return values[key] === null ? 'unlimited' : String(values[key])
    case 'description':
      return `“${values.description}”`
    default:
      return values[key]
  }
}

/** A one-line summary of a code, for the audit log. */
function summaryOf(values: PromoValues) {
  return `${values.code}: ${promoDiscountText(values.discountKind, values.discountValue)} off ${promoProductsText(values.products)}`
}

function snapshot(values: PromoValues) {
  return { ...values, validFrom: values.validFrom?.toISOString() ?? null, validUntil: values.validUntil?.toISOString() ?? null }
}

function codeTaken(code: string) {
  return new DomainError('conflict', `Another promo code is already ${code}. Please choose another.`, 'code')
}

/** Creates a code, active from the start. */
export async function createPromoCode(actor: Actor, details: PromoCodeDetails, now = new Date()) {
  const values = promoValues(details)
  try {
    return await db().transaction(async (tx) => {
      const [created] = await tx
        .insert(promoCodes)
        .values({ ...values, active: true, createdAt: now, updatedAt: now })
        .returning({ id: promoCodes.id })
      await recordAudit(tx, actor, { action: 'promo_code.create', entityType: 'promo_code', entityId: created!.id, summary: `Created promo code ${summaryOf(values)}`, after: snapshot(values) }, now)
      return { id: created!.id }
    })
  } catch (error) {
    if (isUniqueViolation(error, CODE_TAKEN)) throw codeTaken(values.code)
    throw error
  }
}

/**
 * Edits a code's details. Its text changes only while no order has ever applied it: the orders,
 * their receipts and the customers who were given it name it by that text, and a use that says
 * another code than the one typed would leave no trace of what was offered. Returns what changed.
 */
export async function updatePromoCode(actor: Actor, id: number, details: PromoCodeDetails, now = new Date()) {
  const after = promoValues(details)
  try {
    return await db().transaction(async (tx) => {
      const [current] = await tx.select(promoColumns).from(promoCodes).where(eq(promoCodes.id, id)).for('update')
      if (!current) throw new DomainError('not_found', 'No such promo code')
      const { id: _id, active: _active, createdAt: _createdAt, ...before } = current
      const changed = (Object.keys(after) as Array<keyof PromoValues>).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      if (changed.length === 0) return { changed }
      if (changed.includes('code')) {
        const [applied] = await tx.select({ id: promoCodeUses.id }).from(promoCodeUses).where(eq(promoCodeUses.promoCodeId, id)).limit(1)
        if (applied) throw new DomainError('conflict', `Orders have already used ${before.code}, so its text can no longer be changed. Create a new code instead.`, 'code')
      }
      await tx
        .update(promoCodes)
        .set({ ...after, updatedAt: now })
        .where(eq(promoCodes.id, id))
      const names = [...new Set(changed.map((key) => key === 'discountKind' ? 'discountValue' : key))]
      await recordAudit(
        tx,
        actor,
        {
          action: 'promo_code.update',
          entityType: 'promo_code',
          entityId: id,
          summary: `Changed promo code ${before.code}: ${names.map((key) => `${FIELD_NAMES[key]} ${describe(key, before)} → ${describe(key, after)}`).join('; ')}`,
          before: Object.fromEntries(changed.map((key) => [key, snapshot(before)[key]])),
          after: Object.fromEntries(changed.map((key) => [key, snapshot(after)[key]])),
        },
        now,
      )
      return { changed }
    })
  } catch (error) {
    if (isUniqueViolation(error, CODE_TAKEN)) throw codeTaken(after.code)
    throw error
  }
}

/** Switches a code on or off; orders holding it keep it. Returns whether it changed. */
export async function setPromoCodeActive(actor: Actor, id: number, active: boolean, now = new Date()) {
  return db().transaction(async (tx) => {
    const [current] = await tx.select({ code: promoCodes.code, active: promoCodes.active }).from(promoCodes).where(eq(promoCodes.id, id)).for('update')
    if (!current) throw new DomainError('not_found', 'No such promo code')
    if (current.active === active) return false
    await tx.update(promoCodes).set({ active, updatedAt: now }).where(eq(promoCodes.id, id))
    await recordAudit(
      tx,
      actor,
      { action: active ? 'promo_code.activate' : 'promo_code.deactivate', entityType: 'promo_code', entityId: id, summary: `${active ? 'Activated' : 'Deactivated'} promo code ${current.code}`, before: { active: current.active }, after: { active } },
      now,
    )
    return true
  })
}

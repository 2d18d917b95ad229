import { eq, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { campBatches, camps } from '~/db/schema'
import { formatRupees } from '~/lib/money'
import { formatLabDate, labInstant } from '~/lib/lab-time'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { isUniqueViolation } from '~/db/unique-violation.server'
import type { BatchDetails, CampDetails } from './staff-schemas'
import { campColumns } from '~/db/camp-columns.server'
import { siblingDiscountOf, siblingDiscountText } from './sibling-price'
import { campSeatFreed } from '~/modules/statuses/camp-seat-freed.server'

/** A change staff asked for that the rules do not allow; `field` names the form field it is about. */
export class CampChangeRefusedError extends DomainError {
  constructor(message: string, field?: string) {
    super('conflict', message, field)
  }
}

function campValues(details: CampDetails) {
  return {
    name: details.name,
    startsOn: details.startsOn,
    endsOn: details.endsOn,
    venue: details.venue,
    earlyBirdPricePaise: details.earlyBirdPricePaise,
    regularPricePaise: details.regularPricePaise,
    // The deadline is a day in Bangalore: the early-bird price lasts until that day ends there.
    earlyBirdEndsAt: labInstant(details.earlyBirdDeadline, '23:59:59'),
    isOpen: details.isOpen,
    siblingDiscount: details.siblingDiscount,
  }
}

/** A camp's values as its row stores them: the sibling price in two columns. */
function campRow({ siblingDiscount, ...values }: CampValues) {
  return { ...values, siblingDiscountKind: siblingDiscount?.kind ?? null, siblingDiscountValue: siblingDiscount?.value ?? 0 }
}

/** A camp's row as the values staff edit. */
function storedValues({ siblingDiscountKind, siblingDiscountValue, ...row }: Omit<typeof camps.$inferSelect, 'id' | 'code' | 'sortOrder' | 'updatedAt'>): CampValues {
  return { ...row, siblingDiscount: siblingDiscountOf({ siblingDiscountKind, siblingDiscountValue }) }
}

type CampValues = ReturnType<typeof campValues>

const CAMP_FIELD_NAMES: Record<keyof CampValues, string> = {
  name: 'name',
  startsOn: 'first day',
  endsOn: 'last day',
  venue: 'venue',
  earlyBirdPricePaise: 'early-bird price',
  regularPricePaise: 'regular price',
  earlyBirdEndsAt: 'early-bird deadline',
  isOpen: 'registration',
  siblingDiscount: 'sibling price',
}

function describeCampValue(key: keyof CampValues, values: CampValues) {
  if (key === 'earlyBirdPricePaise' || key === 'regularPricePaise') return formatRupees(values[key])
  if (key === 'earlyBirdEndsAt') return `end of ${formatLabDate(values.earlyBirdEndsAt)}`
  if (key === 'isOpen') return values.isOpen ? 'open' : 'closed'
  if (key === 'siblingDiscount') return values.siblingDiscount ? siblingDiscountText(values.siblingDiscount) : 'none'
  return values[key]
}

/** The keys whose values differ, comparing as stored (JSON: a date as its instant). */
export function changedKeys<Values extends Record<string, unknown>>(before: Values, after: Values): Array<keyof Values & string> {
  return (Object.keys(after) as Array<keyof Values & string>).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
}

export function pick<Values extends Record<string, unknown>>(values: Values, keys: Array<keyof Values & string>) {
  return Object.fromEntries(keys.map((key) => [key, values[key]]))
}

function campSnapshot(values: CampValues) {
  return { ...values, earlyBirdEndsAt: values.earlyBirdEndsAt.toISOString() }
}

/** Creates a camp with its batches (listed after the existing camps). */
export async function createCamp(actor: Actor, camp: CampDetails & { code: string; batches: BatchDetails[] }, now = new Date()) {
  const values = campValues(camp)
  try {
    return await db().transaction(async (tx) => {
      const [{ sortOrder } = { sortOrder: 1 }] = await tx.select({ sortOrder: sql<number>`coalesce(max(${camps.sortOrder}), 0)::int + 1` }).from(camps)
      const [created] = await tx
        .insert(camps)
        .values({ code: camp.code, ...campRow(values), sortOrder, updatedAt: now })
        .returning({ id: camps.id })
      await tx.insert(campBatches).values(camp.batches.map((batch) => ({ ...batch, campId: created!.id })))
      await recordAudit(
        tx,
        actor,
        {
          action: 'camp.create',
          entityType: 'camp',
          entityId: camp.code,
          summary: `Created ${camp.name} (${camp.code}) with ${camp.batches.length} ${camp.batches.length === 1 ? 'batch' : 'batches'}`,
          after: { code: camp.code, ...campSnapshot(values), batches: camp.batches },
        },
        now,
      )
      return { code: camp.code }
    })
  } catch (error) {
    if (isUniqueViolation(error, 'camps_code_unique')) throw new CampChangeRefusedError(`Another camp already uses the code ${camp.code}`, 'code')
    throw error
  }
}

/** Edits a camp's details (its code stays: it is in links and forms already out there). Returns what changed. */
export async function updateCamp(actor: Actor, code: string, details: CampDetails, now = new Date()) {
  return db().transaction(async (tx) => {
    const [current] = await tx.select(campColumns).from(camps).where(eq(camps.code, code)).for('update')
    if (!current) throw new CampChangeRefusedError(`No camp has the code ${code}`)
    const { id: _id, code: _code, ...row } = current
    const before = storedValues(row)
    const after = campValues(details)
    const changed = changedKeys(before, after)
    if (changed.length === 0) return { changed }
    await tx
      .update(camps)
      .set({ ...campRow(after), updatedAt: now })
      .where(eq(camps.id, current.id))
    await recordAudit(
      tx,
      actor,
      {
        action: 'camp.update',
        entityType: 'camp',
        entityId: code,
        summary: `Changed ${before.name}: ${changed.map((key) => `${CAMP_FIELD_NAMES[key]} ${describeCampValue(key, before)} → ${describeCampValue(key, after)}`).join('; ')}`,
        before: pick(campSnapshot(before), changed),
        after: pick(campSnapshot(after), changed),
      },
      now,
    )
    // Reopened: seats free meanwhile go to the people waiting.
    if (after.isOpen && !before.isOpen) await campSeatFreed(tx)
    return { changed }
  })
}

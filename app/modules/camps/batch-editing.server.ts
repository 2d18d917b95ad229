import { eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { campBatches, camps } from '~/db/schema'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { CampChangeRefusedError, changedKeys, pick } from './camp-editing.server'
import { campSeatsTaken } from './camps.server'
import { batchTimes } from './fulfilment.server'
import { isUniqueViolation } from '~/db/unique-violation.server'
import type { BatchDetails } from './staff-schemas'
import { batchColumns } from '~/db/camp-columns.server'
import { campSeatFreed } from '~/modules/statuses/camp-seat-freed.server'

/** Adds a batch to a camp. */
export async function addBatch(actor: Actor, campCode: string, batch: BatchDetails, now = new Date()) {
  const [camp] = await db().select({ id: camps.id, name: camps.name }).from(camps).where(eq(camps.code, campCode))
  if (!camp) throw new CampChangeRefusedError(`No camp has the code ${campCode}`)
  try {
    await db().transaction(async (tx) => {
      const [created] = await tx
        .insert(campBatches)
        .values({ ...batch, campId: camp.id })
        .returning({ id: campBatches.id })
      await recordAudit(
        tx,
        actor,
        { action: 'camp_batch.create', entityType: 'camp_batch', entityId: created!.id, summary: `Added ${batch.name} to ${camp.name}: ${batchTimes(batch.timeRanges)}, ${batch.capacity} seats`, after: batch },
        now,
      )
    })
  } catch (error) {
    if (isUniqueViolation(error, 'camp_batches_camp_code_unique')) throw new CampChangeRefusedError(`${camp.name} already has a batch with the code ${batch.code}`, 'code')
    throw error
  }
}

/** A batch of a camp, its row locked: seats are counted under this lock. */
export async function lockStaffBatch(tx: Executor, batchId: number) {
  const [row] = await tx
    .select({ ...batchColumns, campCode: camps.code, campName: camps.name })
    .from(campBatches)
    .innerJoin(camps, eq(camps.id, campBatches.campId))
    .where(eq(campBatches.id, batchId))
    .for('update', { of: campBatches })
  return row ?? null
}

function describeBatchValue(key: keyof BatchDetails, batch: BatchDetails) {
  if (key === 'timeRanges') return batchTimes(batch.timeRanges)
  if (key === 'capacity') return `${batch.capacity} seats`
  return batch[key]
}

function seatsTakenMessage(taken: number, batchName: string) {
  return `${taken} ${taken === 1 ? 'seat is' : 'seats are'} taken in ${batchName}, so its capacity cannot be less than ${taken}.`
}

/**
 * Edits a batch. Its capacity cannot go below the seats taken now (counted under the batch's
 * lock, so no registration can slip in between); more seats go to the waitlist first.
 */
export async function updateBatch(actor: Actor, { campCode, batchId, batch, now = new Date() }: { campCode: string; batchId: number; batch: BatchDetails; now?: Date }) {
  try {
    return await db().transaction(async (tx) => {
      const current = await lockStaffBatch(tx, batchId)
      if (!current || current.campCode !== campCode) throw new CampChangeRefusedError('This batch is not part of this camp.')
      const taken = (await campSeatsTaken([batchId], now, tx)).get(batchId) ?? 0
      if (batch.capacity < taken) throw new CampChangeRefusedError(seatsTakenMessage(taken, current.name), 'capacity')
      const before = { code: current.code, name: current.name, timeRanges: current.timeRanges, capacity: current.capacity }
      const changed = changedKeys(before, batch)
      if (changed.length === 0) return { changed }
      await tx.update(campBatches).set(batch).where(eq(campBatches.id, batchId))
      await recordAudit(
        tx,
        actor,
        {
          action: 'camp_batch.update',
          entityType: 'camp_batch',
          entityId: batchId,
          summary: `Changed ${current.name} of ${current.campName}: ${changed.map((key) => `${key === 'timeRanges' ? 'times' : key} ${describeBatchValue(key, before)} → ${describeBatchValue(key, batch)}`).join('; ')}`,
          before: pick(before, changed),
          after: pick(batch, changed),
        },
        now,
      )
      if (batch.capacity > current.capacity) await campSeatFreed(tx)
      return { changed }
    })
  } catch (error) {
    if (isUniqueViolation(error, 'camp_batches_camp_code_unique')) throw new CampChangeRefusedError(`This camp already has a batch with the code ${batch.code}`, 'code')
    throw error
  }
}

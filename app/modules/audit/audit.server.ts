import { and, desc, eq, lt, type SQL } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { auditLog, type About } from '~/db/schema'

/** The member of staff making a change. */
export type Actor = { id: number; email: string }

/** Someone acting on their own or their child's data, such as a parent answering a consent link (who may have no account). */
export type PersonActing = { id: number | null; email: string }

type AuditEntry = {
  /** What was done, as a verb phrase: 'slot.create', 'booking.cancel', 'settings.update'. */
  action: string
  entityType: string
  entityId: string | number
  /**
   * One line a person can read: "Cancelled SWP-1234567890 with a refund of ₹30,000.00". A value
   * naming a person is written `{key}` and given in `personal`: "Disabled the account of {customer}".
   */
  summary: string
  /**
   * The values naming a person (a customer's or swimmer's name, an address, a number, what staff
   * wrote about a swimmer), kept apart: the summary, before and after hold none of them, so erasing
   * the person replaces these values and nothing else. Empty values are left out.
   */
  personal?: Record<string, string | null | undefined>
  /** Whose data the entry is about: erasure and the data export find a person's entries by it. */
  about?: About
  before?: unknown
  after?: unknown
}

/**
 * Records a change in the audit log, in the same transaction as the change itself: a change that
 * is rolled back leaves no entry, and no change is made without one.
 */
export async function recordAudit(executor: Executor, actor: Actor | PersonActing, entry: AuditEntry, now = new Date()) {
  await executor.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    entityType: entry.entityType,
    entityId: String(entry.entityId),
    summary: entry.summary,
    // An empty map, never null: null marks the entries written before values were kept apart.
    personal: Object.fromEntries(Object.entries(entry.personal ?? {}).filter((value): value is [string, string] => Boolean(value[1]))),
    accountId: entry.about?.accountId ?? null,
    swimmerId: entry.about?.swimmerId ?? null,
    bookingId: entry.about?.bookingId ?? null,
    campRegistrationId: entry.about?.campRegistrationId ?? null,
    before: entry.before === undefined ? null : (entry.before as object),
    after: entry.after === undefined ? null : (entry.after as object),
    createdAt: now,
  })
}

/** An entry's summary as people read it: each `{key}` given in `personal` replaced by its value. */
export function readableSummary(summary: string, personal: Record<string, string> | null) {
  if (!personal) return summary
  return summary.replace(/\{(\w+)\}/g, (written, key: string) => (Object.hasOwn(personal, key) ? personal[key]! : written))
}

/** The newest entries first, optionally about one thing; `beforeId` pages back through older ones. */
export async function auditEntries({ entityType, entityId, beforeId, limit = 100 }: { entityType?: string; entityId?: string; beforeId?: number; limit?: number } = {}) {
  const conditions: SQL[] = []
  if (entityType) conditions.push(eq(auditLog.entityType, entityType))
  if (entityId) conditions.push(eq(auditLog.entityId, entityId))
  if (beforeId) conditions.push(lt(auditLog.id, beforeId))
  const rows = await db()
    .select({ id: auditLog.id, actorEmail: auditLog.actorEmail, action: auditLog.action, entityType: auditLog.entityType, entityId: auditLog.entityId, summary: auditLog.summary, personal: auditLog.personal, before: auditLog.before, after: auditLog.after, createdAt: auditLog.createdAt })
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(limit)
  return rows.map(({ personal, ...row }) => ({ ...row, summary: readableSummary(row.summary, personal) }))
}

/** The kinds of thing the log has entries about, for filtering it. */
export async function auditEntityTypes() {
  const rows = await db().selectDistinct({ entityType: auditLog.entityType }).from(auditLog).orderBy(auditLog.entityType)
  return rows.map((row) => row.entityType)
}

import { and, asc, eq, gte, inArray, lte, ne, or } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { referenceBands, type BetterWhen } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { isUniqueViolation } from '~/db/unique-violation.server'
import { eventLabel, metricDefinition } from './catalog'

// Reference bands: what swimmers of a level reach ("State finalist: 29.80 s") for a stroke,
// distance and metric, by age group and gender. Staff keep the table; the family's pages draw a
// swimmer's figure against the bands of their age and gender.

export type BandInput = { stroke: string; distance: number; metric: string; ageMin: number; ageMax: number; gender: string; level: string; value: number }

/** Every band, grouped as staff read them: by event, metric, age and gender. */
export function listBands() {
  return db()
    .select()
    .from(referenceBands)
    .orderBy(asc(referenceBands.stroke), asc(referenceBands.distanceMetres), asc(referenceBands.metricKey), asc(referenceBands.ageMin), asc(referenceBands.gender), asc(referenceBands.value))
}

export async function bandById(bandId: number) {
  const [band] = await db().select().from(referenceBands).where(eq(referenceBands.id, bandId))
  return band ?? null
}

/** "50 m freestyle, Final time, 11-12, female: State finalist 29.8 s". */
export function bandLabel(band: { stroke: string; distanceMetres: number; metricKey: string; ageMin: number; ageMax: number; gender: string; level: string; value: number }) {
  const metric = metricDefinition(band.metricKey)
  const ages = band.ageMin === band.ageMax ? `age ${band.ageMin}` : `ages ${band.ageMin}-${band.ageMax}`
  return `${eventLabel(band)}, ${metric?.label ?? band.metricKey}, ${ages}, ${band.gender === 'any' ? 'any gender' : band.gender}: ${band.level} ${band.value} ${metric?.unit ?? ''}`.trim()
}

function check(input: BandInput) {
  if (!metricDefinition(input.metric)) throw new DomainError('invalid', 'Choose a metric', 'metric')
  if (input.ageMin > input.ageMax) throw new DomainError('invalid', 'The oldest age must be at least the youngest', 'ageMax')
}

const rowOf = (input: BandInput) => ({ stroke: input.stroke, distanceMetres: input.distance, metricKey: input.metric, ageMin: input.ageMin, ageMax: input.ageMax, gender: input.gender, level: input.level, value: input.value })

/** The same level for the same event, metric, ages and gender is one band: a second one is refused next to the level. */
async function assertUnique(input: BandInput, exceptId?: number) {
  const [same] = await db()
    .select({ id: referenceBands.id })
    .from(referenceBands)
    .where(
      and(
        eq(referenceBands.stroke, input.stroke),
        eq(referenceBands.distanceMetres, input.distance),
        eq(referenceBands.metricKey, input.metric),
        eq(referenceBands.ageMin, input.ageMin),
        eq(referenceBands.ageMax, input.ageMax),
        eq(referenceBands.gender, input.gender),
        eq(referenceBands.level, input.level),
        exceptId === undefined ? undefined : ne(referenceBands.id, exceptId),
      ),
    )
  if (same) throw duplicate()
}

const duplicate = () => new DomainError('conflict', 'There is a band of this level for the same event, metric, ages and gender already.', 'level')

/** Two of the staff adding the same band at once: the second is told so, like one added before. */
async function unlessDuplicate<T>(write: Promise<T>) {
  try {
    return await write
  } catch (error) {
    if (isUniqueViolation(error, 'reference_bands_unique')) throw duplicate()
    throw error
  }
}

export async function addBand(actor: Actor, input: BandInput, now = new Date()) {
  check(input)
  await assertUnique(input)
  return unlessDuplicate(db().transaction(async (tx) => {
    const [band] = await tx
      .insert(referenceBands)
      .values({ ...rowOf(input), updatedAt: now })
      .returning()
    await recordAudit(tx, actor, { action: 'band.add', entityType: 'reference_band', entityId: band!.id, summary: `Added the reference band ${bandLabel(band!)}`, after: rowOf(input) }, now)
    return band!.id
  }))
}

export async function updateBand(actor: Actor, bandId: number, input: BandInput, now = new Date()) {
  check(input)
  await assertUnique(input, bandId)
  return unlessDuplicate(db().transaction(async (tx) => {
    const [current] = await tx.select().from(referenceBands).where(eq(referenceBands.id, bandId)).for('update')
    if (!current) throw new DomainError('not_found', 'No such band.')
    const [band] = await tx
      .update(referenceBands)
      .set({ ...rowOf(input), updatedAt: now })
      .where(eq(referenceBands.id, bandId))
      .returning()
    await recordAudit(tx, actor, { action: 'band.change', entityType: 'reference_band', entityId: bandId, summary: `Changed the reference band ${bandLabel(current)} to ${bandLabel(band!)}`, before: current, after: rowOf(input) }, now)
  }))
}

export async function deleteBand(actor: Actor, bandId: number, now = new Date()) {
  return db().transaction(async (tx) => {
    const [band] = await tx.delete(referenceBands).where(eq(referenceBands.id, bandId)).returning()
    if (!band) throw new DomainError('not_found', 'No such band.')
    await recordAudit(tx, actor, { action: 'band.delete', entityType: 'reference_band', entityId: bandId, summary: `Deleted the reference band ${bandLabel(band)}`, before: band }, now)
  })
}

export type Band = { level: string; value: number }

/** Where `bandsOfEvents` keeps the bands of one figure of one event. */
export const bandKey = (stroke: string, distanceMetres: number, metricKey: string) => `${stroke}|${distanceMetres}|${metricKey}`

type BandedEvent = { stroke: string; distanceMetres: number; metrics: Array<{ key: string; betterWhen: BetterWhen }> }

/**
 * The bands a swimmer's figures are drawn against, for every figure of these events (by `bandKey`):
 * those whose age range holds the swimmer's age, for their gender or for any (a swimmer whose gender
 * is neither male nor female, or unknown, is shown the bands for any; a level set for the gender wins
 * over the same level for any), weakest level first: the slowest time, the shortest stroke.
 */
export async function bandsOfEvents(events: BandedEvent[], age: number, gender: string | null): Promise<Map<string, Band[]>> {
  const bands = new Map<string, Band[]>()
  if (events.length === 0) return bands
  const rows = await db()
    .select()
    .from(referenceBands)
    .where(
      and(
        or(...events.map((event) => and(eq(referenceBands.stroke, event.stroke), eq(referenceBands.distanceMetres, event.distanceMetres)))),
        lte(referenceBands.ageMin, age),
        gte(referenceBands.ageMax, age),
        inArray(referenceBands.gender, gender === 'male' || gender === 'female' ? [gender, 'any'] : ['any']),
      ),
    )
  const chosen = new Map<string, { value: number; specific: boolean }>()
  for (const row of rows) {
    const key = `${bandKey(row.stroke, row.distanceMetres, row.metricKey)}|${row.level}`
    const specific = row.gender !== 'any'
    const kept = chosen.get(key)
    if (!kept || (specific && !kept.specific)) chosen.set(key, { value: row.value, specific })
  }
  for (const [key, { value }] of chosen) {
    const [stroke, distance, metric, level] = key.split('|') as [string, string, string, string]
    const at = bandKey(stroke, Number(distance), metric)
    bands.set(at, [...(bands.get(at) ?? []), { level, value }])
  }
  for (const event of events) {
    for (const metric of event.metrics) {
      const list = bands.get(bandKey(event.stroke, event.distanceMetres, metric.key))
      if (list) list.sort((a, b) => (metric.betterWhen === 'lower' ? b.value - a.value : a.value - b.value))
    }
  }
  return bands
}
